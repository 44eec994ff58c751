package content

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/sourcetest"
	"github.com/tausik/tausik/store"
)

// TestPythonSourceIsReadAsPythonReadsIt: a Python file is never binary for
// bytes that are not UTF-8. With a coding cookie its lines are the decoded
// text; without one, Python refuses it, and the file keeps its lines (the
// bad bytes as U+FFFD) with Error naming the line and why, so a gate
// reading lines still sees them and one that must fail closed can.
func TestPythonSourceIsReadAsPythonReadsIt(t *testing.T) {
	refused := "2: Non-UTF-8 code starting with '\\xe9', and no coding cookie names another encoding (PEP 263)"
	cases := []struct {
		name, path, src string
		want            facts.ContentFile
	}{
		{"latin-1 cookie", "legacy.py", "# -*- coding: latin-1 -*-\nprint('caf\xe9')\n",
			facts.ContentFile{Status: facts.ContentText, Lines: lines("# -*- coding: latin-1 -*-", "print('café')")}},
		{"no cookie", "legacy.py", "import os\n# caf\xe9\nprint(1)\n",
			facts.ContentFile{Status: facts.ContentText, Lines: lines("import os", "# caf\uFFFD", "print(1)"), Error: refused}},
		{"a stub", "legacy.pyi", "import os\n# caf\xe9\n",
			facts.ContentFile{Status: facts.ContentText, Lines: lines("import os", "# caf\uFFFD"), Error: refused}},
		{"BOM", "bom.py", "\xef\xbb\xbfx = 1\n", facts.ContentFile{Status: facts.ContentText, Lines: lines("x = 1")}},
		{"NUL", "blob.py", "x\x00\xe9", facts.ContentFile{Status: facts.ContentBinary, Lines: []facts.ContentLine{}}},
		{"NUL past the head", "late.py", repeat("#\n", sniffLen) + "\x00",
			facts.ContentFile{Status: facts.ContentText, Error: "8193: source code cannot contain null bytes"}},
		{"not Python", "notes.txt", "import os\n# caf\xe9\n", facts.ContentFile{Status: facts.ContentBinary, Lines: []facts.ContentLine{}}},
	}
	for _, tc := range cases {
		got := Scan(tc.path, []byte(tc.src))
		tc.want.Path, tc.want.Size = tc.path, int64(len(tc.src))
		if tc.want.Lines == nil {
			tc.want.Lines = got.Lines // checked by its length below
			if len(got.Lines) != sniffLen+1 {
				t.Errorf("%s: %d lines, want %d", tc.name, len(got.Lines), sniffLen+1)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Scan =\n%+v\nwant\n%+v", tc.name, got, tc.want)
		}
	}
}

func repeat(s string, n int) string {
	out := make([]byte, 0, len(s)*n)
	for range n {
		out = append(out, s...)
	}
	return string(out)
}

// TestPythonErrorIsNeverCached: a file Python refuses is read again each
// time (its Error has no place in a cache payload), and a decoded one comes
// back from the cache as it was read.
func TestPythonErrorIsNeverCached(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "bad.py", "# caf\xe9\n")
	sourcetest.WriteFile(t, root, "cookie.py", "# coding: latin-1\n# caf\xe9\n")
	later := runners.WithClock(func() time.Time { return time.Now().Add(time.Minute) })
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opens := sourcetest.CountOpens(t, root, &openFile)
	cold := gather(t, New(runners.WithCache(st), later), root, facts.Request{}, 0, "*.py")
	opens()
	warm := gather(t, New(runners.WithCache(st), later), root, facts.Request{}, 0, "*.py")
	if got := opens(); !reflect.DeepEqual(got, []string{"bad.py"}) {
		t.Errorf("warm run opened %v, want bad.py only", got)
	}
	if !reflect.DeepEqual(cold, warm) || warm[0].Error == "" || warm[1].Lines[1].Text != "# café" {
		t.Errorf("warm facts:\n%+v\ncold:\n%+v", warm, cold)
	}
}

func TestPlainShowsError(t *testing.T) {
	c := facts.Content{MaxBytes: 10, Files: []facts.ContentFile{
		{Path: "a.py", Status: facts.ContentText, Lines: []facts.ContentLine{}, Error: "1: why"},
		{Path: "b.py", Status: facts.ContentText, Lines: []facts.ContentLine{}},
	}}
	files := c.Plain()["files"].([]any)
	if e, ok := files[0].(map[string]any)["error"]; !ok || e != "1: why" {
		t.Errorf("a.py: error %v, want 1: why", e)
	}
	if _, ok := files[1].(map[string]any)["error"]; ok {
		t.Error("b.py has an error key: a file Python reads has none")
	}
}
