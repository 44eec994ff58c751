//go:build linux || darwin

package hookd

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tausik/tausik/internal/hookwire"
)

// project is a directory with a state directory, short enough for a socket.
func project(t *testing.T) string {
	t.Helper()
	root, err := os.MkdirTemp("", "hookd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.Mkdir(filepath.Join(root, ".tausik"), 0o700); err != nil {
		t.Fatal(err)
	}
	return root
}

type served struct {
	cfg   Config
	calls atomic.Int64
	done  chan error
}

// start runs Serve with a handler that answers code 7, and waits for its socket.
func start(t *testing.T, root string, idle time.Duration) *served {
	t.Helper()
	s := &served{done: make(chan error, 1)}
	s.cfg = Config{Root: root, Idle: idle, Self: hookwire.Identity{Size: 1, MTime: 2, Inode: 3}, Env: []string{"HOME=/h"},
		Handle: func(_ context.Context, req *hookwire.Request) (hookwire.Answer, bool) {
			s.calls.Add(1)
			return hookwire.Answer{Code: 7, Stdout: append([]byte("judged "), req.Payload...)}, false
		}}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); <-s.done })
	go func() { s.done <- Serve(ctx, s.cfg); close(s.done) }()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if c, err := net.Dial("unix", hookwire.Socket(root)); err == nil {
			c.Close()
			return s
		}
	}
	t.Fatal("the evaluator never listened")
	return nil
}

func request(payload string) *hookwire.Request {
	return &hookwire.Request{Host: "claude", Event: "pre-tool-use", Env: []string{"HOME=/h"}, Binary: hookwire.Identity{Path: "/any/path", Size: 1, MTime: 2, Inode: 3}, Payload: []byte(payload)}
}

func TestServeAnswersAndHoldsTheLock(t *testing.T) {
	root := project(t)
	s := start(t, root, time.Minute)
	a, err := hookwire.Forward(hookwire.Socket(root), request("x"), time.Minute)
	if err != nil || a.Code != 7 || string(a.Stdout) != "judged x" {
		t.Fatalf("Forward = %+v, %v", a, err)
	}
	if err := Serve(context.Background(), s.cfg); !errors.Is(err, ErrRunning) {
		t.Fatalf("a second evaluator: %v, want ErrRunning", err)
	}
	info, err := os.Stat(hookwire.Socket(root))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v (%v), want 0600", info.Mode(), err)
	}
}

// A call the evaluator must not judge comes back as an error, so the
// client judges it itself; a stale binary also stops the evaluator.
func TestServeHandsBack(t *testing.T) {
	root := project(t)
	s := start(t, root, time.Minute)
	other := request("x")
	other.Env = []string{"HOME=/elsewhere"}
	if _, err := hookwire.Forward(hookwire.Socket(root), other, time.Minute); err == nil {
		t.Fatal("a call from another environment was judged")
	}
	stale := request("x")
	stale.Binary.MTime++
	if _, err := hookwire.Forward(hookwire.Socket(root), stale, time.Minute); err == nil {
		t.Fatal("a call naming another binary was judged")
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("Serve after a stale call: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the stale evaluator did not stop")
	}
	if n := s.calls.Load(); n != 0 {
		t.Fatalf("the handler judged %d calls, want 0", n)
	}
	if _, err := os.Stat(hookwire.Socket(root)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the socket outlived its evaluator: %v", err)
	}
}

func TestServeStopsWhenIdle(t *testing.T) {
	root := project(t)
	s := start(t, root, 50*time.Millisecond)
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("an idle evaluator kept running")
	}
}

// A client of another protocol version gets a frame it recognises as such
// and never a verdict.
func TestServeAnswersAnotherVersionWithItsOwn(t *testing.T) {
	root := project(t)
	start(t, root, time.Minute)
	c, err := net.Dial("unix", hookwire.Socket(root))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("TSKH\x00\x00\x00\x63\x00\x00\x00\x02{}")); err != nil {
		t.Fatal(err)
	}
	var a hookwire.Answer
	if err := hookwire.Read(c, &a); err != nil || a.Fallback == "" || a.Code != 0 {
		t.Fatalf("answer to another version: %+v, %v", a, err)
	}
}
