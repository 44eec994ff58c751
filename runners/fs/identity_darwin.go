//go:build darwin

package fs

import (
	"fmt"
	"os"
	"syscall"
)

// fileIdentity names a file's content as stat sees it: size, modification
// and change times and inode (a write that restores the modification time
// still moves the change time). ok is false when stat cannot tell.
func fileIdentity(info os.FileInfo) (string, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d:%d:%d.%d:%d", info.Size(), info.ModTime().UnixNano(), st.Ctimespec.Sec, st.Ctimespec.Nsec, st.Ino), true
}
