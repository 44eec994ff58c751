package hosts

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/toolcall"
)

// edited runs a Claude payload's tool input through afterTexts on a file
// holding text (none when text is "").
func edited(t *testing.T, tool, text string, in map[string]any) toolcall.WriteText {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "f.py")
	if text != "" {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := afterTexts(call{tool: tool, kind: toolcall.KindWrite, input: in, cwd: dir}, []string{p})
	if len(got) != 1 {
		t.Fatalf("%d texts", len(got))
	}
	return got[0]
}

func TestAfterTextEdits(t *testing.T) {
	for _, c := range []struct {
		name, text string
		in         map[string]any
		want, err  string
	}{
		{"edit", "a\nb\n", map[string]any{"old_string": "b", "new_string": "c"}, "a\nc\n", ""},
		{"absent", "a\nb\n", map[string]any{"old_string": "z", "new_string": "c"}, "", "edit 1: old_string not found"},
		{"ambiguous", "a\na\n", map[string]any{"old_string": "a", "new_string": "c"}, "", "edit 1: old_string is ambiguous: found 2 times without replace_all"},
		{"replace_all", "a\na\n", map[string]any{"old_string": "a", "new_string": "c", "replace_all": true}, "c\nc\n", ""},
		{"expected count", "a\na\n", map[string]any{"old_string": "a", "new_string": "c", "expected_replacements": 3.0}, "", "edit 1: old_string found 2 times, expected 3"},
		{"new file", "", map[string]any{"old_string": "", "new_string": "x\n"}, "x\n", ""},
		{"empty old on a file", "a\n", map[string]any{"old_string": "", "new_string": "x\n"}, "", "edit 1: old_string is empty but the file is not"},
		{"multiedit in order", "a\n", map[string]any{"edits": []any{
			map[string]any{"old_string": "a", "new_string": "b"}, map[string]any{"old_string": "b", "new_string": "c"}}}, "c\n", ""},
		{"multiedit second fails", "a\n", map[string]any{"edits": []any{
			map[string]any{"old_string": "a", "new_string": "b"}, map[string]any{"old_string": "a", "new_string": "c"}}}, "", "edit 2: old_string not found"},
		{"write", "old\n", map[string]any{"content": "new\n"}, "new\n", ""},
	} {
		got := edited(t, "Edit", c.text, c.in)
		if got.Text != c.want || got.Err != c.err || got.Known != (c.err == "") {
			t.Errorf("%s: %+v, want text %q err %q", c.name, got, c.want, c.err)
		}
	}
}

func TestAfterTextEditsA2000LineFile(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "line_%d = %d\n", i, i)
	}
	got := edited(t, "Edit", b.String(), map[string]any{"old_string": "line_1999 = 1999\n", "new_string": "line_1999 = 0\nextra = 1\n"})
	if !got.Known || strings.Count(got.Text, "\n") != 2001 || !strings.HasSuffix(got.Text, "line_1998 = 1998\nline_1999 = 0\nextra = 1\n") {
		t.Errorf("2,000-line edit: known=%v err=%q, %d lines", got.Known, got.Err, strings.Count(got.Text, "\n"))
	}
}

func TestAfterTextIsBounded(t *testing.T) {
	big := strings.Repeat("x", toolcall.MaxWriteText+1)
	if got := edited(t, "Write", "", map[string]any{"content": big}); got.Known || got.Text != "" || !strings.Contains(got.Err, "over the 4194304-byte bound") {
		t.Errorf("a Write over the bound: known=%v err=%q", got.Known, got.Err)
	}
	if got := edited(t, "Edit", big, map[string]any{"old_string": "x", "new_string": "y", "replace_all": true}); got.Known || !strings.Contains(got.Err, "the file is 4194305 bytes") {
		t.Errorf("an Edit of a file over the bound: known=%v err=%q", got.Known, got.Err)
	}
	half := strings.Repeat("x", toolcall.MaxWriteText/2+1)
	if got := edited(t, "Edit", half, map[string]any{"old_string": half, "new_string": half + half}); got.Known || got.Err != "the text after the call is over the 4194304-byte bound of the text after a call" {
		t.Errorf("an Edit growing a file over the bound: known=%v err=%q", got.Known, got.Err)
	}
}

func TestAfterTextPatches(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.py"), []byte("a = 1\nb = 2\nc = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := patchTexts("*** Begin Patch\n*** Add File: n.py\n+x = 1\n+y = 2\n*** Update File: a.py\n*** Move to: m.py\n@@\n a = 1\n-b = 2\n+b = 20\n*** Delete File: c.py\n*** End Patch\n", dir)
	if len(got) != 2 || got[0].Path != filepath.Join(dir, "n.py") || got[0].Text != "x = 1\ny = 2\n" ||
		got[1].Path != filepath.Join(dir, "m.py") || got[1].Text != "a = 1\nb = 20\nc = 3\n" || got[1].Err != "" {
		t.Fatalf("patch texts: %+v", got)
	}
	bad := patchTexts("*** Begin Patch\n*** Update File: a.py\n@@\n-z = 9\n+z = 10\n*** End Patch\n", dir)
	if len(bad) != 1 || bad[0].Known || bad[0].Err != "the patch does not apply: the lines of hunk 1 are not in the file" {
		t.Errorf("a hunk not in the file: %+v", bad)
	}
	if got := patchTexts("--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n", dir); got != nil {
		t.Errorf("a unified diff is not modelled, got %+v", got)
	}
}
