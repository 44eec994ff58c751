package git

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// TestMain makes every git the tests run (theirs and the runner's) hermetic:
// no user or system config, fixed identities, no prompts.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "tausik-git-home-")
	if err != nil {
		panic(err)
	}
	for k, v := range map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     home,
		"GIT_CONFIG_GLOBAL":   "/dev/null",
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME":     "Test Author",
		"GIT_AUTHOR_EMAIL":    "author@example.test",
		"GIT_COMMITTER_NAME":  "Test Committer",
		"GIT_COMMITTER_EMAIL": "committer@example.test",
		"GIT_TERMINAL_PROMPT": "0",
	} {
		os.Setenv(k, v)
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// repo is a real git repository in a temp dir.
type repo struct {
	t    testing.TB
	root string
}

func newRepo(t testing.TB) *repo {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &repo{t: t, root: dir}
	r.git("init", "-q", "-b", "main")
	return r
}

// git runs git in the repo with extra KEY=VALUE env entries; it fails the
// test on error.
func (r *repo) git(args ...string) string {
	r.t.Helper()
	return r.gitEnv(nil, args...)
}

func (r *repo) gitEnv(env []string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.root
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(rel, content string) {
	r.t.Helper()
	full := filepath.Join(r.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// commitAt stages everything and commits with both dates set to at.
func (r *repo) commitAt(msg string, at time.Time) string {
	r.t.Helper()
	r.git("add", "-A")
	d := at.Format(time.RFC3339)
	r.gitEnv([]string{"GIT_AUTHOR_DATE=" + d, "GIT_COMMITTER_DATE=" + d}, "commit", "-q", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// gather runs the runner on root with changedSince as the request's point.
func gather(t *testing.T, root, changedSince string, opts ...Option) facts.Namespace {
	t.Helper()
	s := runners.NewScope(root, facts.Request{ChangedSince: changedSince})
	return New(opts...).Gather(context.Background(), s)
}

// mustOK asserts status ok and returns the data.
func mustOK(t *testing.T, ns facts.Namespace) *facts.Git {
	t.Helper()
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s (%s), want ok", ns.Status, ns.Reason)
	}
	g, ok := ns.Data.(*facts.Git)
	if !ok {
		t.Fatalf("data is %T", ns.Data)
	}
	// Every namespace must survive the document's JSON conversion.
	if _, err := ns.Generic(); err != nil {
		t.Fatalf("generic: %v", err)
	}
	return g
}

func findStatus(g *facts.Git, path string) *facts.GitStatusEntry {
	for i := range g.Changes {
		if g.Changes[i].Path == path {
			return &g.Changes[i]
		}
	}
	return nil
}

func findChange(g *facts.Git, path string) *facts.GitChange {
	if g.Since == nil {
		return nil
	}
	for i := range g.Since.Files {
		if g.Since.Files[i].Path == path {
			return &g.Since.Files[i]
		}
	}
	return nil
}

func dump(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}
