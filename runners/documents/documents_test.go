package documents

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// gather runs the runner over testdata with the given globs.
func gather(t *testing.T, r *Runner, globs ...string) map[string]facts.DocumentFile {
	t.Helper()
	s := runners.NewScope(mustAbs(t, "testdata"), facts.Request{})
	s.Globs = map[string][]string{Namespace: globs}
	ns := r.Gather(context.Background(), s)
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	out := map[string]facts.DocumentFile{}
	for _, f := range ns.Data.(facts.Documents).Files {
		out[f.Path] = f
	}
	return out
}

// TestRealFiles parses a real file of every format and a malformed one of
// each, which must say the line the parser stopped at.
func TestRealFiles(t *testing.T) {
	got := gather(t, New(), "**")
	bad := map[string]struct {
		format string
		line   int
		msg    string
	}{
		"bad.json":  {facts.FormatJSON, 5, "invalid character '}' after object key"},
		"bad.jsonc": {facts.FormatJSONC, 3, "hujson: line 3"},
		"bad.yml":   {facts.FormatYAML, 5, "mapping values are not allowed"},
		"bad.toml":  {facts.FormatTOML, 4, "table a already exists"},
		"bad.ini":   {facts.FormatINI, 3, ""},
		"bad.env":   {facts.FormatEnv, 2, ""},
		"blob.json": {facts.FormatJSON, 0, "binary file"},
	}
	for p, want := range bad {
		f, ok := got[p]
		switch {
		case !ok:
			t.Errorf("%s: missing", p)
		case f.Parsed || f.Error == nil || len(f.Docs) != 0:
			t.Errorf("%s: parsed %v, error %+v, %d docs; want an error", p, f.Parsed, f.Error, len(f.Docs))
		case f.Format != want.format || f.Error.Line != want.line || !strings.Contains(f.Error.Msg, want.msg):
			t.Errorf("%s: format %s, error %+v; want %s at line %d mentioning %q", p, f.Format, f.Error, want.format, want.line, want.msg)
		}
	}
	good := map[string][]any{
		"good.json":     {map[string]any{"name": "app", "version": int64(3), "ratio": 1.0, "big": int64(12345678901234), "tags": []any{"a", nil, true}}},
		"tsconfig.json": {map[string]any{"compilerOptions": map[string]any{"strict": true, "target": int64(2020)}}},
		"multi.yaml": {
			map[string]any{"a": int64(1), "b": 1.0, "c": int64(31), "d": "+Inf", "e": "2001-12-14",
				"base": map[string]any{"x": int64(1), "y": int64(2)}, "derived": map[string]any{"x": int64(1), "y": int64(3)}},
			[]any{"one", int64(2)},
			nil,
		},
		"pyproject.toml": {map[string]any{"tool": map[string]any{
			"poetry": map[string]any{"name": "app", "version": "1.0.0"},
			"x":      map[string]any{"n": int64(3), "f": 3.0, "when": "1979-05-27T07:32:00Z", "day": "1979-05-27"}}}},
		"setup.cfg": {map[string]any{"DEFAULT": map[string]any{"top": "1"}, "section": map[string]any{"key": "value", "flag": "true"}, "other": map[string]any{"n": "3"}}},
		"app.env":   {map[string]any{"A": "1", "B": "two words", "C": "single"}},
	}
	for p, want := range good {
		f := got[p]
		if !f.Parsed || f.Error != nil {
			t.Errorf("%s: does not parse: %+v", p, f.Error)
			continue
		}
		if !reflect.DeepEqual(f.Docs, want) {
			t.Errorf("%s: docs\n got %#v\nwant %#v", p, f.Docs, want)
		}
		for i, d := range f.Docs { // integers stay integers, floats floats
			if !reflect.DeepEqual(typesOf(d), typesOf(want[i])) {
				t.Errorf("%s doc %d: types %v, want %v", p, i, typesOf(d), typesOf(want[i]))
			}
		}
	}
	if got["tsconfig.json"].Format != facts.FormatJSONC {
		t.Errorf("tsconfig.json is read as %s, want jsonc", got["tsconfig.json"].Format)
	}
}

