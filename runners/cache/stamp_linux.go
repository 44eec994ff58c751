//go:build linux

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
		Dev: uint64(st.Dev), Ino: uint64(st.Ino), Mode: uint32(info.Mode()), Size: info.Size(),
		MtimeNS: int64(st.Mtim.Sec)*1e9 + int64(st.Mtim.Nsec),
		CtimeNS: int64(st.Ctim.Sec)*1e9 + int64(st.Ctim.Nsec),
	}, true
}
