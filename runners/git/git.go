// Package git is the runner for the "git" namespace: HEAD, branch, porcelain
// status, staged line counts and, given a point in time or history, every file
// changed since then with the lines it gained.
//
// It runs the real git binary with argv only (no shell), LC_ALL=C, unquoted
// paths and NUL-separated output wherever git offers it, under a timeout. A
// root outside any git work tree is status unavailable ("not a git
// repository"), which gates read as NOT_APPLICABLE; git missing from PATH, or
// failing inside a repository, is status error with git's stderr in the
// reason, which gates read as COULD_NOT_RUN.
package git

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "git"

// DefaultTimeout bounds one Gather: all git commands together.
const DefaultTimeout = 30 * time.Second

// Runner gathers the "git" namespace. It holds no state between calls and is
// safe for concurrent use.
type Runner struct {
	bin     string
	timeout time.Duration
	now     func() time.Time
}

// Option tunes a Runner at construction.
type Option func(*Runner)

// WithBinary runs git from path instead of the "git" found on PATH.
func WithBinary(path string) Option { return func(r *Runner) { r.bin = path } }

// WithTimeout bounds one Gather; d <= 0 keeps DefaultTimeout.
func WithTimeout(d time.Duration) Option {
	return func(r *Runner) {
		if d > 0 {
			r.timeout = d
		}
	}
}

// WithClock sets the clock that turns a duration ("3h") into a point in time.
func WithClock(now func() time.Time) Option { return func(r *Runner) { r.now = now } }

// New returns a git runner.
func New(opts ...Option) *Runner {
	r := &Runner{bin: "git", timeout: DefaultTimeout, now: time.Now}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// The commands of the first round, run at once: none needs another's answer.
// headArgs tells whether the root is in a work tree, its prefix and, in
// symbolic-ref's words (a loose --abbrev-ref is the same
// shortening), the branch or "HEAD" when detached; on an unborn branch it
// exits 1 after the first two lines. statusArgs gives HEAD's commit
// (branch.oid) with the entries; --no-ahead-behind spares the walk to the
// upstream that the runner does not report.
var (
	headArgs   = []string{"rev-parse", "--is-inside-work-tree", "--show-prefix", "-q", "--verify", "--abbrev-ref=loose", "HEAD"}
	statusArgs = []string{"status", "--porcelain=v2", "-z", "--branch", "--no-ahead-behind", "--untracked-files=all", "--find-renames"}
	stagedArgs = []string{"diff", "--cached", "--numstat", "-z", "--find-renames", "--no-ext-diff", "--no-textconv", "--"}
)

// Gather implements runners.Runner. It returns status ok only when every git
// command it needed succeeded; there is no partial git namespace.
//
// Git runs in as few rounds as the answers allow: the first runs the commands
// above (and, given a since point, the one that finds its base) at once; a
// second diffs from that base. Rarer states (an unborn branch, a since ref
// that is not a commit) cost a round more.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	g := newGitCmd(r.bin, s.Root)
	since, sinceErr := ParseSince(s.Request.ChangedSince, r.now())
	round := [][]string{headArgs, statusArgs, stagedArgs}
	if sinceErr == nil && !since.IsZero() {
		round = append(round, baseArgs(since))
	}
	res := g.runAll(ctx, round...)
	h, err := readHead(res[0], s.Root)
	if errors.Is(err, ErrNotRepo) {
		return facts.Unavailable(err.Error())
	}
	if err != nil {
		return facts.Error(r.reason(ctx, err))
	}
	if sinceErr != nil {
		return facts.Error(sinceErr.Error())
	}
	data, err := r.collect(ctx, g, h, res[1:], since)
	if err != nil {
		return facts.Error(r.reason(ctx, err))
	}
	return facts.OK(data)
}

// reason words err for the namespace, saying so when the timeout cut git off.
func (r *Runner) reason(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("git timed out after %s: %v", r.timeout, err)
	}
	return err.Error()
}

// head is what headArgs says about the project root.
type head struct {
	view   pathView
	branch string // symbolic-ref --short's answer; "HEAD" when detached, "" when unknown
}

