package shellwrites

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// errNotRegular refuses a file that is not a regular file (a FIFO or a
// device would block or never end) or that is too big to judge.
var errNotRegular = errors.New("not a regular file of at most 1 MiB")

// ReadRegularFile is a ReadFile for Options that never blocks: it opens name
// without waiting (a FIFO opens at once), and reads it only when it is a
// regular file of at most 1 MiB.
func ReadRegularFile(name string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxCommandBytes {
		return nil, errNotRegular
	}
	b, err := io.ReadAll(io.LimitReader(f, maxCommandBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxCommandBytes {
		return nil, errNotRegular
	}
	return b, nil
}
