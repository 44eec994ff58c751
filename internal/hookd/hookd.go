// Package hookd is the resident evaluator's server: it holds a project's
// hook socket (.tausik/hook.sock, reachable by its owner only), answers
// each connection of the thin hook client with one hookwire.Answer, and
// exits after an idle time, when the binary it runs was replaced, or when
// its context ends. What a call means is the handler's business; hookd
// only guarantees that a call it does not answer makes the client judge the
// call itself, so a missing, stale or dying evaluator never allows one.
package hookd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tausik/tausik/internal/warmgo"

	"github.com/tausik/tausik/internal/hookwire"
)

// ErrRunning is returned by Serve when another evaluator already holds the
// project's lock.
var ErrRunning = errors.New("an evaluator already serves this project")

// Handler judges one forwarded call. stale asks the server to stop after
// answering (the binary or its environment is no longer the one it runs).
type Handler func(ctx context.Context, req *hookwire.Request) (a hookwire.Answer, stale bool)

// Config is what Serve runs.
type Config struct {
	// Root is the project directory; its state directory must exist.
	Root string
	// Idle is how long the server waits for a call before it exits.
	Idle time.Duration
	// Self identifies the binary serving: a request naming another one is
	// answered with a fallback, and the server stops.
	Self hookwire.Identity
	// Env is the server's environment: a request whose envKey
	// differs is answered with a fallback.
	Env []string
	// Handle judges a call.
	Handle Handler
	// Replaced, when set, is asked about once a second: true stops the
	// server (the binary on disk is no longer the one running, and clients
	// that check which binary serves them would only ever hand it back).
	Replaced func() bool
	// Log receives one line per refused connection and at exit.
	Log io.Writer
}

// readTimeout bounds how long a connection may take to send its request.
const readTimeout = 10 * time.Second

// Serve listens on the project's socket until ctx ends, the idle time
// passes with no call, or a call finds the server stale. It returns
// ErrRunning at once when another evaluator holds the lock.
func Serve(ctx context.Context, c Config) error {
	dir := filepath.Join(c.Root, ".tausik")
	unlock, err := lock(filepath.Join(dir, hookwire.LockName))
	if err != nil {
		return err
	}
	defer unlock()
	sock := hookwire.Socket(c.Root)
	if !hookwire.Usable(sock) {
		return fmt.Errorf("socket path %s is too long for a Unix socket", sock)
	}
	// The lock proves no evaluator runs: a socket left here is a dead one's.
	if err := os.Remove(sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	ln, err := listen(sock)
	if err != nil {
		return err
	}
	s := &server{c: c, ln: ln, key: envKey(c.Env), slots: make(chan struct{}, max(2, runtime.NumCPU()))}
	s.touch()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.watch(ctx)
	s.accept(ctx)
	s.calls.Wait()
	return nil
}

type server struct {
	c     Config
	ln    net.Listener
	key   string
	calls sync.WaitGroup
	busy  atomic.Int64 // calls in flight
	last  atomic.Int64 // unix nanoseconds of the last call
	once  sync.Once
	// slots bounds the calls judged at once: a burst of calls queues here
	// instead of starving every judgement of the CPU (a gate's deadline
	// starts when its judgement does).
	slots chan struct{}
}

func (s *server) touch() { s.last.Store(time.Now().UnixNano()) }

// stop closes the listener once; accept then returns.
func (s *server) stop(why string) {
	s.once.Do(func() {
		if s.c.Log != nil {
			fmt.Fprintf(s.c.Log, "tausik hook serve: %s: stopping\n", why)
		}
		s.ln.Close()
	})
}

// watch stops the server when ctx ends or it has been idle long enough.
func (s *server) watch(ctx context.Context) {
	tick := time.NewTicker(min(s.c.Idle/4+time.Millisecond, time.Second))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			s.stop("cancelled")
			return
		case <-tick.C:
			if s.c.Replaced != nil && s.c.Replaced() {
				s.stop("the binary on disk was replaced")
				return
			}
			idle := time.Since(time.Unix(0, s.last.Load()))
			if s.busy.Load() == 0 && idle >= s.c.Idle {
				s.stop(fmt.Sprintf("idle for %s", idle.Round(time.Second)))
				return
			}
		}
	}
}

func (s *server) accept(ctx context.Context) {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.busy.Add(1)
		s.calls.Add(1)
		s.touch()
		warmgo.Go(func() {
			defer s.calls.Done()
			defer s.busy.Add(-1)
			defer s.touch()
			defer conn.Close()
			s.serve(ctx, conn)
		})
	}
}

// serve answers one connection.
func (s *server) serve(ctx context.Context, conn net.Conn) {
	if err := samePeer(conn); err != nil {
		if s.c.Log != nil {
			fmt.Fprintf(s.c.Log, "tausik hook serve: refused a connection: %v\n", err)
		}
		return
	}
	_ = conn.SetReadDeadline(time.Now().Add(readTimeout))
	var req hookwire.Request
	a, stale := hookwire.Answer{}, false
	switch err := hookwire.Read(conn, &req); {
	case err != nil:
		a.Fallback = err.Error()
	case !req.Binary.Same(s.c.Self):
		a.Fallback, stale = "the tausik binary changed since this evaluator started", true
	case envKey(req.Env) != s.key:
		a.Fallback = "the call's environment differs from the evaluator's"
	default:
		_ = conn.SetReadDeadline(time.Time{})
		s.slots <- struct{}{}
		a, stale = s.c.Handle(ctx, &req)
		<-s.slots
	}
	_ = conn.SetWriteDeadline(time.Now().Add(readTimeout))
	_ = hookwire.Write(conn, a)
	if stale {
		s.stop(a.Fallback)
	}
}
