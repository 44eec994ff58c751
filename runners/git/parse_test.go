package git

import (
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

func TestParseNumstat(t *testing.T) {
	t.Parallel()
	in := "3\t1\ta.txt\x00-\t-\tlogo.png\x000\t0\t\x00old name\x00new name\x00"
	got, err := ParseNumstat([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []facts.GitNumstat{
		{Path: "a.txt", Added: 3, Removed: 1},
		{Path: "logo.png", Binary: true},
		{Path: "new name", OrigPath: "old name"},
	}
	if dump(got) != dump(want) {
		t.Fatalf("got\n%s\nwant\n%s", dump(got), dump(want))
	}
	for _, bad := range []string{"3\ta\x00", "x\t1\ta\x00", "-1\t0\ta\x00", "0\t0\t\x00only-old\x00"} {
		if _, err := ParseNumstat([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseAddedLines(t *testing.T) {
	t.Parallel()
	patch := strings.Join([]string{
		"diff --git a/CHANGELOG.md b/CHANGELOG.md",
		"index 1111111..2222222 100644",
		"--- a/CHANGELOG.md",
		"+++ b/CHANGELOG.md",
		"@@ -2,0 +3,3 @@ # Changelog",
		"+## 1.1",
		"+++ not a header, an added line starting with ++",
		"+",
		"@@ -9 +11 @@",
		"-old",
		"+new",
		`diff --git "a/tab\there" "b/tab\there"`,
		"--- /dev/null",
		"+++ \"b/tab\\there\"",
		"@@ -0,0 +1 @@",
		"+x",
		"\\ No newline at end of file",
		"diff --git a/sp ace b/sp ace",
		"--- a/sp ace\t",
		"+++ b/sp ace\t",
		"@@ -1 +0,0 @@",
		"-gone",
		"diff --git a/bin b/bin",
		"Binary files a/bin and b/bin differ",
		"",
	}, "\n")
	col := newCollector(DefaultCaps)
	if err := parseAddedLines([]byte(patch), col); err != nil {
		t.Fatal(err)
	}
	cl := col.files["CHANGELOG.md"]
	if cl == nil || cl.count != 4 || cl.nonBlank != 3 || len(cl.lines) != 4 || cl.lines[1] != "++ not a header, an added line starting with ++" {
		t.Fatalf("CHANGELOG.md: %+v", cl)
	}
	if a := col.files["tab\there"]; a == nil || a.count != 1 {
		t.Fatalf("quoted path: %+v", col.files)
	}
	if _, ok := col.files["sp ace"]; ok || len(col.files) != 2 {
		t.Fatalf("files: %+v", col.files)
	}
	for _, bad := range []string{
		"@@ -1 +1 @@\n+a\n+b\n",  // longer than the header says
		"@@ -1 +1,2 @@\n+a\n",    // ends inside a hunk
		"@@ -x +1 @@\n",          // bad header
		"+++ c/other\n",          // wrong prefix
		"@@ -0,0 +1 @@\n?what\n", // unknown hunk line
	} {
		if err := parseAddedLines([]byte(bad), newCollector(DefaultCaps)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestCollectorCaps(t *testing.T) {
	t.Parallel()
	col := newCollector(Caps{LinesPerFile: 2, LineBytes: 5, TotalBytes: 8})
	col.add("a", []byte("héllo world"))
	col.add("a", []byte("ok"))
	col.add("a", []byte("third"))
	col.add("b", []byte("1234567"))
	a, b := col.files["a"], col.files["b"]
	if a.count != 3 || a.nonBlank != 3 || !a.trunc || len(a.lines) != 2 || a.lines[0] != "héll" || a.lines[1] != "ok" {
		t.Fatalf("a: %+v", a)
	}
	if b.count != 1 || !b.trunc || len(b.lines) != 1 || b.lines[0] != "1" {
		t.Fatalf("b: %+v (total budget 8 bytes)", b)
	}
}

func FuzzParseNumstat(f *testing.F) {
	for _, s := range []string{"", "1\t2\ta\x00", "-\t-\tb\x00", "0\t0\t\x00o\x00n\x00", "1\t\t\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		stats, err := ParseNumstat(in)
		if err != nil {
			return
		}
		for _, s := range stats {
			if s.Added < 0 || s.Removed < 0 {
				t.Fatalf("negative counts %+v", s)
			}
		}
	})
}

func FuzzParseAddedLines(f *testing.F) {
	for _, s := range []string{
		"", "+++ b/a\n@@ -0,0 +1 @@\n+x\n", "@@ -1,2 +1,2 @@\n-a\n-b\n+c\n+d\n",
		"+++ \"b/\\303\\251\"\n@@ -0,0 +1,1 @@\n+\n", "@@ -0,0 +1 @@\n\\ x\n+y\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		col := newCollector(Caps{LinesPerFile: 3, LineBytes: 4, TotalBytes: 16})
		_ = parseAddedLines(in, col)
		total := 0
		for _, a := range col.files {
			if a.nonBlank > a.count || len(a.lines) > 3 {
				t.Fatalf("counts %+v", a)
			}
			for _, l := range a.lines {
				total += len(l)
			}
		}
		if total > 16*3 { // replacement characters may widen invalid bytes
			t.Fatalf("kept %d bytes", total)
		}
	})
}
