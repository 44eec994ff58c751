package hookwire

import (
	"fmt"
	"net"
	"time"
)

// maxSocketPath is the longest socket path every Unix takes (sun_path is
// 104 bytes on macOS and the BSDs, 108 on Linux, with its terminating NUL).
const maxSocketPath = 103

// Usable reports whether path can name a Unix socket.
func Usable(path string) bool { return len(path) <= maxSocketPath }

// Forward sends req to the evaluator listening at sock and returns its
// answer. Any error — no evaluator, another protocol version, a connection
// cut, no answer within deadline — means the caller judges the call itself.
func Forward(sock string, req *Request, deadline time.Duration) (*Answer, error) {
	if !Usable(sock) {
		return nil, fmt.Errorf("socket path of %d bytes over %d", len(sock), maxSocketPath)
	}
	conn, err := net.DialTimeout("unix", sock, deadline)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(deadline)); err != nil {
		return nil, err
	}
	if err := Write(conn, req); err != nil {
		return nil, err
	}
	var a Answer
	if err := Read(conn, &a); err != nil {
		return nil, err
	}
	if a.Fallback != "" {
		return nil, fmt.Errorf("the evaluator did not judge the call: %s", a.Fallback)
	}
	return &a, nil
}
