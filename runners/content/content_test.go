package content

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/sourcetest"
	"github.com/tausik/tausik/store"
)

func gather(t *testing.T, r *Runner, root string, req facts.Request, limit int64, globs ...string) []facts.ContentFile {
	t.Helper()
	s := runners.NewScope(root, req)
	s.Globs = map[string][]string{Namespace: globs}
	s.MaxBytes = map[string]int64{Namespace: limit}
	ns := r.Gather(context.Background(), s)
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	return ns.Data.(facts.Content).Files
}

func lines(texts ...string) []facts.ContentLine {
	out := []facts.ContentLine{}
	for i, s := range texts {
		out = append(out, facts.ContentLine{Line: i + 1, Text: s})
	}
	return out
}

// TestLinesAndStatuses reads the text files a glob names, 1-based, "\r\n"
// and an unterminated last line included; a binary file, one over the cap
// and a requested file that is gone carry a status instead of lines.
func TestLinesAndStatuses(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "src/a.py", "import os\r\nprint(1)\n\nlast")
	sourcetest.WriteFile(t, root, "src/deep/b.py", "x = 1\n")
	sourcetest.WriteFile(t, root, "src/empty.py", "")
	sourcetest.WriteFile(t, root, "src/latin1.py", "caf\xe9\n")
	sourcetest.WriteFile(t, root, "src/blob.py", "\x00\x01\x02")
	sourcetest.WriteFile(t, root, "src/big.py", strings.Repeat("x", 100)+"\n")
	sourcetest.WriteFile(t, root, "docs/readme.md", "not matched\n")
	got := gather(t, New(), root, facts.Request{}, 64, "src/**/*.py")
	want := []facts.ContentFile{
		{Path: "src/a.py", Status: facts.ContentText, Size: 25, Lines: lines("import os", "print(1)", "", "last")},
		{Path: "src/big.py", Status: facts.ContentTooLarge, Size: 101, Lines: []facts.ContentLine{}},
		{Path: "src/blob.py", Status: facts.ContentBinary, Size: 3, Lines: []facts.ContentLine{}},
		{Path: "src/deep/b.py", Status: facts.ContentText, Size: 6, Lines: lines("x = 1")},
		{Path: "src/empty.py", Status: facts.ContentText, Size: 0, Lines: []facts.ContentLine{}},
		// Python source: Python refuses bytes that are not UTF-8 without a
		// coding cookie, which is not binary (python_test.go).
		{Path: "src/latin1.py", Status: facts.ContentText, Size: 5, Lines: lines("caf\uFFFD"),
			Error: "1: Non-UTF-8 code starting with '\\xe9', and no coding cookie names another encoding (PEP 263)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	// The request's files, when it names them: one that is gone is missing.
	got = gather(t, New(), root, facts.Request{Explicit: true, Files: []string{"docs/readme.md", "src/deep/b.py", "src/gone.py"}}, 0, "**/*.py")
	want = []facts.ContentFile{
		{Path: "src/deep/b.py", Status: facts.ContentText, Size: 6, Lines: lines("x = 1")},
		{Path: "src/gone.py", Status: facts.ContentMissing, Lines: []facts.ContentLine{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("explicit request: got\n%+v\nwant\n%+v", got, want)
	}
	if got := gather(t, New(), root, facts.Request{}, 0); len(got) != 0 {
		t.Errorf("no globs read %d files", len(got))
	}
}

// TestCache answers an unchanged file from the fact cache without opening
// it, with the same lines, and reads an edited one again.
func TestCache(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "a.py", "one\n\ntwo\r\nthree")
	sourcetest.WriteFile(t, root, "b.py", "b\n")
	sourcetest.WriteFile(t, root, "c.bin", "\x00")
	// Entries are recorded as read a minute later, out of the files' racy window.
	later := runners.WithClock(func() time.Time { return time.Now().Add(time.Minute) })
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opens := sourcetest.CountOpens(t, root, &openFile)
	cold := gather(t, New(runners.WithCache(st), later), root, facts.Request{}, 0, "*")
	if got := opens(); len(got) != 3 {
		t.Fatalf("cold run opened %v", got)
	}
	warm := gather(t, New(runners.WithCache(st), later), root, facts.Request{}, 0, "*")
	if got := opens(); len(got) != 0 {
		t.Errorf("warm run opened %v", got)
	}
	if !reflect.DeepEqual(cold, warm) {
		t.Errorf("warm facts differ:\n%+v\n%+v", cold, warm)
	}
	sourcetest.WriteFile(t, root, "b.py", "b\nc\n")
	again := gather(t, New(runners.WithCache(st), later), root, facts.Request{}, 0, "*")
	if got := opens(); !reflect.DeepEqual(got, []string{"b.py"}) {
		t.Errorf("after an edit opened %v, want b.py", got)
	}
	if !reflect.DeepEqual(again[1].Lines, lines("b", "c")) {
		t.Errorf("edited file: %+v", again[1])
	}
}

// TestPayloadRoundTrip holds encode and decode to each other over edge
// cases: what is kept decodes to the same lines; a line ending in "\r"
// (which splitting would lose) is not kept.
func TestPayloadRoundTrip(t *testing.T) {
	for _, src := range []string{"", "a", "a\n", "a\n\n", "\n", "a\r\nb", "a\r\r\n", "x\xffy\n"} {
		f := Scan("p", []byte(src))
		payload, ok := encode(f)
		if !ok {
			if !strings.Contains(src, "\r\r") {
				t.Errorf("%q: not cached", src)
			}
			continue
		}
		back, ok := decode("p", f.Size, payload)
		if !ok || !reflect.DeepEqual(back, f) {
			t.Errorf("%q: round trip gave %+v, want %+v", src, back, f)
		}
	}
}

// TestSkipsFixtureTrees leaves out the trees of gate fixtures, which hold
// the violations a gate must catch, whatever the glob: both when the whole
// project is judged and when the request names such a file.
func TestSkipsFixtureTrees(t *testing.T) {
	root := sourcetest.TempDir(t)
	sourcetest.WriteFile(t, root, "src/a.py", "print(1)\n")
	sourcetest.WriteFile(t, root, "tausik/policies/no_print/fixtures/bad/tree/src/a.py", "print(1)\n")
	sourcetest.WriteFile(t, root, "policies/g/fixtures/c/tree/b.py", "print(2)\n")
	sourcetest.WriteFile(t, root, "tests/fixtures/data/a.py", "print(3)\n") // no tree/: judged
	for _, req := range []facts.Request{{}, {Explicit: true, Files: []string{"src/a.py", "policies/g/fixtures/c/tree/b.py"}}} {
		var paths []string
		for _, f := range gather(t, New(), root, req, 0, "**/*.py") {
			paths = append(paths, f.Path)
		}
		want := []string{"src/a.py", "tests/fixtures/data/a.py"}
		if req.Explicit {
			want = want[:1]
		}
		if !reflect.DeepEqual(paths, want) {
			t.Errorf("request %+v: got %v, want %v", req, paths, want)
		}
	}
}
