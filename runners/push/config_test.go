package push

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// gitRun runs git in dir with the runner's environment; it fails the test
// when git does.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, append(runners.GitEnv(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestConfigReadsWhatGitReads sets each push setting with git config in a
// real repository and reads it back as the push namespace shows it: the
// remote a bare push goes to follows git's order (branch pushRemote, then
// remote.pushDefault, then the branch's remote, then origin), and only the
// current branch's settings count.
func TestConfigReadsWhatGitReads(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	gitRun(t, dir, "init", "-q", "-b", "main")
	c, err := Config(ctx, dir, "main")
	want := facts.PushConfig{Default: "simple", Remote: "origin", FetchRemote: "origin", Refspecs: map[string][]string{}, Mirror: []string{}}
	if err != nil || !reflect.DeepEqual(c, want) {
		t.Fatalf("no settings: %+v, %v", c, err)
	}
	for _, kv := range [][2]string{
		{"push.default", "Upstream"}, {"push.followTags", "true"}, {"submodule.recurse", "true"},
		{"branch.main.remote", "up"}, {"branch.main.merge", "refs/heads/release"}, {"branch.other.pushRemote", "x"},
		{"remote.origin.push", "refs/heads/main:refs/heads/a"}, {"remote.origin.mirror", "false"}, {"remote.fork.mirror", "yes"},
	} {
		gitRun(t, dir, "config", kv[0], kv[1])
	}
	gitRun(t, dir, "config", "--add", "remote.origin.push", "+refs/heads/b:refs/heads/b")
	c, err = Config(ctx, dir, "main")
	want = facts.PushConfig{Default: "upstream", Remote: "up", FetchRemote: "up", Upstream: "release",
		Refspecs: map[string][]string{"origin": {"refs/heads/main:refs/heads/a", "+refs/heads/b:refs/heads/b"}},
		Mirror:   []string{"fork"}, FollowTags: true, RecurseSubmodules: "on-demand"}
	if err != nil || !reflect.DeepEqual(c, want) {
		t.Fatalf("settings:\n got  %+v, %v\n want %+v", c, err, want)
	}
	for _, step := range []struct{ key, value, remote string }{
		{"remote.pushDefault", "pd", "pd"},
		{"branch.main.pushRemote", "pr", "pr"},
	} {
		gitRun(t, dir, "config", step.key, step.value)
		if c, _ = Config(ctx, dir, "main"); c.Remote != step.remote {
			t.Errorf("after %s=%s: a bare push goes to %q, want %q", step.key, step.value, c.Remote, step.remote)
		}
	}
	gitRun(t, dir, "config", "push.recurseSubmodules", "check")
	if c, _ = Config(ctx, dir, "main"); c.RecurseSubmodules != "check" {
		t.Errorf("push.recurseSubmodules check over submodule.recurse: %q", c.RecurseSubmodules)
	}
	if c, _ = Config(ctx, dir, ""); c.Remote != "pd" || c.Upstream != "" {
		t.Errorf("a detached HEAD reads no branch settings: %+v", c)
	}
	if _, err := Config(ctx, filepath.Join(dir, "nowhere"), "main"); err == nil {
		t.Error("a directory that does not exist: no error")
	}
}

// TestOtherDirsNamesOtherRepositories runs git in real directories: the
// project's root and a subdirectory are its repository; a clone nested in
// it, a linked worktree, a directory outside any repository and one known
// only at run time are not.
func TestOtherDirsNamesOtherRepositories(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	root := filepath.Join(base, "p")
	for _, d := range []string{filepath.Join(root, "sub"), filepath.Join(base, "plain")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitRun(t, root, "init", "-q", "-b", "main")
	gitRun(t, root, "commit", "-q", "--allow-empty", "-m", "one")
	gitRun(t, root, "clone", "-q", root, "nested")
	gitRun(t, root, "worktree", "add", "-q", filepath.Join(base, "wt"))
	call := &facts.Tool{}
	for _, d := range []string{".", "sub", root, "nested", filepath.Join(base, "wt"), filepath.Join(base, "plain"), ""} {
		call.Commands = append(call.Commands, facts.ToolShellCommand{Argv: []string{"ls"}, Dynamic: []bool{false}, Dir: d})
	}
	var got []string
	for _, d := range OtherDirs(ctx, root, call) {
		got = append(got, strings.TrimPrefix(d.Dir, base))
		if d.Why == "" {
			t.Errorf("%s: no reason", d.Dir)
		}
	}
	if want := []string{"/p/nested", "/wt", "/plain", ""}; !reflect.DeepEqual(got, want) {
		t.Errorf("other directories %q, want %q", got, want)
	}
	if d := OtherDirs(ctx, root, nil); d == nil || len(d) != 0 {
		t.Errorf("no tool call: %v", d)
	}
}
