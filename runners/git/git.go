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

// Gather implements runners.Runner. It returns status ok only when every git
// command it needed succeeded; there is no partial git namespace.
func (r *Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	g := newGitCmd(r.bin, s.Root)
	view, err := r.open(ctx, g, s.Root)
	if errors.Is(err, ErrNotRepo) {
		return facts.Unavailable(err.Error())
	}
	if err != nil {
		return facts.Error(r.reason(ctx, err))
	}
	since, err := ParseSince(s.Request.ChangedSince, r.now())
	if err != nil {
		return facts.Error(err.Error())
	}
	data, err := r.collect(ctx, g, view, since)
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

// open checks that root is inside a git work tree and returns how its paths
// map onto the project root.
func (r *Runner) open(ctx context.Context, g *gitCmd, root string) (pathView, error) {
	out, err := g.run(ctx, "rev-parse", "--is-inside-work-tree", "--show-prefix")
	if err != nil {
		var ce *CmdError
		if errors.As(err, &ce) && ce.ExitCode == 128 &&
			strings.Contains(ce.Stderr, "not a git repository") && !runners.InGitWorkTree(root) {
			return pathView{}, ErrNotRepo
		}
		return pathView{}, err
	}
	inside, prefix, _ := strings.Cut(string(out), "\n")
	if inside != "true" {
		return pathView{}, fmt.Errorf("%w: %s is not in a work tree", ErrNotRepo, root)
	}
	return pathView{root: root, prefix: strings.TrimSuffix(prefix, "\n")}, nil
}

// collect runs the git commands and assembles the namespace data.
func (r *Runner) collect(ctx context.Context, g *gitCmd, view pathView, since Since) (*facts.Git, error) {
	data := &facts.Git{Changes: []facts.GitStatusEntry{}, Staged: []facts.GitNumstat{}}
	out, err := g.run(ctx, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	switch {
	case err == nil:
		data.Head = strings.TrimSpace(string(out))
	case exitCode(err) == 1:
		data.Unborn = true
	default:
		return nil, err
	}
	out, err = g.run(ctx, "symbolic-ref", "-q", "--short", "HEAD")
	switch {
	case err == nil:
		data.Branch = strings.TrimSpace(string(out))
	case exitCode(err) == 1:
		data.Detached = true
	default:
		return nil, err
	}
	if data.Unborn && data.Detached {
		return nil, errors.New("HEAD is detached but names no commit")
	}

	out, err = g.run(ctx, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--find-renames")
	if err != nil {
		return nil, err
	}
	status, err := ParsePorcelain(out)
	if err != nil {
		return nil, fmt.Errorf("read status: %w", err)
	}
	for _, e := range status {
		p, ok := view.rel(e.Path)
		if !ok {
			continue
		}
		e.Path = p
		if e.OrigPath != "" {
			e.OrigPath = view.relAny(e.OrigPath)
		}
		data.Changes = append(data.Changes, e)
	}
	sort.SliceStable(data.Changes, func(i, j int) bool { return data.Changes[i].Path < data.Changes[j].Path })

	out, err = g.run(ctx, "diff", "--cached", "--numstat", "-z", "--find-renames", "--no-ext-diff", "--no-textconv", "--")
	if err != nil {
		return nil, err
	}
	staged, err := ParseNumstat(out)
	if err != nil {
		return nil, fmt.Errorf("read staged numstat: %w", err)
	}
	for _, n := range staged {
		p, ok := view.rel(n.Path)
		if !ok {
			continue
		}
		n.Path = p
		if n.OrigPath != "" {
			n.OrigPath = view.relAny(n.OrigPath)
		}
		data.Staged = append(data.Staged, n)
	}
	sort.SliceStable(data.Staged, func(i, j int) bool { return data.Staged[i].Path < data.Staged[j].Path })

	if since.IsZero() {
		return data, nil
	}
	if since.Spec == "" {
		since.Spec = since.Ref
		if since.Ref == "" {
			since.Spec = since.Time.UTC().Format(time.RFC3339Nano)
		}
	}
	base, err := resolveBase(ctx, g, since, data.Unborn)
	if err != nil {
		return nil, fmt.Errorf("resolve since %q: %w", since.Spec, err)
	}
	files, err := changes(ctx, g, base, status, view)
	if err != nil {
		return nil, fmt.Errorf("changes since %q: %w", since.Spec, err)
	}
	data.Since = &facts.GitSince{Spec: since.Spec, Kind: "ref", Base: base, Files: files}
	if since.Ref == "" {
		data.Since.Kind = "time"
		data.Since.Time = since.Time.UTC().Format(time.RFC3339Nano)
	}
	if data.Since.Files == nil {
		data.Since.Files = []facts.GitChange{}
	}
	return data, nil
}
