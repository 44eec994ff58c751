//go:build linux

package fs

import (
	"fmt"
	"os"
	"syscall"
)

// fileIdentity names a file's content as stat sees it: size, modification
// and change times and inode (a write that restores the modification time
// still moves the change time).
func fileIdentity(info os.FileInfo) string {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d:%d.%d:%d", info.Size(), info.ModTime().UnixNano(), st.Ctim.Sec, st.Ctim.Nsec, st.Ino)
	}
	return fmt.Sprintf("%d:%d", info.Size(), info.ModTime().UnixNano())
}
