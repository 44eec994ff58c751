package hosts

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"time"
)

// workspace is the temporary copy of the project the generators run in,
// one after another. Copying a project is the expensive part of a run, so
// the copy is shared, and made again only when a generator changed it:
// every generator still starts from a clean copy.
type workspace struct {
	dir, repo, root string
	files           []string
	snap            map[string]entry
	dirty           bool
}

// entry is what a copied file is recognised by.
type entry struct {
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

// newWorkspace copies files from root into a new temp dir.
func newWorkspace(root string, files []string) (*workspace, error) {
	dir, err := os.MkdirTemp("", "tausik-generators-")
	if err != nil {
		return nil, err
	}
	ws := &workspace{dir: dir, repo: filepath.Join(dir, "repo"), root: root, files: files, dirty: true}
	if err := ws.clean(); err != nil {
		ws.remove()
		return nil, err
	}
	return ws, nil
}

// clean makes sure the copy is as it was made, copying it again when the
// last generator changed anything in it.
func (ws *workspace) clean() error {
	if !ws.dirty {
		now, err := snapshot(ws.repo)
		if err == nil && maps.Equal(now, ws.snap) {
			return nil
		}
	}
	removeAll(ws.repo)
	if err := os.MkdirAll(ws.repo, 0o755); err != nil {
		return err
	}
	if err := copyFiles(ws.root, ws.repo, ws.files); err != nil {
		return err
	}
	snap, err := snapshot(ws.repo)
	if err != nil {
		return err
	}
	ws.snap, ws.dirty = snap, false
	return nil
}

// snapshot records every entry under dir.
func snapshot(dir string) (map[string]entry, error) {
	out := map[string]entry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		e := entry{mode: info.Mode()}
		if !d.IsDir() {
			e.size, e.mtime = info.Size(), info.ModTime()
		}
		out[p] = e
		return nil
	})
	return out, err
}

// remove deletes the workspace.
func (ws *workspace) remove() { removeAll(ws.dir) }

// removeAll removes dir, making its directories writable first: a
// generator may leave read-only ones behind (a Go module cache in its HOME).
func removeAll(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	_ = os.RemoveAll(dir)
}
