//go:build darwin

package cache

import (
	"io/fs"
	"syscall"
)

// StampOf returns info's stamp; ok is false for anything but a regular file
// with an inode and a change time, which is then not cached.
func StampOf(info fs.FileInfo) (Stamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || !info.Mode().IsRegular() {
		return Stamp{}, false
	}
	return Stamp{
		Dev: uint64(st.Dev), Ino: st.Ino, Mode: uint32(info.Mode()), Size: info.Size(),
		MtimeNS: st.Mtimespec.Sec*1e9 + st.Mtimespec.Nsec,
		CtimeNS: st.Ctimespec.Sec*1e9 + st.Ctimespec.Nsec,
	}, true
}
