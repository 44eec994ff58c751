package hosts

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/tausik/tausik/internal/warmgo"
)

// Deadline is how long a hook may take before it answers without a verdict:
// well inside the 30 s timeout `tausik init` gives the hosts that read one,
// so the host hears a refusal instead of timing the hook out, which most
// hosts treat as "let the call through".
const Deadline = 20 * time.Second

// RunWithin is Run bounded by d. When d passes first, a pre-tool-use hook
// refuses the call in the host's protocol, and a post-tool-use hook tells the
// host, as it tells a change outside the scope, that the tree could not be
// checked. Whatever Run writes after that is dropped, so the host reads
// exactly one answer; Run keeps going in the background until the process
// exits.
func RunWithin(ctx context.Context, h *Host, phase Phase, env Env, d time.Duration) int {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	out := &gate{w: env.Stdout}
	errw := &gate{w: env.Stderr}
	inner := env
	inner.Stdout, inner.Stderr = out, errw
	done := make(chan int, 1)
	warmgo.Go(func() { done <- Run(ctx, h, phase, inner) })
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case code := <-done:
		return code
	case <-timer.C:
	}
	out.close()
	errw.close()
	if phase == Post {
		return h.answer.postBlock(fmt.Sprintf("the work tree could not be checked within %s; what this call changed is judged again at task done and commit", d), env)
	}
	return h.answer.deny(fmt.Sprintf("no verdict within %s; a call tausik cannot judge in time is refused", d), env)
}

// gate is a writer that can be shut: after close, writes are dropped (and
// reported as written, so the writer does not turn them into errors).
type gate struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (g *gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return len(p), nil
	}
	return g.w.Write(p)
}

func (g *gate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}
