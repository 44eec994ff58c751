// Package hookwire is the protocol between the thin hook client
// (cmd/tausik-hook) and the resident evaluator (`tausik hook serve`): one
// request and one answer per connection, over a Unix socket in the
// project's .tausik/ directory, each a frame of a fixed header (magic,
// protocol version, length) and a JSON body. The header never changes, so
// a client and an evaluator of different versions always recognise each
// other and the client falls back to the in-process path. The package uses
// the standard library only (and golang.org/x/sys/unix on macOS, for the
// peer check): the client must not link the engine.
package hookwire

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
)

// Version is the protocol version this build speaks.
const Version = 1

// magic opens every frame in both directions.
const magic = "TSKH"

// maxFrame bounds a frame's body: a hook payload is at most 8 MiB, which
// base64 and the environment grow by a third at most.
const maxFrame = 16 << 20

// Paths inside a project's state directory (.tausik/).
const (
	SocketName = "hook.sock" // the evaluator listens here
	LockName   = "hook.lock" // held by the running evaluator
	LogName    = "hook.log"  // the evaluator's stderr
)

// Request is one hook call, forwarded as the host made it.
type Request struct {
	Host  string `json:"host"`
	Event string `json:"event"`
	// WD is the client's working directory; Env its environment
	// (os.Environ form).
	WD  string   `json:"wd"`
	Env []string `json:"env"`
	// Binary identifies the tausik binary the client would run itself: an
	// evaluator started from another binary is stale.
	Binary Identity `json:"binary"`
	// Payload is the host's hook JSON, as read from stdin.
	Payload []byte `json:"payload"`
}

// Answer is what the client prints and exits with, unless Fallback says
// why the evaluator did not judge the call (the client then runs the
// in-process path, which judges it).
type Answer struct {
	Fallback string `json:"fallback,omitempty"`
	Code     int    `json:"code"`
	Stdout   []byte `json:"stdout,omitempty"`
	Stderr   []byte `json:"stderr,omitempty"`
}

// Identity is a file as stat shows it: any change of content through a
// rename, a copy or an in-place write changes one of these.
type Identity struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"` // nanoseconds
	Inode uint64 `json:"inode"`
}

// ErrVersion is a frame of another protocol version.
var ErrVersion = errors.New("another hook protocol version")

// Write sends v as one frame.
func Write(w io.Writer, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(body) > maxFrame {
		return fmt.Errorf("hook frame of %d bytes over %d", len(body), maxFrame)
	}
	head := make([]byte, 0, 12+len(body))
	head = append(head, magic...)
	head = binary.BigEndian.AppendUint32(head, Version)
	head = binary.BigEndian.AppendUint32(head, uint32(len(body)))
	_, err = w.Write(append(head, body...))
	return err
}

// Read reads one frame into v. A frame of another version is ErrVersion
// (its body is not read: another version may frame it differently).
func Read(r io.Reader, v any) error {
	var head [12]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return fmt.Errorf("read hook frame: %w", err)
	}
	if string(head[:4]) != magic {
		return fmt.Errorf("not a hook frame (%q)", head[:4])
	}
	if v := binary.BigEndian.Uint32(head[4:8]); v != Version {
		return fmt.Errorf("%w: %d, this is %d", ErrVersion, v, Version)
	}
	n := binary.BigEndian.Uint32(head[8:])
	if n > maxFrame {
		return fmt.Errorf("hook frame of %d bytes over %d", n, maxFrame)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return fmt.Errorf("read hook frame: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Socket is the evaluator's socket for the project at root.
func Socket(root string) string { return filepath.Join(root, ".tausik", SocketName) }

// Same reports whether a and b are the same file content as stat sees it
// (the path may differ: a symlink, or the evaluator's /proc/self/exe).
func (a Identity) Same(b Identity) bool {
	return a.Size == b.Size && a.MTime == b.MTime && a.Inode == b.Inode
}
