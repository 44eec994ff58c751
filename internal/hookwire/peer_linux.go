package hookwire

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"
)

// verifyPeer checks that the process listening on conn's other end is this
// user's and runs the binary want names: any program the agent could start
// on the socket (a script answering "allow" to everything) is refused, and
// the call is judged in process.
func verifyPeer(conn net.Conn, want Identity) error {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return errors.New("not a Unix socket connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("the evaluator runs as uid %d, not this user", cred.Uid)
	}
	got, err := Stat("/proc/" + strconv.Itoa(int(cred.Pid)) + "/exe")
	if err != nil {
		return fmt.Errorf("the evaluator's binary: %w", err)
	}
	if !got.Same(want) {
		return errors.New("the process on the socket does not run this tausik binary")
	}
	return nil
}
