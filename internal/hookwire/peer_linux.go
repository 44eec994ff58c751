package hookwire

import (
	"strconv"
	"syscall"
)

// peer is the uid of the process at the other end of the socket fd and a
// path to the binary it runs: /proc's link to the very file it executes,
// which still names the old binary after a replacement.
func peer(fd int) (uid int, exe string, err error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return 0, "", err
	}
	return int(cred.Uid), "/proc/" + strconv.Itoa(int(cred.Pid)) + "/exe", nil
}
