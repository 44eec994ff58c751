// Package boundedread reads the files tausik trusts to configure it (config
// tiers, gate bundles, fixtures) so that a hostile file cannot hang or starve
// the process: only regular files are read, never more than a size cap, and
// a file inside a project is read only when it, and every symlink on its way,
// stays inside the project. A FIFO, a device or a socket is an error, found
// without blocking: files are opened non-blocking and checked with fstat
// before anything is read.
package boundedread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxConfig caps a configuration file (tausik/gates.json, the user and
// managed tiers); MaxBundle caps each file of a team gate bundle (gate.yaml,
// the policy, fixtures). Real files are a few kilobytes.
const (
	MaxConfig = 4 << 20
	MaxBundle = 4 << 20
)

// Sentinel errors. No error of this package names the path: its callers
// name the file as their users know it (tausik/gates.json, not /tmp/…).
var (
	// ErrNotRegular marks a FIFO, device, socket or other special file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge marks a file over its size cap.
	ErrTooLarge = errors.New("file too large")
)

// File reads the regular file at name, following symlinks (a user's config
// may live in a dotfiles checkout), refusing anything else or more than max
// bytes.
func File(name string, max int64) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, bare(err)
	}
	defer f.Close()
	return readChecked(f, max)
}

// In reads the regular file rel (slash-separated) under dir: the path and
// any symlink on it must stay inside dir (os.Root), and the file is checked
// as File checks it.
func In(dir, rel string, max int64) ([]byte, error) {
	f, err := openIn(dir, rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readChecked(f, max)
}

// openIn opens rel under dir without following a symlink out of it, and
// without blocking on a FIFO.
func openIn(dir, rel string) (*os.File, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, bare(err)
	}
	defer r.Close()
	f, err := r.OpenFile(rel, os.O_RDONLY|nonblock, 0)
	return f, bare(err)
}

// bare drops an os error's path, keeping what went wrong ("no such file or
// directory", "path escapes from parent"); errors.Is still sees through it.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("open: %w", pe.Err)
	}
	return err
}

// readChecked reads f when fstat shows a regular file of at most max bytes,
// and reads no more than max bytes even if it grows meanwhile.
func readChecked(f *os.File, max int64) ([]byte, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, bare(err)
	}
	if err := check(info, max); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read: %w", bare(err))
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w (over the cap of %d bytes)", ErrTooLarge, max)
	}
	return b, nil
}

// check refuses a file that is not regular or is over max bytes.
func check(info fs.FileInfo, max int64) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%w (%s)", ErrNotRegular, kind(info.Mode()))
	}
	if info.Size() > max {
		return fmt.Errorf("%w (%d bytes, the cap is %d)", ErrTooLarge, info.Size(), max)
	}
	return nil
}

// kind names a special file's type for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "mode " + m.String()
}

// FS returns the tree under dir as an fs.FS whose every file is opened as In
// opens it: inside dir, without blocking, regular (or a directory), at most
// max bytes. It holds no descriptor between calls.
func FS(dir string, max int64) fs.FS { return treeFS{dir: dir, max: max} }

type treeFS struct {
	dir string
	max int64
}

// Open implements fs.FS.
func (t treeFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := openIn(t.dir, name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	info, err := f.Stat()
	if err == nil && !info.IsDir() {
		err = check(info, t.max)
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return f, nil
}

// ReadFile implements fs.ReadFileFS with the size cap held while reading.
func (t treeFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	b, err := In(t.dir, name, t.max)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return b, nil
}
