package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tausik/tausik/facts"
)

// Since is the point "changed since" is measured from: a ref, or a time,
// parsed from the request's ChangedSince (which the engine sets to a task's
// start time when the request names a task). The zero Since means "no point":
// the runner then omits the since facts.
type Since struct {
	Spec string    // as the user wrote it; reported back in the facts
	Ref  string    // a revision git can resolve to a commit ("main", "HEAD~3", a sha)
	Time time.Time // used when Ref is ""
}

// IsZero reports whether s names no point.
func (s Since) IsZero() bool { return s.Ref == "" && s.Time.IsZero() }

// ParseSince reads a --changed-since value. It is a time when it parses as
// RFC 3339 ("2026-05-01T10:00:00Z"), as "@<unix seconds>", or as a positive Go
// duration meaning that long before now ("3h", "90m"); anything else is a ref.
// A branch whose name looks like a time or duration is written in full
// ("refs/heads/3h"). A ref may not start with "-" (it would read as an option)
// or hold whitespace or control characters.
func ParseSince(spec string, now time.Time) (Since, error) {
	if spec == "" {
		return Since{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, spec); err == nil {
		return Since{Spec: spec, Time: t}, nil
	}
	if rest, ok := strings.CutPrefix(spec, "@"); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
		var secs int64
		if _, err := fmt.Sscan(rest, &secs); err == nil {
			return Since{Spec: spec, Time: time.Unix(secs, 0)}, nil
		}
	}
	if d, err := time.ParseDuration(spec); err == nil {
		if d <= 0 {
			return Since{}, fmt.Errorf("%w: duration %q must be positive", ErrBadSince, spec)
		}
		return Since{Spec: spec, Time: now.Add(-d)}, nil
	}
	if strings.HasPrefix(spec, "-") {
		return Since{}, fmt.Errorf("%w: ref %q must not start with '-'", ErrBadSince, spec)
	}
	if strings.ContainsFunc(spec, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return Since{}, fmt.Errorf("%w: ref %q holds whitespace or control characters", ErrBadSince, spec)
	}
	return Since{Spec: spec, Ref: spec}, nil
}

// baseArgs is the command that finds the since point's base commit, run in
// the first round since it needs only HEAD: for a ref the merge base, for a
// time the last first-parent commit made at or before it. s comes from
// ParseSince, so a ref never starts with "-" (git would read an option).
func baseArgs(s Since) []string {
	if s.Ref != "" {
		return []string{"merge-base", "HEAD", s.Ref + "^{commit}"}
	}
	// That commit is what HEAD was then, as long as the branch only moved
	// forward. Git compares whole seconds.
	before := "--before=" + s.Time.UTC().Truncate(time.Second).Format(time.RFC3339)
	return []string{"rev-list", "-1", "--first-parent", before, "HEAD", "--"}
}

// resolveBase reads baseArgs' result into the commit the comparison starts
// from; "" means there is none and every file counts as new. On an unborn
// branch or a failed merge-base it asks whether the ref names a commit at all,
// so that a typo says so rather than how merge-base failed.
func resolveBase(ctx context.Context, g *gitCmd, s Since, unborn bool, res result) (string, error) {
	if s.Ref == "" {
		if unborn {
			return "", nil
		}
		if res.err != nil {
			return "", res.err
		}
		return strings.TrimSpace(string(res.out)), nil
	}
	if !unborn {
		switch {
		case res.err == nil:
			return strings.TrimSpace(string(res.out)), nil
		case exitCode(res.err) == 1: // both resolved, no common ancestor
			return "", fmt.Errorf("%w: %q shares no history with HEAD", ErrBadSince, s.Ref)
		}
	}
	if _, err := g.run(ctx, "rev-parse", "-q", "--verify", s.Ref+"^{commit}"); err != nil {
		if exitCode(err) == 1 {
			return "", fmt.Errorf("%w: %q is not a commit", ErrBadSince, s.Ref)
		}
		return "", err
	}
	if unborn {
		return "", nil
	}
	return "", res.err
}

// emptyTrees are the object names of the empty tree, which every repository
// of that object format holds without storing it.
var emptyTrees = map[string]string{
	"sha1":   "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
	"sha256": "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321",
}

// objectFormat is the object format of a repository whose HEAD is head: the
// length of its name tells ("" on an unborn branch, where git is asked).
// Reading it from HEAD rather than from rev-parse --show-object-format keeps
// git older than 2.28 working.
func objectFormat(head string) string {
	switch len(head) {
	case 40:
		return "sha1"
	case 64:
		return "sha256"
	}
	return ""
}

