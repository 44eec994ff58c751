package treestate

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// repo is the git work tree a root lies in: git names paths from its top,
// prefix is root's place under it ("" or "dir/").
type repo struct {
	root, top, prefix string
	env               []string
}

// openGit finds the git work tree of root. ok is false outside git; a
// .git that git cannot read is an error, never a walk that would judge
// ignored files.
func openGit(ctx context.Context, root string, env []string) (repo, bool, error) {
	if !inGitWorkTree(root) {
		return repo{}, false, nil
	}
	r := repo{root: root, env: env}
	out, err := r.git(ctx, nil, "rev-parse", "--show-toplevel", "--show-prefix")
	if err != nil {
		return repo{}, false, err
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) < 1 || lines[0] == "" {
		return repo{}, false, fmt.Errorf("git rev-parse: no top level for %s", root)
	}
	r.top = lines[0]
	if len(lines) > 1 {
		r.prefix = lines[1]
	}
	return r, true, nil
}

// git runs git in root with stdin and returns its stdout. core.fsmonitor is
// off: the repository's own config could name a program for git to run on
// every status (an agent's script can set it), and that program could tell
// git that nothing changed.
func (r repo) git(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.quotepath=off", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false"}, args...)...)
	cmd.Dir = r.root
	cmd.Env = r.env
	cmd.Stdin = stdin
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// inGitWorkTree reports whether root or a directory above it holds .git.
func inGitWorkTree(root string) bool {
	for dir := root; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// head is the HEAD commit, "" before the first commit.
func (r repo) head(ctx context.Context) (string, error) {
	out, err := r.git(ctx, nil, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return "", nil // no commit yet
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// rel turns a path git printed (from the top) into a root-relative one; ok
// is false for a path outside root or in tausik's state directory.
func (r repo) rel(p string) (string, bool) {
	if !strings.HasPrefix(p, r.prefix) {
		return "", false
	}
	p = strings.TrimPrefix(p, r.prefix)
	if p == "" || p == ".tausik" || strings.HasPrefix(p, ".tausik/") {
		return "", false
	}
	return p, true
}

// dirty lists the paths that differ from HEAD or the index, or are
// untracked and not ignored.
func (r repo) dirty(ctx context.Context) ([]string, error) {
	out, err := r.git(ctx, nil, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=none", "--", ".")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, e := range bytes.Split(out, []byte{0}) {
		if len(e) < 4 {
			continue
		}
		if p, ok := r.rel(string(e[3:])); ok {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

func (r repo) record(ctx context.Context) (State, error) {
	h, err := r.head(ctx)
	if err != nil {
		return State{}, err
	}
	paths, err := r.dirty(ctx)
	if err != nil {
		return State{}, err
	}
	s := State{Mode: ModeGit, Head: h, Paths: map[string]string{}}
	for _, p := range paths {
		if s.Paths[p], err = hashPath(filepath.Join(r.root, filepath.FromSlash(p))); err != nil {
			return State{}, err
		}
	}
	return s, nil
}

// candidates are the paths that may differ from head now: what is dirty,
// and, once HEAD has moved, what the work tree holds differently from head
// (changed and committed since included; before the first commit, every
// path git tracks now).
func (r repo) candidates(ctx context.Context, head string) (map[string]struct{}, error) {
	out := map[string]struct{}{}
	paths, err := r.dirty(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		out[p] = struct{}{}
	}
	now, err := r.head(ctx)
	if err != nil {
		return nil, err
	}
	if now == head {
		// HEAD has not moved: status already compared the work tree and
		// the index with it.
		return out, nil
	}
	var list []byte
	if head != "" {
		list, err = r.git(ctx, nil, "diff", "--name-only", "-z", "--no-renames", "--ignore-submodules=none", head, "--", ".")
	} else {
		list, err = r.git(ctx, nil, "ls-files", "-z", "--cached", "--", ".")
	}
	if err != nil {
		return nil, err
	}
	for _, e := range bytes.Split(list, []byte{0}) {
		if p, ok := r.rel(string(e)); ok {
			out[p] = struct{}{}
		}
	}
	return out, nil
}

// hashesAt is the sha256 of each path's content at commit head (Absent
// where head has no such file, and for every path when head is "").
func (r repo) hashesAt(ctx context.Context, head string, paths []string) (map[string]string, error) {
	out := make(map[string]string, len(paths))
	var batch []string
	for _, p := range paths {
		out[p] = Absent
		if head != "" {
			batch = append(batch, p)
		}
	}
	if len(batch) == 0 {
		return out, nil
	}
	var in strings.Builder
	var odd []string // names cat-file --batch cannot take on one line
	var lined []string
	for _, p := range batch {
		if strings.ContainsAny(p, "\n\r") {
			odd = append(odd, p)
			continue
		}
		lined = append(lined, p)
		fmt.Fprintf(&in, "%s:%s%s\n", head, r.prefix, p)
	}
	if len(lined) > 0 {
		raw, err := r.git(ctx, strings.NewReader(in.String()), "cat-file", "--batch")
		if err != nil {
			return nil, err
		}
		if err := readBatch(raw, lined, out); err != nil {
			return nil, err
		}
	}
	for _, p := range odd {
		b, err := r.git(ctx, nil, "cat-file", "blob", head+":"+r.prefix+p)
		if err != nil {
			continue // not a blob at head: absent
		}
		h := sha256.Sum256(b)
		out[p] = hex.EncodeToString(h[:])
	}
	return out, nil
}

// readBatch reads cat-file --batch output, one object per path in order.
func readBatch(raw []byte, paths []string, out map[string]string) error {
	br := bufio.NewReader(bytes.NewReader(raw))
	for _, p := range paths {
		line, err := br.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file: short output at %s: %w", p, err)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			return fmt.Errorf("git cat-file: empty header at %s", p)
		}
		if last := f[len(f)-1]; len(f) != 3 || last == "missing" || last == "ambiguous" {
			continue // "<name> missing": absent at head
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			return fmt.Errorf("git cat-file: size %q: %w", f[2], err)
		}
		h := sha256.New()
		if _, err := io.CopyN(h, br, n); err != nil {
			return fmt.Errorf("git cat-file: %s: %w", p, err)
		}
		if _, err := br.Discard(1); err != nil {
			return fmt.Errorf("git cat-file: %s: %w", p, err)
		}
		if f[1] == "blob" {
			out[p] = hex.EncodeToString(h.Sum(nil))
		} else {
			out[p] = "dir" // a tree (a directory, a submodule's commit) where a file is
		}
	}
	return nil
}
