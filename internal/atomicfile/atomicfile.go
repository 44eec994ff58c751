// Package atomicfile writes a file so that a reader sees either its old
// bytes or its new ones, never half of them: the data goes to a temporary
// file beside it, which is synced and then renamed over it. It is the one
// such writer for host wiring (tausik init), RENAR artifacts and keys.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Write replaces path with data, mode perm (umask does not apply). The
// temporary file lives in path's directory, so the rename never crosses a
// file system; it is removed on any error, and path is then as it was —
// except when only the final sync of the directory fails, after the rename:
// path then holds the new bytes, which may not survive a power failure.
//
// Write replaces the directory entry: a symlink at path is replaced by a
// regular file, not followed. A caller that means the link's target
// resolves it first (and decides whether it may write there).
func Write(path string, data []byte, perm fs.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	// Mode first: a key written 0600 is never readable by others, not even
	// for the moment between write and chmod.
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir flushes a directory's entries, so that a rename survives a power
// failure (the file's own sync covers only its bytes). A file system that
// cannot sync a directory says so with EINVAL; the rename has happened then,
// and the data is as safe as that file system makes it.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// Mode is the permission bits of the file at path, or def when there is
// none; a caller replacing a file keeps its mode with Write(path, data,
// Mode(path, 0o644)). Only a missing file gives def: any other stat error
// is returned, so a file that cannot be looked at is not rewritten under a
// guessed mode.
func Mode(path string, def fs.FileMode) (fs.FileMode, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return def, nil
	case err != nil:
		return 0, err
	}
	return info.Mode().Perm(), nil
}
