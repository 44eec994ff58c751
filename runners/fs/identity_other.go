//go:build !linux

package fs

import (
	"fmt"
	"os"
)

// fileIdentity names a file's content as stat sees it: size and
// modification time.
func fileIdentity(info os.FileInfo) string {
	return fmt.Sprintf("%d:%d", info.Size(), info.ModTime().UnixNano())
}
