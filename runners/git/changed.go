package git

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ChangedFiles returns the files that changed since spec, as `tausik policy
// eval --changed-since` scopes an evaluation to them: for a ref, everything
// between its merge base with HEAD and the work tree (committed, staged,
// unstaged and untracked-not-ignored); for a time (see ParseSince), since the
// last commit before it. Both sides of a rename are listed, and so are
// deleted files, which the files namespace then shows as absent. Paths are
// project-relative, sorted, without duplicates; a rename from outside the
// project lists only its side inside.
//
// A spec that names no commit, or one sharing no history with HEAD, is an
// ErrBadSince error naming it; a root outside a git work tree is ErrNotRepo.
func (r *Runner) ChangedFiles(ctx context.Context, root, spec string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	since, err := ParseSince(spec, r.now())
	if err != nil {
		return nil, err
	}
	if since.IsZero() {
		return nil, fmt.Errorf("%w: empty since point", ErrBadSince)
	}
	g := newGitCmd(r.bin, root)
	res := g.runAll(ctx, headArgs, statusArgs, stagedArgs, baseArgs(since))
	h, err := readHead(res[0], root)
	if err != nil {
		return nil, err
	}
	data, err := r.collect(ctx, g, h, res[1:], since)
	if err != nil {
		if errors.Is(err, ErrBadSince) {
			return nil, err
		}
		return nil, errors.New(r.reason(ctx, err))
	}
	var out []string
	for _, c := range data.Since.Files {
		out = append(out, c.Path)
		if c.OrigPath != "" && !strings.HasPrefix(c.OrigPath, "../") {
			out = append(out, c.OrigPath)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
