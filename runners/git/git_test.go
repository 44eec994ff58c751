package git

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
)

var t0 = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

func TestNotARepositoryIsUnavailable(t *testing.T) {
	t.Parallel()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	ns := gather(t, dir, "")
	if ns.Status != facts.StatusUnavailable || ns.Reason != "not a git repository" {
		t.Fatalf("got %s %q, want unavailable \"not a git repository\"", ns.Status, ns.Reason)
	}
}

func TestNoCommitsYet(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("new.txt", "hello\n")
	r.write("staged.txt", "a\nb\n")
	r.git("add", "staged.txt")
	g := mustOK(t, gather(t, r.root, ""))
	if g.Head != "" || !g.Unborn || g.Branch != "main" || g.Detached {
		t.Fatalf("head %q unborn %v branch %q detached %v", g.Head, g.Unborn, g.Branch, g.Detached)
	}
	if e := findStatus(g, "new.txt"); e == nil || !e.Untracked || e.Index != "?" {
		t.Fatalf("new.txt: %+v", e)
	}
	if e := findStatus(g, "staged.txt"); e == nil || e.Index != "A" || e.Worktree != " " {
		t.Fatalf("staged.txt: %+v", e)
	}
	if len(g.Staged) != 1 || g.Staged[0] != (facts.GitNumstat{Path: "staged.txt", Added: 2}) {
		t.Fatalf("staged: %+v", g.Staged)
	}
}

func TestStatusEntries(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write(".gitignore", "*.log\nbuild/\n")
	r.write("modified.txt", "one\n")
	r.write("staged.txt", "one\n")
	r.write("old name.txt", "rename me\nplease\n")
	r.write("gone.txt", "bye\n")
	r.write("dir with space/naïve café.txt", "unicode path\n")
	r.commitAt("base", t0)

	r.write("modified.txt", "one\ntwo\n")
	r.write("staged.txt", "uno\n")
	r.git("add", "staged.txt")
	r.git("mv", "old name.txt", "new name.txt")
	r.git("rm", "-q", "gone.txt")
	r.write("dir with space/naïve café.txt", "unicode path\nedited\n")
	r.write("untracked/deep/file.py", "x = 1\n")
	r.write("debug.log", "ignored\n")
	r.write("build/out.bin", "ignored\n")

	g := mustOK(t, gather(t, r.root, ""))
	if g.Unborn || len(g.Head) < 40 || g.Branch != "main" {
		t.Fatalf("head %q branch %q", g.Head, g.Branch)
	}
	want := map[string]facts.GitStatusEntry{
		"modified.txt":                  {Path: "modified.txt", Index: " ", Worktree: "M"},
		"staged.txt":                    {Path: "staged.txt", Index: "M", Worktree: " "},
		"new name.txt":                  {Path: "new name.txt", OrigPath: "old name.txt", Index: "R", Worktree: " "},
		"gone.txt":                      {Path: "gone.txt", Index: "D", Worktree: " "},
		"dir with space/naïve café.txt": {Path: "dir with space/naïve café.txt", Index: " ", Worktree: "M"},
		"untracked/deep/file.py":        {Path: "untracked/deep/file.py", Index: "?", Worktree: "?", Untracked: true},
	}
	if len(g.Changes) != len(want) {
		t.Fatalf("status has %d entries, want %d:\n%s", len(g.Changes), len(want), dump(g.Changes))
	}
	for _, e := range g.Changes {
		if w, ok := want[e.Path]; !ok || w != e {
			t.Errorf("entry %+v, want %+v", e, w)
		}
	}
}

func TestStagedNumstat(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("a.txt", "1\n2\n3\n")
	r.write("logo.bin", "\x00\x01\x02")
	r.commitAt("base", t0)
	r.write("a.txt", "1\nTWO\n3\n4\n")
	r.write("logo.bin", "\x00\x01\x02\x03")
	r.write("unstaged.txt", "not staged\n")
	r.git("add", "a.txt", "logo.bin")
	g := mustOK(t, gather(t, r.root, ""))
	want := []facts.GitNumstat{
		{Path: "a.txt", Added: 2, Removed: 1},
		{Path: "logo.bin", Binary: true},
	}
	if dump(g.Staged) != dump(want) {
		t.Fatalf("staged:\n%s\nwant:\n%s", dump(g.Staged), dump(want))
	}
}

