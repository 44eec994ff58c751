//go:build unix

package hookwire

import (
	"os"
	"syscall"
)

// Stat identifies the file at path.
func Stat(path string) (Identity, error) {
	info, err := os.Stat(path)
	if err != nil {
		return Identity{}, err
	}
	id := Identity{Path: path, Size: info.Size(), MTime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		id.Inode = uint64(st.Ino)
	}
	return id, nil
}
