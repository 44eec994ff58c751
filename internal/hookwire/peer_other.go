//go:build !linux && !darwin

package hookwire

import (
	"errors"
	"net"
)

// verifyPeer: only Linux and macOS tell the client which binary serves the
// socket, so elsewhere (Windows) no evaluator is trusted and every call is
// judged in process.
func verifyPeer(net.Conn, Identity) error {
	return errors.New("the resident evaluator runs on Linux and macOS only")
}
