package shellwrites

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

const codexPatch = `*** Begin Patch
*** Add File: src/new.py
+print("new")
+*** Update File: not/a/header.py
*** Update File: src/app.py
@@ def main():
-    pass
+    run()
*** Update File: src/old_name.py
*** Move to: lib/new_name.py
@@
 x = 1
*** Delete File: docs/gone.md
*** End Patch
`

func TestPatch(t *testing.T) {
	for _, c := range []struct {
		name, patch, writes string
	}{
		{"codex apply_patch", codexPatch, "src/new.py, src/app.py, src/old_name.py, lib/new_name.py, docs/gone.md"},
		{"crlf and spaces", "*** Begin Patch\r\n*** Update File:   a b.txt  \r\n*** End Patch\r\n", "a b.txt"},
		{"unified git diff", "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n--- a removed line\n+new\n", "x.go"},
		{"unified new file", "--- /dev/null\n+++ b/added.txt\t2024-01-01\n@@ -0,0 +1 @@\n+x\n", "added.txt"},
		{"unified delete", "--- a/del.txt\n+++ /dev/null\n", "del.txt"},
		{"headers with spaces around", "*** Begin Patch\n *** Add File: other/x\n+x\n\t*** Update File: a.py \n  *** Move to:  other/y\n*** Delete File:other/z\n*** End Patch", "other/x, a.py, other/y, other/z"},
		{"header indented without Begin", "  *** Add File: other/x\n+x\n", "other/x"},
		{"git rename", "diff --git a/src/a.py b/other/a.py\nsimilarity index 100%\nrename from src/a.py\nrename to other/a.py\n", "src/a.py, other/a.py"},
		{"git copy", "diff --git a/src/a.py b/other/c.py\nsimilarity index 90%\ncopy from src/a.py\ncopy to other/c.py\n--- a/src/a.py\n+++ b/other/c.py\n", "other/c.py"},
		{"git mode change only", "diff --git a/other/run.sh b/other/run.sh\nold mode 100644\nnew mode 100755\n", "other/run.sh"},
		{"git quoted name", "diff --git \"a/sp ace\" \"b/sp ace\"\n--- \"a/sp ace\"\n+++ \"b/sp ace\"\n", "sp ace"},
		{"context diff", "*** other/old.c\t2024\n--- other/new.c\t2024\n***************\n", "other/old.c, other/new.c"},
	} {
		r, err := Patch(c.patch)
		if got, _ := show(r); err != nil || got != c.writes {
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.writes)
		}
	}
}

func TestPatchNamingNoFileIsRefused(t *testing.T) {
	for _, p := range []string{"", "*** Begin Patch\n*** End Patch\n", "just text", "*** Add File:   \n"} {
		if _, err := Patch(p); !errors.Is(err, ErrNoPatchFiles) {
			t.Errorf("%q: %v, want ErrNoPatchFiles", p, err)
		}
	}
}

// FuzzShell: the extractor never panics on any input, and every write and
// unknown it reports has text.
func FuzzShell(f *testing.F) {
	for _, c := range shellCases {
		f.Add(c.cmd)
	}
	f.Add("bash -c 'bash -c \"touch {a,b}{1..3}\"'")
	f.Add("cat <<EOF | sh\nrm x\nEOF")
	for cmd := range worstCases {
		f.Add(cmd[:min(len(cmd), 4096)])
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		start := time.Now()
		r := ShellIn(cmd, Options{Dir: "/p", ReadFile: fixtureReader})
		// The one clock in the tests: ten times the analysis' own deadline,
		// so only an analysis that ignores its bound fails.
		if d := time.Since(start); d > 10*deadline {
			t.Fatalf("%q: %v, past the bound", cmd, d)
		}
		for _, w := range r.Writes {
			if w.Path == "" {
				t.Fatalf("%q: empty write path in %+v", cmd, r)
			}
		}
		for _, u := range r.Unknown {
			if u.Reason == "" || strings.HasPrefix(u.Reason, reasonFailed) {
				t.Fatalf("%q: unknown without a reason in %+v", cmd, r)
			}
		}
		_ = Argv(strings.Fields(cmd))
	})
}

// FuzzPatch: never panics; a patch with no error names at least one file,
// each with a non-empty path.
func FuzzPatch(f *testing.F) {
	f.Add(codexPatch)
	f.Add("--- a/x\n+++ b/x\n")
	f.Add("*** Move to:\n")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Patch(text)
		if err == nil && len(r.Writes) == 0 {
			t.Fatalf("%q: no error and no files", text)
		}
		for _, w := range r.Writes {
			if w.Path == "" || !utf8.ValidString(w.Path) && utf8.ValidString(text) {
				t.Fatalf("%q: bad path %q", text, w.Path)
			}
		}
	})
}
