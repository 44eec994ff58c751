//go:build unix

package live

import (
	"io/fs"
	"syscall"
)

// inode is the file's inode number: a file replaced by rename keeps its
// size and can keep its mtime, but not its inode.
func inode(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
