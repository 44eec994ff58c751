package runners

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
)

// OpenFunc opens a file for reading. Source runners pass os.Open wrapped in
// a variable of their own, which their tests replace to simulate I/O errors.
type OpenFunc func(name string) (io.ReadCloser, error)

// ScanSources reads the repo-relative, "/"-separated paths under root on
// GOMAXPROCS goroutines and returns what scan makes of each file's bytes,
// sorted by path, for the runners that read source files (python, go). Each
// goroutine calls worker once for its scan function, so a scanner and its
// buffers are never shared; the bytes passed to scan are reused after it
// returns. Paths that do not exist, symlinks and anything but regular files
// are left out (a symlink's target is scanned under its own path if it is in
// the repository). Any other failure to read a file is an error naming the
// file ("scan PATH: ..."), as is a cancelled ctx: never a short list.
func ScanSources[T any](ctx context.Context, root string, paths []string, open OpenFunc, worker func() func(path string, src []byte) T) ([]T, error) {
	paths = slices.Clone(paths)
	slices.Sort(paths)
	paths = slices.Compact(paths)
	out := make([]T, len(paths))
	keep := make([]bool, len(paths))
	errs := make([]error, len(paths))
	err := Parallel(ctx, len(paths), runtime.GOMAXPROCS(0), func() func(int) {
		scan := worker()
		var buf []byte
		return func(i int) {
			var src []byte
			var ok bool
			src, buf, ok, errs[i] = readRegular(open, filepath.Join(root, filepath.FromSlash(paths[i])), buf)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("scan %s: %w", paths[i], errs[i])
				return
			}
			if ok {
				out[i], keep[i] = scan(paths[i], src), true
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if err := errors.Join(firstErrors(errs, 5)...); err != nil {
		return nil, err
	}
	files := out[:0]
	for i := range out {
		if keep[i] {
			files = append(files, out[i])
		}
	}
	return files, nil
}

// readRegular reads the regular file at name into buf (grown as needed).
// ok is false, with no error, when name does not exist, is a symlink or is
// not a regular file.
func readRegular(open OpenFunc, name string, buf []byte) (src, scratch []byte, ok bool, err error) {
	info, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		return nil, buf, false, nil
	case err != nil:
		return nil, buf, false, err
	case !info.Mode().IsRegular():
		return nil, buf, false, nil
	}
	f, err := open(name)
	if err != nil {
		return nil, buf, false, err
	}
	defer f.Close()
	size := int(info.Size()) + 1
	if cap(buf) < size {
		buf = make([]byte, size+size/4)
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		if n == len(buf) { // the file grew since Lstat
			buf = append(buf, 0)[:n]
			buf = buf[:cap(buf)]
		}
		m, err := f.Read(buf[n:])
		n += m
		if err == io.EOF {
			return buf[:n], buf, true, nil
		}
		if err != nil {
			return nil, buf, false, err
		}
	}
}

// firstErrors returns up to limit non-nil errors of errs, then a note of how
// many more there were.
func firstErrors(errs []error, limit int) []error {
	var out []error
	more := 0
	for _, e := range errs {
		if e == nil {
			continue
		}
		if len(out) < limit {
			out = append(out, e)
		} else {
			more++
		}
	}
	if more > 0 {
		out = append(out, fmt.Errorf("and %d more unreadable files", more))
	}
	return out
}