// emptyTree returns the empty tree's name in the given object format, asking
// git for a format it does not know.
func emptyTree(ctx context.Context, g *gitCmd, format string) (string, error) {
	if t, ok := emptyTrees[format]; ok {
		return t, nil
	}
	out, err := g.run(ctx, "hash-object", "-t", "tree", "--stdin")
	if err != nil {
		return "", fmt.Errorf("empty tree: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// changes lists everything changed since the tree-ish from: committed,
// staged, unstaged and untracked, with added lines. status is the porcelain
// status already read, paths relative to the top of the work tree; view maps
// those paths to project-relative ones. One diff prints both the numstat and
// the patch, so git compares the trees and reads the work tree once.
func changes(ctx context.Context, g *gitCmd, from string, status []facts.GitStatusEntry, view pathView) ([]facts.GitChange, error) {
	out, err := g.run(ctx, "diff", "--numstat", "-z", "--patch", "--unified=0", "--no-color", "--src-prefix=a/", "--dst-prefix=b/",
		"--no-ext-diff", "--no-textconv", "--find-renames", from, "--")
	if err != nil {
		return nil, err
	}
	stats, patch, err := ParseNumstatPatch(out)
	if err != nil {
		return nil, fmt.Errorf("read diff: %w", err)
	}
	col := newCollector(DefaultCaps)
	if err := parseAddedLines(patch, col); err != nil {
		return nil, fmt.Errorf("read diff: %w", err)
	}
	var changes []facts.GitChange
	for _, st := range stats {
		p, ok := view.rel(st.Path)
		if !ok {
			continue
		}
		c := facts.GitChange{Path: p, Binary: st.Binary, Added: st.Added, Removed: st.Removed}
		if st.OrigPath != "" {
			c.OrigPath = view.relAny(st.OrigPath)
		}
		if a := col.files[st.Path]; a != nil {
			c.AddedNonBlank, c.Lines, c.LinesTrunc = a.nonBlank, a.lines, a.trunc
		}
		c.Deleted = !view.exists(p)
		changes = append(changes, c)
	}
	tracked := make(map[string]int, len(changes))
	for i, c := range changes {
		tracked[c.Path] = i
	}
	for _, e := range status {
		if !e.Untracked {
			continue
		}
		p, ok := view.rel(e.Path)
		if !ok {
			continue
		}
		c, err := readUntracked(view.abs(p), p, col)
		if err != nil {
			return nil, err
		}
		// A path removed from the index but still on disk shows in the diff
		// as deleted and in the status as untracked: the file on disk wins.
		if i, dup := tracked[p]; dup {
			c.Removed = changes[i].Removed
			changes[i] = c
			continue
		}
		changes = append(changes, c)
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	for i := range changes {
		if changes[i].Lines == nil {
			changes[i].Lines = []string{}
		}
	}
	return changes, nil
}

// binarySniff is how much of a file git inspects for a NUL byte to call it binary.
const binarySniff = 8000

// readUntracked counts an untracked file's lines as added, the way git would
// once the file is added. Anything but a regular file adds no lines.
func readUntracked(full, rel string, col *collector) (facts.GitChange, error) {
	c := facts.GitChange{Path: rel, Untracked: true, Lines: []string{}}
	info, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) {
		c.Deleted = true
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("stat %s: %w", rel, err)
	}
	if !info.Mode().IsRegular() {
		return c, nil
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return c, fmt.Errorf("read %s: %w", rel, err)
	}
	if bytes.IndexByte(data[:min(len(data), binarySniff)], 0) >= 0 {
		c.Binary = true
		return c, nil
	}
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		col.add(rel, line)
	}
	if a := col.files[rel]; a != nil {
		c.Added, c.AddedNonBlank, c.Lines, c.LinesTrunc = a.count, a.nonBlank, a.lines, a.trunc
	}
	return c, nil
}

// pathView maps paths relative to the top of the work tree onto the project
// root, which may be a subdirectory of it (prefix, "/"-terminated or "").
type pathView struct {
	root   string
	prefix string
}

// rel returns p relative to the project root, and false when p lies outside it.
func (v pathView) rel(p string) (string, bool) {
	if v.prefix == "" {
		return p, true
	}
	r, ok := strings.CutPrefix(p, v.prefix)
	return r, ok && r != ""
}

// relAny is rel for a path that may lie outside the root (a rename's
// source): outside paths come back with "../" steps.
func (v pathView) relAny(p string) string {
	if r, ok := v.rel(p); ok {
		return r
	}
	up := strings.Repeat("../", strings.Count(v.prefix, "/"))
	return filepath.ToSlash(filepath.Clean(up + p))
}

func (v pathView) abs(rel string) string { return filepath.Join(v.root, filepath.FromSlash(rel)) }

func (v pathView) exists(rel string) bool {
	_, err := os.Lstat(v.abs(rel))
	return err == nil
}
