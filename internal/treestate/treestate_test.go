package treestate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

// gitEnv: the tests' git runs with no optional locks, as tausik's do.
var gitEnv = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")

func run(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

func write(t testing.TB, dir, rel, text string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// gitRepo is a repository with one commit: src/a, other/b, .gitignore
// ignoring build/, and a file dirty before any task (other/dirty).
func gitRepo(t *testing.T) string {
	dir := t.TempDir()
	run(t, dir, "git", "init", "-q")
	write(t, dir, "src/a", "a\n")
	write(t, dir, "other/b", "b\n")
	write(t, dir, "other/dirty", "v1\n")
	write(t, dir, ".gitignore", "build/\n")
	run(t, dir, "git", "add", ".")
	run(t, dir, "git", "commit", "-qm", "init")
	write(t, dir, "other/dirty", "v2 before the task\n")
	write(t, dir, "other/untracked-before", "u\n")
	return dir
}

func compare(t *testing.T, dir string, s State) []Change {
	t.Helper()
	// Through Encode/Decode, as the store keeps it.
	s2, err := Decode(s.Encode())
	if err != nil {
		t.Fatal(err)
	}
	got, err := Compare(context.Background(), dir, s2, gitEnv)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestGitChangesSinceRecord(t *testing.T) {
	dir := gitRepo(t)
	s, err := Record(context.Background(), dir, gitEnv)
	if err != nil {
		t.Fatal(err)
	}
	if s.Mode != ModeGit || s.Head == "" {
		t.Fatalf("state %+v", s)
	}
	if got := compare(t, dir, s); len(got) != 0 {
		t.Fatalf("changes made before the record are reported: %v", got)
	}
	write(t, dir, "other/dirty", "v3 during the task\n") // dirty before, changed again
	write(t, dir, "other/new", "n\n")
	write(t, dir, "build/out", "ignored\n")
	write(t, dir, ".tausik/x", "state\n")
	if err := os.Remove(filepath.Join(dir, "other/untracked-before")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "moved"), 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "git", "mv", "other/b", "moved/b")
	want := []Change{
		{Path: "moved/b", Change: Renamed, Peer: "other/b"},
		{Path: "other/b", Change: Renamed, Peer: "moved/b"},
		{Path: "other/dirty", Change: Modified},
		{Path: "other/new", Change: Created},
		{Path: "other/untracked-before", Change: Deleted},
	}
	if got := compare(t, dir, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("changes\n got %v\nwant %v", got, want)
	}
	// Committed during the task: still a change against the recorded HEAD.
	run(t, dir, "git", "add", "-A")
	run(t, dir, "git", "commit", "-qm", "during")
	if got := compare(t, dir, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("after a commit\n got %v\nwant %v", got, want)
	}
	// Everything put back: nothing left to report.
	run(t, dir, "git", "reset", "-q", "--hard", s.Head)
	write(t, dir, "other/dirty", "v2 before the task\n")
	write(t, dir, "other/untracked-before", "u\n")
	if err := os.Remove(filepath.Join(dir, "other/new")); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if got := compare(t, dir, s); len(got) != 0 {
		t.Fatalf("restored tree still reports %v", got)
	}
}

func TestGitNoCommitYet(t *testing.T) {
	dir := t.TempDir()
	run(t, dir, "git", "init", "-q")
	write(t, dir, "pre", "p\n")
	s, err := Record(context.Background(), dir, gitEnv)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "x/y", "y\n")
	run(t, dir, "git", "add", "x/y")
	run(t, dir, "git", "commit", "-qm", "first")
	want := []Change{{Path: "x/y", Change: Created}}
	if got := compare(t, dir, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
}

func TestGitSubdirectoryRoot(t *testing.T) {
	dir := gitRepo(t)
	root := filepath.Join(dir, "src")
	s, err := Record(context.Background(), root, gitEnv)
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "src/c", "c\n")
	write(t, dir, "other/outside-root", "o\n")
	want := []Change{{Path: "c", Change: Created}}
	if got := compare(t, root, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
}

func TestWalkWithoutGit(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/a", "a\n")
	write(t, dir, "other/b", "b\n")
	write(t, dir, "node_modules/m", "m\n")
	s, err := Record(context.Background(), dir, gitEnv)
	if err != nil {
		t.Fatal(err)
	}
	if s.Mode != ModeWalk || len(s.Paths) != 2 {
		t.Fatalf("state %+v", s)
	}
	write(t, dir, "other/b", "b2\n")
	write(t, dir, "node_modules/m", "m2\n")
	write(t, dir, ".tausik/db", "x\n")
	write(t, dir, "new", "n\n")
	want := []Change{{Path: "new", Change: Created}, {Path: "other/b", Change: Modified}}
	if got := compare(t, dir, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
}

func TestDecodeRefusesGarbage(t *testing.T) {
	for _, in := range []string{"", "{", `{"mode":"svn"}`, "null"} {
		if _, err := Decode(in); err == nil {
			t.Errorf("Decode(%q) accepted", in)
		}
	}
}

// TestRepositoryConfigRunsNoProgram: a script the agent ran may set
// core.fsmonitor in the repository's config to a program of its own, which
// git would run on every status and which could answer that nothing
// changed. The backstop's git runs no such program and still sees the
// change.
func TestRepositoryConfigRunsNoProgram(t *testing.T) {
	dir := gitRepo(t)
	marker := filepath.Join(t.TempDir(), "ran")
	write(t, dir, "src/fsm", "#!/bin/sh\ntouch "+marker+"\nprintf '\\0'\n")
	if err := os.Chmod(filepath.Join(dir, "src/fsm"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := Record(context.Background(), dir, gitEnv)
	if err != nil {
		t.Fatal(err)
	}
	run(t, dir, "git", "config", "core.fsmonitor", filepath.Join(dir, "src/fsm"))
	write(t, dir, "other/b", "changed by the task\n")
	got := compare(t, dir, s)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the repository's core.fsmonitor program ran")
	}
	found := false
	for _, c := range got {
		found = found || c.Path == "other/b"
	}
	if !found {
		t.Fatalf("other/b's change not seen: %+v", got)
	}
}
