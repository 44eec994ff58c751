//go:build !linux && !darwin

package hookd

import (
	"errors"
	"net"
)

// errUnsupported: only on Linux and macOS can the client check which
// binary serves the socket, so elsewhere (Windows) no evaluator runs and
// every hook call takes the in-process path.
var errUnsupported = errors.New("the resident evaluator runs on Linux and macOS only")

func lock(string) (func(), error)         { return nil, errUnsupported }
func listen(string) (net.Listener, error) { return nil, errUnsupported }
func samePeer(net.Conn) error             { return errUnsupported }