func TestDetachedHead(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("a.txt", "1\n")
	first := r.commitAt("one", t0)
	r.write("a.txt", "2\n")
	r.commitAt("two", t0.Add(time.Hour))
	r.git("checkout", "-q", "--detach", first)
	g := mustOK(t, gather(t, r.root, ""))
	if !g.Detached || g.Branch != "" || g.Head != first {
		t.Fatalf("detached %v branch %q head %q, want detached at %s", g.Detached, g.Branch, g.Head, first)
	}
}

func TestBrokenRepositoryIsError(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("a.txt", "1\n")
	r.commitAt("one", t0)
	if err := os.WriteFile(filepath.Join(r.root, ".git", "index"), []byte("garbage, not an index"), 0o644); err != nil {
		t.Fatal(err)
	}
	ns := gather(t, r.root, "")
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "index") || !strings.Contains(ns.Reason, "fatal") {
		t.Fatalf("got %s %q, want error with git's stderr", ns.Status, ns.Reason)
	}
}

func TestGitDirGoneIsError(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	// A .git file that points nowhere: a work tree whose repository vanished.
	if err := os.RemoveAll(filepath.Join(r.root, ".git")); err != nil {
		t.Fatal(err)
	}
	r.write(".git", "gitdir: /nonexistent/worktree/.git\n")
	ns := gather(t, r.root, "")
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "not a git repository") {
		t.Fatalf("got %s %q, want error carrying git's message", ns.Status, ns.Reason)
	}
}

func TestGitMissingIsError(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	ns := gather(t, r.root, "", WithBinary(filepath.Join(t.TempDir(), "no-such-git")))
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "no such file") {
		t.Fatalf("got %s %q, want error", ns.Status, ns.Reason)
	}
}

func TestGitNotOnPathIsError(t *testing.T) {
	r := newRepo(t)
	t.Setenv("PATH", t.TempDir())
	ns := gather(t, r.root, "")
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "executable file not found") {
		t.Fatalf("got %s %q, want error", ns.Status, ns.Reason)
	}
}

func TestTimeoutIsError(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	ns := gather(t, r.root, "", WithTimeout(time.Nanosecond))
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "timed out") {
		t.Fatalf("got %s %q, want timeout error", ns.Status, ns.Reason)
	}
}

// TestTimeoutCutsAHangingCommand: when one command of a round hangs (here
// status and the since diff, behind a wrapper that runs the real git for
// everything else), the timeout ends it and the namespace is an error saying
// so, whichever round the command was in.
func TestTimeoutCutsAHangingCommand(t *testing.T) {
	t.Parallel()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	r := newRepo(t)
	r.write("a.txt", "1\n")
	r.commitAt("base", t0)
	for _, c := range []struct{ hang, since string }{{"status", ""}, {"--patch", "HEAD"}} {
		wrapper := filepath.Join(t.TempDir(), "git")
		script := fmt.Sprintf("#!/bin/sh\ncase \"$*\" in *%s*) exec sleep 30;; esac\nexec %s \"$@\"\n", c.hang, real)
		if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		ns := gather(t, r.root, c.since, WithBinary(wrapper), WithTimeout(300*time.Millisecond))
		if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "timed out") {
			t.Errorf("%s hanging: got %s %q, want a timeout error", c.hang, ns.Status, ns.Reason)
		}
	}
}

func TestSubdirectoryRoot(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("outside.txt", "1\n")
	r.write("proj/inside.txt", "1\n")
	r.commitAt("base", t0)
	r.write("outside.txt", "2\n")
	r.write("proj/inside.txt", "2\n")
	r.write("proj/sub/new.txt", "new\n")
	g := mustOK(t, gather(t, filepath.Join(r.root, "proj"), ""))
	if len(g.Changes) != 2 || g.Changes[0].Path != "inside.txt" || g.Changes[1].Path != "sub/new.txt" {
		t.Fatalf("status relative to proj/:\n%s", dump(g.Changes))
	}
}