// typesOf is v's shape with every leaf replaced by its Go type's name.
func typesOf(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = typesOf(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = typesOf(e)
		}
		return out
	case nil:
		return "nil"
	}
	return reflect.TypeOf(v).String()
}

// TestOnlyGlobbedFiles reads nothing no glob names, and nothing at all
// without globs.
func TestOnlyGlobbedFiles(t *testing.T) {
	got := gather(t, New(), "*.toml")
	if len(got) != 2 || got["pyproject.toml"].Path == "" || got["bad.toml"].Path == "" {
		t.Errorf("*.toml gave %v", keys(got))
	}
	if got := gather(t, New()); len(got) != 0 {
		t.Errorf("no globs gave %v", keys(got))
	}
}

// TestMissingFileInScope lists a requested file that does not exist as
// unparsed, not as absent from the namespace.
func TestMissingFileInScope(t *testing.T) {
	s := runners.NewScope(mustAbs(t, "testdata"), facts.Request{Explicit: true, Files: []string{"gone.yaml", "good.json"}})
	s.Globs = map[string][]string{Namespace: {"**"}}
	files := New().Gather(context.Background(), s).Data.(facts.Documents).Files
	if len(files) != 2 || files[0].Path != "gone.yaml" || files[0].Parsed || files[0].Error == nil || !files[1].Parsed {
		t.Errorf("got %+v", files)
	}
}

// TestSizeCap leaves a file over the cap unparsed, saying why.
func TestSizeCap(t *testing.T) {
	s := runners.NewScope(mustAbs(t, "testdata"), facts.Request{})
	s.Globs, s.MaxBytes = map[string][]string{Namespace: {"good.json"}}, map[string]int64{Namespace: 10}
	f := New().Gather(context.Background(), s).Data.(facts.Documents).Files[0]
	if f.Parsed || f.Error == nil || !strings.Contains(f.Error.Msg, "too large") {
		t.Errorf("got %+v", f)
	}
}

// TestCacheKeepsTypes reads the files twice through the fact cache: the
// second time from it (no file opened), with the same documents and the
// same types (a cached 1.0 is still a float).
func TestCacheKeepsTypes(t *testing.T) {
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cold := gather(t, New(runners.WithCache(st)), "**")
	opened := 0
	old := openFile
	openFile = func(name string) (io.ReadCloser, error) {
		opened++
		return old(name)
	}
	defer func() { openFile = old }()
	warm := gather(t, New(runners.WithCache(st)), "**")
	if opened != 0 {
		t.Errorf("warm run opened %d files", opened)
	}
	if !reflect.DeepEqual(cold, warm) {
		t.Errorf("warm facts differ from cold ones")
	}
	for p, f := range warm {
		if !reflect.DeepEqual(typesOf(f.Docs), typesOf(cold[p].Docs)) {
			t.Errorf("%s: cached types differ", p)
		}
	}
}

func keys(m map[string]facts.DocumentFile) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestSkipsFixtureTrees leaves out the trees of gate fixtures whatever the
// glob, so a team gate copied with its fixtures does not judge them.
func TestSkipsFixtureTrees(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{".github/workflows/ci.yml", "tausik/policies/g/fixtures/bad/tree/.github/workflows/ci.yml", "fixtures/x/ci.yml"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("on: [push]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := runners.NewScope(root, facts.Request{})
	s.Globs = map[string][]string{Namespace: {"**/*.yml"}}
	ns := New().Gather(context.Background(), s)
	var paths []string
	for _, f := range ns.Data.(facts.Documents).Files {
		paths = append(paths, f.Path)
	}
	if want := []string{".github/workflows/ci.yml", "fixtures/x/ci.yml"}; ns.Status != facts.StatusOK || !reflect.DeepEqual(paths, want) {
		t.Errorf("got %s %v, want %v", ns.Status, paths, want)
	}
}
