package live

import (
	"io/fs"
	"syscall"
)

// ctime is the file's status-change time, which no user can set: an edit
// that keeps the size and puts the mtime back (touch -r, cp -p, rsync -a,
// tar x) still changes it.
func ctime(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano()
	}
	return 0
}
