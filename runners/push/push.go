// Package push is the runner for the "push" namespace: the commit and
// branch HEAD is at, and the newest push ticket in the project's store,
// checked against the log entries that record it. git_push_gate judges an
// agent's `git push` with them.
package push

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// Namespace is the key of the facts this runner gives.
const Namespace = "push"

// Runner gives the "push" namespace.
type Runner struct {
	st  *store.Store
	now func() time.Time
}

// New returns the runner reading tickets from st (nil: the namespace is an
// error), dated by now (nil: time.Now).
func New(st *store.Store, now func() time.Time) *Runner {
	if now == nil {
		now = time.Now
	}
	return &Runner{st: st, now: now}
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. A project outside git, a HEAD without a
// commit, or a store that cannot be read (or whose ticket the log does not
// record) is an error: a push judged without them must not pass.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	if s.Tool != nil && !mayPush(s.Tool) {
		return facts.Unavailable(NoPushWord)
	}
	if r.st == nil {
		return facts.Error("no store is open: push tickets cannot be read")
	}
	head, branch, err := Head(ctx, s.Root)
	if err != nil {
		return facts.Error(err.Error())
	}
	out := facts.PushFacts{Head: head, Branch: branch, Now: r.now().Unix(), OtherDirs: OtherDirs(ctx, s.Root, s.Tool)}
	if out.Config, err = Config(ctx, s.Root, branch); err != nil {
		return facts.Error(err.Error())
	}
	t, err := r.st.LatestPushTicket(ctx)
	switch {
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return facts.Error(err.Error())
	default:
		out.Ticket = &facts.PushTicket{ID: t.ID, Commit: t.Commit, Remote: t.Remote, Branch: t.Branch, PushURL: t.PushURL,
			IssuedAt: t.IssuedAt.Unix(), Used: !t.UsedAt.IsZero()}
		if t.PushURL != "" {
			if out.PushURL, err = PushURL(ctx, s.Root, t.Remote); err != nil {
				return facts.Error(err.Error())
			}
		}
	}
	return facts.OK(out)
}

// PushURL returns where a push to remote goes from the work tree at root,
// as git resolves it (pushurl, pushInsteadOf and insteadOf applied), or ""
// when remote is no configured remote (a URL or a path is its own
// destination).
func PushURL(ctx context.Context, root, remote string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "remote", "get-url", "--push", "--", remote)
	cmd.Dir, cmd.Env = root, runners.GitEnv()
	b, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 2 {
		return "", nil // git: no such remote
	}
	if err != nil {
		return "", fmt.Errorf("read where a push to %s goes with git in %s: %v", remote, root, err)
	}
	return strings.TrimRight(string(b), "\n"), nil
}

// NoPushWord is the reason the namespace is unavailable for a tool call no
// word of which says "push" (or "send-pack") and none of which is known only
// at run time: no such call pushes, so git is not asked where HEAD is (a
// hook pays for every process it starts).
const NoPushWord = "no_push_word"

// mayPush reports whether some simple command of t has a word holding
// "push" or "send-pack", or a word known only at run time. It is a filter in front of the
// gate, never the judgement: a call it lets through is judged by the policy.
func mayPush(t *facts.Tool) bool {
	for _, c := range t.Commands {
		for i, w := range c.Argv {
			if strings.Contains(w, "push") || strings.Contains(w, "send-pack") || (i < len(c.Dynamic) && c.Dynamic[i]) {
				return true
			}
		}
	}
	return false
}

// Head returns the full commit hash of HEAD in the git work tree at root
// and its branch ("" when detached).
func Head(ctx context.Context, root string) (commit, branch string, err error) {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "HEAD", "--abbrev-ref", "HEAD")
	cmd.Dir, cmd.Env = root, runners.GitEnv()
	b, err := cmd.Output()
	lines := strings.Fields(string(b))
	if err != nil || len(lines) != 2 {
		return "", "", fmt.Errorf("read HEAD with git in %s: no commit to push (%v)", root, errOr(err, "unexpected output"))
	}
	commit, branch = lines[0], lines[1]
	if branch == "HEAD" {
		branch = ""
	}
	return commit, branch, nil
}

func errOr(err error, s string) any {
	if err != nil {
		return err
	}
	return s
}
