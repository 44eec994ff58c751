package fs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

// gitLinguist is what the real git answers for paths, asked afresh: the
// oracle the remembered answers are checked against.
func gitLinguist(t *testing.T, root string, paths []string) map[string]string {
	t.Helper()
	cmd := exec.Command("git", "-c", "core.attributesFile=", "check-attr", "-z", "linguist-generated", "linguist-vendored", "--stdin")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_ATTR_NOSYSTEM=1")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git check-attr: %v", err)
	}
	got := map[string]string{}
	for _, p := range paths {
		got[p] = ""
	}
	f := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for k := 0; k+2 < len(f); k += 3 {
		if v := string(f[k+2]); v != "set" && v != "true" {
			continue
		}
		switch p := string(f[k]); string(f[k+1]) {
		case "linguist-generated":
			got[p] = "generated"
		case "linguist-vendored":
			if got[p] == "" {
				got[p] = "vendored"
			}
		}
	}
	return got
}

func runGit(t *testing.T, root string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
}

// rewriteKeepingTimes writes text over path and sets its times back.
func rewriteKeepingTimes(t *testing.T, path, text string) {
	t.Helper()
	was, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, was.ModTime(), was.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// TestLinguistRememberedFollowsGit changes every source git reads
// attributes from, one step at a time, and after each checks the facts
// against a fresh git check-attr: a remembered answer that outlived its
// sources, or a file taken for unmarkable that git marks, fails it.
func TestLinguistRememberedFollowsGit(t *testing.T) {
	root := tempDir(t)
	initRepo(t, root)
	paths := []string{"a.py", "gen/x.py", "pkg/sub/y.pb.go", "pkg/z.go"}
	for _, p := range paths {
		writeFile(t, root, p, []byte("x\n"))
	}
	steps := []struct {
		name   string
		change func()
		marked int // how many files git marks after the step
	}{
		{"no source at all", func() {}, 0},
		{"a .gitattributes naming no linguist attribute", func() { writeFile(t, root, ".gitattributes", []byte("*.sh text eol=lf\n")) }, 0},
		{"a root .gitattributes appears", func() { writeFile(t, root, ".gitattributes", []byte("gen/** linguist-generated\n")) }, 1},
		{"its text changes, size and mtime kept", func() { rewriteKeepingTimes(t, filepath.Join(root, ".gitattributes"), "*.py   linguist-generated\n") }, 2},
		{"a nested .gitattributes appears", func() { writeFile(t, root, "pkg/sub/.gitattributes", []byte("*.pb.go linguist-generated\n")) }, 3},
		{"a macro the root defines, used where linguist is not written", func() {
			writeFile(t, root, ".gitattributes", []byte("[attr]gen linguist-vendored\n*.py   linguist-generated\n"))
			writeFile(t, root, "pkg/.gitattributes", []byte("*.go gen\n"))
		}, 4},
		{"only the index holds the root one", func() {
			runGit(t, root, "add", "-A")
			if err := os.Remove(filepath.Join(root, ".gitattributes")); err != nil {
				t.Fatal(err)
			}
		}, 4},
		{"the index drops it", func() { runGit(t, root, "rm", "-q", "--cached", ".gitattributes") }, 1},
		{"info/attributes appears", func() { writeFile(t, root, ".git/info/attributes", []byte("pkg/z.go linguist-vendored\n")) }, 2},
		{"the repository config includes another file", func() {
			writeFile(t, root, ".git/info/attributes", []byte("pkg/z.go -linguist-vendored\n"))
			f, err := os.OpenFile(filepath.Join(root, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("[include]\n\tpath = extra\n"); err != nil {
				t.Fatal(err)
			}
		}, 1},
	}
	for _, s := range steps {
		s.change()
		settle()
		// Twice: the second gather answers from what the first remembered.
		for round := 0; round < 2; round++ {
			ns := gather(t, root, paths...)
			if ns.Status != facts.StatusOK {
				t.Fatalf("%s: %+v", s.name, ns)
			}
			got, want := linguistOf(ns.Data.(facts.Files).Files), gitLinguist(t, root, paths)
			marked := 0
			for _, p := range paths {
				if got[p] != want[p] {
					t.Errorf("%s (round %d): %s is %q, git says %q", s.name, round, p, got[p], want[p])
				}
				if want[p] != "" {
					marked++
				}
			}
			if marked != s.marked {
				t.Fatalf("%s: git marks %d files, the step expects %d (%v)", s.name, marked, s.marked, want)
			}
		}
	}
}

// TestLinguistStartsNoGitItNeedNot: a file no attribute source can mark
// (none, or none naming a linguist attribute) is judged with no git on
// PATH; a source that may mark it needs git, and its absence fails the
// namespace rather than guess.
func TestLinguistStartsNoGitItNeedNot(t *testing.T) {
	root := tempDir(t)
	initRepo(t, root)
	writeFile(t, root, "a.py", []byte("x\n"))
	t.Setenv("PATH", t.TempDir())
	if ns := gather(t, root, "a.py"); ns.Status != facts.StatusOK || ns.Data.(facts.Files).Files[0].Linguist != "" {
		t.Fatalf("no source, no git: %+v", ns)
	}
	writeFile(t, root, ".gitattributes", []byte("*.py text eol=lf\n"))
	if ns := gather(t, root, "a.py"); ns.Status != facts.StatusOK || ns.Data.(facts.Files).Files[0].Linguist != "" {
		t.Fatalf("a source naming no linguist attribute, no git: %+v", ns)
	}
	writeFile(t, root, ".gitattributes", []byte("*.py linguist-generated\n"))
	if ns := gather(t, root, "a.py"); ns.Status != facts.StatusError {
		t.Fatalf("a new source with no git to ask: %+v, want an error", ns)
	}
}

// TestLinguistRemembersGitsAnswer: once git marked a file, the same file
// with the same sources is marked again without git; but not while a
// source changed too recently for its stamp to show the next change.
func TestLinguistRemembersGitsAnswer(t *testing.T) {
	root := tempDir(t)
	initRepo(t, root)
	writeFile(t, root, ".gitattributes", []byte("*.py linguist-generated\n"))
	writeFile(t, root, "b.py", []byte("x\n"))
	path := os.Getenv("PATH")
	for _, c := range []struct {
		name       string
		remembered bool
	}{{"just written", false}, {"settled", true}} {
		if c.remembered {
			settle()
		}
		t.Setenv("PATH", path)
		if ns := gather(t, root, "b.py"); ns.Data.(facts.Files).Files[0].Linguist != "generated" {
			t.Fatalf("%s, with git: %+v", c.name, ns)
		}
		t.Setenv("PATH", t.TempDir())
		ns := gather(t, root, "b.py")
		if got := ns.Status == facts.StatusOK && ns.Data.(facts.Files).Files[0].Linguist == "generated"; got != c.remembered {
			t.Errorf("%s: remembered without git = %v, want %v (%+v)", c.name, got, c.remembered, ns)
		}
	}
}

// TestLinguistFollowsGitsOddSources: a .gitattributes that is a symbolic
// link (git reads the index's instead) and an index named by
// GIT_INDEX_FILE give what git gives, asked twice.
func TestLinguistFollowsGitsOddSources(t *testing.T) {
	root := tempDir(t)
	initRepo(t, root)
	writeFile(t, root, "a.py", []byte("x\n"))
	writeFile(t, root, ".gitattributes", []byte("*.py linguist-generated\n"))
	runGit(t, root, "add", ".gitattributes")
	writeFile(t, root, "other.attrs", []byte("*.py text\n"))
	if err := os.Remove(filepath.Join(root, ".gitattributes")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("other.attrs", filepath.Join(root, ".gitattributes")); err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		settle()
		for round := 0; round < 2; round++ {
			ns := gather(t, root, "a.py")
			got, want := linguistOf(ns.Data.(facts.Files).Files)["a.py"], gitLinguist(t, root, []string{"a.py"})["a.py"]
			if ns.Status != facts.StatusOK || got != want {
				t.Errorf("%s (round %d): %q, git says %q (%+v)", step, round, got, want, ns)
			}
		}
	}
	check("a symlinked .gitattributes")
	if err := os.Remove(filepath.Join(root, ".gitattributes")); err != nil {
		t.Fatal(err)
	}
	runGit(t, root, "rm", "-q", "--cached", ".gitattributes")
	check("no .gitattributes anywhere")
	other := filepath.Join(t.TempDir(), "index")
	t.Setenv("GIT_INDEX_FILE", other)
	writeFile(t, root, ".gitattributes", []byte("*.py linguist-vendored\n"))
	runGit(t, root, "add", ".gitattributes")
	if err := os.Remove(filepath.Join(root, ".gitattributes")); err != nil {
		t.Fatal(err)
	}
	check("only GIT_INDEX_FILE's index holds one")
}