// readHead checks that root is inside a git work tree and reads headArgs'
// answer. Its lines are "true", the prefix ("" or "/"-terminated,
// and free to hold newlines) and the branch, absent when HEAD names no commit
// yet (exit 1) or is an ambiguous name. A branch holds no newline and never
// ends in "/", so the prefix ends at the last "/\n".
func readHead(res result, root string) (head, error) {
	if err := res.err; err != nil && exitCode(err) != 1 {
		var ce *CmdError
		if errors.As(err, &ce) && ce.ExitCode == 128 &&
			strings.Contains(ce.Stderr, "not a git repository") && !runners.InGitWorkTree(root) {
			return head{}, ErrNotRepo
		}
		return head{}, err
	}
	inside, rest, _ := strings.Cut(string(res.out), "\n")
	switch {
	case inside == "false":
		return head{}, fmt.Errorf("%w: %s is not in a work tree", ErrNotRepo, root)
	case inside != "true" && res.err != nil:
		return head{}, res.err
	case inside != "true":
		return head{}, fmt.Errorf("git rev-parse: unexpected output %q", truncate(string(res.out), 80))
	}
	var prefix string
	if i := strings.LastIndex(rest, "/\n"); i >= 0 {
		prefix, rest = rest[:i+1], rest[i+2:]
	} else if after, ok := strings.CutPrefix(rest, "\n"); ok {
		rest = after
	} else {
		return head{}, fmt.Errorf("git rev-parse: unexpected output %q", truncate(string(res.out), 80))
	}
	branch, ok := strings.CutSuffix(rest, "\n")
	if (!ok && rest != "") || strings.Contains(branch, "\n") || (branch != "" && res.err != nil) {
		return head{}, fmt.Errorf("git rev-parse: unexpected output %q", truncate(string(res.out), 80))
	}
	return head{view: pathView{root: root, prefix: prefix}, branch: branch}, nil
}

// collect reads the rest of the first round (status, staged numstat and, given
// a since point, its base) and runs what those answers leave to do.
func (r *Runner) collect(ctx context.Context, g *gitCmd, h head, res []result, since Since) (*facts.Git, error) {
	data := &facts.Git{Changes: []facts.GitStatusEntry{}, Staged: []facts.GitNumstat{}}
	if res[0].err != nil {
		return nil, res[0].err
	}
	status, err := ParseStatus(res[0].out)
	if err != nil {
		return nil, fmt.Errorf("read status: %w", err)
	}
	data.Head, data.Unborn = status.Head, status.Unborn
	if err := branchOf(ctx, g, h, data); err != nil {
		return nil, err
	}
	if data.Unborn && data.Detached {
		return nil, errors.New("HEAD is detached but names no commit")
	}
	for _, e := range status.Entries {
		p, ok := h.view.rel(e.Path)
		if !ok {
			continue
		}
		e.Path = p
		if e.OrigPath != "" {
			e.OrigPath = h.view.relAny(e.OrigPath)
		}
		data.Changes = append(data.Changes, e)
	}
	sort.SliceStable(data.Changes, func(i, j int) bool { return data.Changes[i].Path < data.Changes[j].Path })

	if res[1].err != nil {
		return nil, res[1].err
	}
	staged, err := ParseNumstat(res[1].out)
	if err != nil {
		return nil, fmt.Errorf("read staged numstat: %w", err)
	}
	for _, n := range staged {
		p, ok := h.view.rel(n.Path)
		if !ok {
			continue
		}
		n.Path = p
		if n.OrigPath != "" {
			n.OrigPath = h.view.relAny(n.OrigPath)
		}
		data.Staged = append(data.Staged, n)
	}
	sort.SliceStable(data.Staged, func(i, j int) bool { return data.Staged[i].Path < data.Staged[j].Path })

	if since.IsZero() {
		return data, nil
	}
	if data.Since, err = sinceFacts(ctx, g, since, data.Head, data.Unborn, status.Entries, h.view, res[2]); err != nil {
		return nil, err
	}
	return data, nil
}

// branchOf sets data's branch, or marks it detached, from the first round's
// answer in h, asking symbolic-ref itself when that round had none.
func branchOf(ctx context.Context, g *gitCmd, h head, data *facts.Git) error {
	switch h.branch {
	case "HEAD":
		data.Detached = true
	case "":
		// No answer in the first round; ask symbolic-ref itself.
		out, err := g.run(ctx, "symbolic-ref", "-q", "--short", "HEAD")
		switch {
		case err == nil:
			data.Branch = strings.TrimSpace(string(out))
		case exitCode(err) == 1:
			data.Detached = true
		default:
			return err
		}
	default:
		data.Branch = h.branch
	}
	return nil
}

// sinceFacts resolves since to its base (answer holds the first round's
// reply for it) and lists the files changed from there to the work tree.
func sinceFacts(ctx context.Context, g *gitCmd, since Since, headOID string, unborn bool, entries []facts.GitStatusEntry, view pathView, answer result) (*facts.GitSince, error) {
	base, err := resolveBase(ctx, g, since, unborn, answer)
	if err != nil {
		return nil, fmt.Errorf("resolve since %q: %w", since.Spec, err)
	}
	from := base
	if from == "" {
		if from, err = emptyTree(ctx, g, objectFormat(headOID)); err != nil {
			return nil, fmt.Errorf("changes since %q: %w", since.Spec, err)
		}
	}
	files, err := changes(ctx, g, from, entries, view)
	if err != nil {
		return nil, fmt.Errorf("changes since %q: %w", since.Spec, err)
	}
	out := &facts.GitSince{Spec: since.Spec, Kind: "ref", Base: base, Files: files}
	if since.Ref == "" {
		out.Kind = "time"
		out.Time = since.Time.UTC().Format(time.RFC3339Nano)
	}
	if out.Files == nil {
		out.Files = []facts.GitChange{}
	}
	return out, nil
}
