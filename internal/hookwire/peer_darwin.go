package hookwire

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// peer is the uid of the process at the other end of the socket fd
// (LOCAL_PEERCRED) and the path it was executed from (its pid from
// LOCAL_PEERPID, the path from the kern.procargs2 sysctl). macOS names no
// open file for a process's binary, so the path is stat'ed as it is now: a
// binary replaced under a running evaluator passes this check, and the
// evaluator, which compares the client's binary with its own, hands the
// call back and stops.
func peer(fd int) (uid int, exe string, err error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, "", err
	}
	pid, err := unix.GetsockoptInt(fd, unix.SOL_LOCAL, unix.LOCAL_PEERPID)
	if err != nil {
		return 0, "", err
	}
	args, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return 0, "", fmt.Errorf("the evaluator's arguments: %w", err)
	}
	exe, err = execPath(args)
	return int(cred.Uid), exe, err
}

// execPath is the executable path kern.procargs2 holds after argc (a
// 32-bit count, which is not needed here).
func execPath(args []byte) (string, error) {
	if len(args) < 4 {
		return "", errors.New("the evaluator's arguments are cut short")
	}
	path, _, ok := bytes.Cut(args[4:], []byte{0})
	if !ok || !filepath.IsAbs(string(path)) {
		return "", fmt.Errorf("the evaluator's executable path %q is not absolute", path)
	}
	return string(path), nil
}
