package mcp

import (
	"io"
	"sync"
	"time"
)

// lockedWriter lets a test read what the server has written so far.
type lockedWriter struct {
	mu sync.Mutex
	w  interface {
		io.Writer
		Bytes() []byte
	}
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]byte(nil), l.w.Bytes()...)
}

// waitABit yields while a server goroutine answers; tests poll for output
// rather than assume a duration.
func waitABit() { time.Sleep(5 * time.Millisecond) }
