//go:build linux || darwin

package hookd

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
)

// lock takes the project's evaluator lock without waiting and writes the
// process id into it; the kernel drops the lock when the process dies,
// however it dies.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// The lock file names the evaluator holding it, for a person (or a
	// test) who wants to stop it.
	if err := f.Truncate(0); err == nil {
		fmt.Fprintf(f, "%d\n", os.Getpid())
	}
	return func() { f.Close() }, nil
}

// listen creates the socket readable and writable by its owner only (the
// mode is set at creation: there is no moment another user could connect).
func listen(path string) (net.Listener, error) {
	old := syscall.Umask(0o177)
	ln, err := net.Listen("unix", path)
	syscall.Umask(old)
	return ln, err
}

// samePeer refuses a connection from another user: the socket's mode
// already does, and this holds if its directory's permissions are wider.
func samePeer(conn net.Conn) error {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return errors.New("not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var uid int
	var cerr error
	if err := raw.Control(func(fd uintptr) { uid, cerr = peerUID(int(fd)) }); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if uid != os.Getuid() {
		return fmt.Errorf("peer uid %d is not this user (%d)", uid, os.Getuid())
	}
	return nil
}
