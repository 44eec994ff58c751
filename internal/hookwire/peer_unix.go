//go:build linux || darwin

package hookwire

import (
	"errors"
	"fmt"
	"net"
	"os"
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
	var uid int
	var exe string
	var perr error
	if err := raw.Control(func(fd uintptr) { uid, exe, perr = peer(int(fd)) }); err != nil {
		return err
	}
	if perr != nil {
		return perr
	}
	if uid != os.Getuid() {
		return fmt.Errorf("the evaluator runs as uid %d, not this user", uid)
	}
	got, err := Stat(exe)
	if err != nil {
		return fmt.Errorf("the evaluator's binary: %w", err)
	}
	if !got.Same(want) {
		return errors.New("the process on the socket does not run this tausik binary")
	}
	return nil
}
