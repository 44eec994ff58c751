package push

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"

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
	many := &facts.Tool{}
	for i := 0; i <= maxDirs; i++ {
		d := filepath.Join("sub", fmt.Sprint(i))
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		many.Commands = append(many.Commands, facts.ToolShellCommand{Argv: []string{"ls"}, Dynamic: []bool{false}, Dir: d})
	}
	if d := OtherDirs(ctx, root, many); len(d) != 1 || !strings.Contains(d[0].Why, "more than 8 directories") {
		t.Errorf("past the bound: %v", d)
	}
	if d := OtherDirs(ctx, root, nil); d == nil || len(d) != 0 {
		t.Errorf("no tool call: %v", d)
	}
}

// TestConfigAgreesWithGit is a differential test against git itself: for
// each setting, where git_push_gate's policy says a bare `git push` goes
// (its remote() and dests() on the push namespace this runner gathers)
// is where git says, locally, the branch pushes to
// (for-each-ref's %(push), the remote-tracking ref of the destination,
// which contacts no remote). %(push) names nothing for push.default simple
// to another remote than the branch's with an upstream of another name,
// which git push sends as current; the end-to-end test pushes that for real.
func TestConfigAgreesWithGit(t *testing.T) {
	ctx := context.Background()
	src, err := os.ReadFile(filepath.Join("..", "..", "policies", "git_push_gate", "policy.rego"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := rego.New(rego.Query(`c := input.tool.commands[0]; r := data.tausik.gates.git_push_gate.remote(c); d := data.tausik.gates.git_push_gate.dests(c)`),
		rego.Module("policy.rego", string(src))).PrepareForEval(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, settings := range [][]string{
		{"push.default=current"},
		{"remote.origin.push=refs/heads/main:refs/heads/release"},
		{"push.default=upstream", "branch.main.remote=origin", "branch.main.merge=refs/heads/release"},
		{"branch.main.remote=origin", "branch.main.merge=refs/heads/main"},
		{"push.default=current", "branch.main.pushRemote=evil"},
		{"remote.pushDefault=evil", "push.default=current"},
		{"push.default=tracking", "branch.main.remote=evil", "branch.main.merge=refs/heads/x"},
	} {
		dir := t.TempDir()
		gitRun(t, dir, "init", "-q", "-b", "main")
		gitRun(t, dir, "commit", "-q", "--allow-empty", "-m", "one")
		gitRun(t, dir, "remote", "add", "origin", filepath.Join(dir, "o.git"))
		gitRun(t, dir, "remote", "add", "evil", filepath.Join(dir, "e.git"))
		for _, kv := range settings {
			k, v, _ := strings.Cut(kv, "=")
			gitRun(t, dir, "config", k, v)
		}
		cmd := exec.Command("git", "for-each-ref", "--format=%(push)", "refs/heads/main")
		cmd.Dir, cmd.Env = dir, runners.GitEnv()
		out, err := cmd.Output()
		gitRemote, gitBranch, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(string(out)), "refs/remotes/"), "/")
		if err != nil || !ok {
			t.Fatalf("%v: git names no push destination: %v %q", settings, err, out)
		}
		want := gitRemote + " " + gitBranch
		c, err := Config(ctx, dir, "main")
		if err != nil {
			t.Fatal(err)
		}
		in := map[string]any{"push": map[string]any{"branch": "main", "config": c},
			"tool": map[string]any{"commands": []any{map[string]any{"argv": []any{"git", "push"}, "dynamic": []any{false, false}}}}}
		var in2 map[string]any
		b, _ := json.Marshal(in)
		if err := json.Unmarshal(b, &in2); err != nil {
			t.Fatal(err)
		}
		rs, err := q.Eval(ctx, rego.EvalInput(in2))
		if err != nil || len(rs) != 1 {
			t.Fatalf("%v: eval %v %v", settings, rs, err)
		}
		got := fmt.Sprint(rs[0].Bindings["r"], " ", rs[0].Bindings["d"].([]any)[0])
		if len(rs[0].Bindings["d"].([]any)) != 1 || got != want {
			t.Errorf("%v: the policy pushes to %s %v, git to %s", settings, rs[0].Bindings["r"], rs[0].Bindings["d"], want)
		}
	}
}
