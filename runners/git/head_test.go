package git

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tausik/tausik/facts"
)

// TestBranchIsWhatSymbolicRefSays checks the branch against `git
// symbolic-ref -q --short HEAD`, whose shortening keeps a name unambiguous:
// a branch that shares its name with a tag is "heads/v1", not the "v1" that
// porcelain v2's branch.head would say.
func TestBranchIsWhatSymbolicRefSays(t *testing.T) {
	t.Parallel()
	cases := map[string]func(r *repo){
		"plain":           func(r *repo) {},
		"slash":           func(r *repo) { r.git("checkout", "-q", "-b", "feature/x") },
		"tag of the name": func(r *repo) { r.git("tag", "v1"); r.git("checkout", "-q", "-b", "v1") },
		"heads/ prefix":   func(r *repo) { r.git("branch", "x"); r.git("checkout", "-q", "-b", "heads/x") },
		"a branch HEAD":   func(r *repo) { r.git("update-ref", "refs/heads/HEAD", "main") },
		"detached":        func(r *repo) { r.git("checkout", "-q", "--detach") },
		"orphan":          func(r *repo) { r.git("checkout", "-q", "--orphan", "fresh") },
		"orphan, tagged":  func(r *repo) { r.git("tag", "fresh"); r.git("checkout", "-q", "--orphan", "fresh") },
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t)
			r.write("a.txt", "a\n")
			r.commitAt("one", t0)
			setup(r)
			want := string(gitRaw(t, r.root, "symbolic-ref", "-q", "--short", "HEAD"))
			g := mustOK(t, gather(t, r.root, ""))
			if g.Branch+"\n" != want && !(want == "" && g.Detached && g.Branch == "") {
				t.Fatalf("branch %q detached %v, symbolic-ref says %q", g.Branch, g.Detached, want)
			}
			if g.Detached != (want == "") {
				t.Fatalf("detached %v, symbolic-ref says %q", g.Detached, want)
			}
			head := string(gitRaw(t, r.root, "rev-parse", "-q", "--verify", "HEAD^{commit}"))
			if g.Head+"\n" != head && !(head == "" && g.Unborn && g.Head == "") {
				t.Fatalf("head %q unborn %v, rev-parse says %q", g.Head, g.Unborn, head)
			}
		})
	}
}

// TestChangesAreWhatPorcelainV1Says runs the runner on a repository in
// every state status reports and compares with git's own v1 output.
func TestChangesAreWhatPorcelainV1Says(t *testing.T) {
	t.Parallel()
	r := edgeRepo(t)
	g := mustOK(t, gather(t, r.root, ""))
	if want := byPath(porcelainV1(t, r.root)); dump(g.Changes) != dump(want) {
		t.Fatalf("changes\n%s\nwant\n%s", dump(g.Changes), dump(want))
	}
}

// TestRootNameWithNewline: git prints the prefix raw, so a newline in it
// must not be read as the end of the line.
func TestRootNameWithNewline(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("outside.txt", "1\n")
	r.write("we\nird/sub/in.txt", "1\n")
	r.commitAt("base", t0)
	r.write("outside.txt", "2\n")
	r.write("we\nird/sub/in.txt", "2\n")
	r.write("we\nird/sub/new/file.txt", "new\n")
	g := mustOK(t, gather(t, filepath.Join(r.root, "we\nird", "sub"), ""))
	if len(g.Changes) != 2 || g.Changes[0].Path != "in.txt" || g.Changes[1].Path != "new/file.txt" {
		t.Fatalf("changes relative to we\\nird/sub/:\n%s", dump(g.Changes))
	}
	if g.Branch != "main" || g.Detached {
		t.Fatalf("branch %q detached %v", g.Branch, g.Detached)
	}
}

func TestInsideGitDirIsUnavailable(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	ns := gather(t, filepath.Join(r.root, ".git"), "")
	if ns.Status != facts.StatusUnavailable {
		t.Fatalf("got %s %q, want unavailable", ns.Status, ns.Reason)
	}
}

// TestHookGitDirDoesNotLeak: a hook runs with GIT_DIR and GIT_WORK_TREE set
// for its own repository; every command of every round must still read the
// project root's.
func TestHookGitDirDoesNotLeak(t *testing.T) {
	other := newRepo(t)
	other.write("other.txt", "x\n")
	other.commitAt("other", t0)
	r := newRepo(t)
	r.write("a.txt", "a\n")
	r.commitAt("one", t0)
	r.write("a.txt", "b\n")
	t.Setenv("GIT_DIR", filepath.Join(other.root, ".git"))
	t.Setenv("GIT_WORK_TREE", other.root)
	g := mustOK(t, gather(t, r.root, "HEAD"))
	if len(g.Changes) != 1 || g.Changes[0].Path != "a.txt" || len(g.Since.Files) != 1 || g.Since.Files[0].Path != "a.txt" {
		t.Fatalf("read another repository:\n%s", dump(g))
	}
	if _, err := os.Stat(filepath.Join(r.root, "other.txt")); err == nil {
		t.Fatal("other.txt appeared")
	}
}
