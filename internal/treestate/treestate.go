// Package treestate records a project's work tree when a scoped task starts
// and tells, later, which paths changed since: the backstop behind the
// pre-write guard, which can never know everything a program (make, a test
// run, a script) writes.
//
// Inside a git work tree a record is the HEAD commit plus every path that
// differed from it then (modified, staged, deleted, untracked and not
// ignored), each with the sha256 of its content or the absent marker. A
// comparison asks git for the candidates (what differs from the recorded
// HEAD now, what is untracked now) and hashes only those and the recorded
// paths, so its cost follows the size of the change, not of the tree.
// Git-ignored paths are never seen. Outside git a record hashes every file
// under the root (skipping VCS, tausik's state and dependency directories)
// and a comparison hashes every file again.
//
// The .tausik/ state directory is never recorded nor reported.
package treestate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"
)

// Absent marks a path that did not exist (deleted, or not yet created).
const Absent = "-"

// Kinds of change, as Compare reports them.
const (
	Created  = "created"
	Modified = "modified"
	Deleted  = "deleted"
	Renamed  = "renamed"
)

// ModeGit and ModeWalk say how a State was taken.
const (
	ModeGit  = "git"
	ModeWalk = "walk"
)

// State is the work tree as a task found it.
type State struct {
	// Mode is ModeGit or ModeWalk.
	Mode string `json:"mode"`
	// Head is the HEAD commit at the time ("" for a repository with no
	// commit yet, and in ModeWalk).
	Head string `json:"head,omitempty"`
	// Paths maps each recorded repo-relative path to the sha256 of its
	// content, or Absent. In ModeGit only the paths that differed from Head;
	// in ModeWalk every file.
	Paths map[string]string `json:"paths"`
}

// Change is one path that differs from the recorded state.
type Change struct {
	Path   string `json:"path"`
	Change string `json:"change"`
	// Peer is the other side of a rename: where the content went (on the
	// old path) or came from (on the new one); "" otherwise.
	Peer string `json:"peer,omitempty"`
}

// ErrState marks a stored state that cannot be read back.
var ErrState = errors.New("unreadable tree state")

// Encode renders s as the JSON a store keeps.
func (s State) Encode() string {
	b, _ := json.Marshal(s) // strings and a map of strings: never fails
	return string(b)
}

// Decode reads a state Encode wrote.
func Decode(text string) (State, error) {
	var s State
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return State{}, fmt.Errorf("%w: %v", ErrState, err)
	}
	if s.Mode != ModeGit && s.Mode != ModeWalk {
		return State{}, fmt.Errorf("%w: mode %q", ErrState, s.Mode)
	}
	if s.Paths == nil {
		s.Paths = map[string]string{}
	}
	return s, nil
}

// Record takes the state of the work tree at root. gitEnv is the
// environment git runs with (the caller's, without the variables that point
// git at another repository).
func Record(ctx context.Context, root string, gitEnv []string) (State, error) {
	if g, ok, err := openGit(ctx, root, gitEnv); err != nil {
		return State{}, err
	} else if ok {
		return g.record(ctx)
	}
	paths, err := walkHashes(root)
	if err != nil {
		return State{}, err
	}
	return State{Mode: ModeWalk, Paths: paths}, nil
}

// Compare lists every path at root that differs from s, sorted by path.
// A path recorded with one content and found with another, created,
// deleted, or moved (a deleted and a created path with the same content)
// is a change; a path that changed and came back is not.
func Compare(ctx context.Context, root string, s State, gitEnv []string) ([]Change, error) {
	now := map[string]string{}
	before := func(p string) string {
		if h, ok := s.Paths[p]; ok {
			return h
		}
		return Absent
	}
	switch s.Mode {
	case ModeGit:
		g, ok, err := openGit(ctx, root, gitEnv)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("%s is no longer a git work tree", root)
		}
		cands, err := g.candidates(ctx, s.Head)
		if err != nil {
			return nil, err
		}
		for p := range s.Paths {
			cands[p] = struct{}{}
		}
		var atHead []string
		for p := range cands {
			h, err := hashPath(filepath.Join(root, filepath.FromSlash(p)))
			if err != nil {
				return nil, err
			}
			now[p] = h
			if _, rec := s.Paths[p]; !rec {
				atHead = append(atHead, p)
			}
		}
		headHashes, err := g.hashesAt(ctx, s.Head, atHead)
		if err != nil {
			return nil, err
		}
		before = func(p string) string {
			if h, ok := s.Paths[p]; ok {
				return h
			}
			return headHashes[p]
		}
	case ModeWalk:
		var err error
		if now, err = walkHashes(root); err != nil {
			return nil, err
		}
		for p := range s.Paths {
			if _, ok := now[p]; !ok {
				now[p] = Absent
			}
		}
	default:
		return nil, fmt.Errorf("%w: mode %q", ErrState, s.Mode)
	}
	return diff(now, before), nil
}

// diff pairs each path's content now with its content before and names the
// change; a deleted and a created path with the same content are a rename,
// reported on both sides.
func diff(now map[string]string, before func(string) string) []Change {
	var out []Change
	gone := map[string][]int{} // content hash → indexes of deleted paths
	for p, h := range now {
		b := before(p)
		switch {
		case b == h:
			continue
		case b == Absent:
			out = append(out, Change{Path: p, Change: Created})
		case h == Absent:
			out = append(out, Change{Path: p, Change: Deleted})
			gone[b] = append(gone[b], len(out)-1)
		default:
			out = append(out, Change{Path: p, Change: Modified})
		}
	}
	for i := range out {
		c := &out[i]
		if c.Change != Created {
			continue
		}
		idx := gone[now[c.Path]]
		if len(idx) == 0 {
			continue
		}
		d := &out[idx[0]]
		gone[now[c.Path]] = idx[1:]
		c.Change, c.Peer = Renamed, d.Path
		d.Change, d.Peer = Renamed, c.Path
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// hashPath is the sha256 of a file's content (of a symlink's target text,
// as git keeps a link), or Absent. A
// directory where a file is expected (a submodule, a file replaced by a
// directory) hashes as a marker too.
func hashPath(p string) (string, error) {
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return Absent, nil
	case err != nil:
		return "", fmt.Errorf("hash %s: %w", p, err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", p, err)
		}
		return sum(t), nil // what git stores for a link
	case fi.IsDir():
		return "dir", nil
	case !fi.Mode().IsRegular():
		return sum("special:" + fi.Mode().String()), nil
	}
	f, err := os.Open(p)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", p, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// skipDirs are the directories a walk never enters: VCS data, tausik's own
// state and dependency trees.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".tausik": true,
	"node_modules": true, ".venv": true, "venv": true, "__pycache__": true,
}

// walkHashes hashes every file under root but those in skipDirs.
func walkHashes(root string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		h, err := hashPath(p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = h
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", root, err)
	}
	return out, nil
}
