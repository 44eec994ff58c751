package policy

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Reason codes of an evaluation stopped at one of its Limits.
const (
	ReasonEvalTimeout = "eval_timeout"
	ReasonEvalMemory  = "eval_memory"
	ReasonCELCost     = "cel_cost"
)

// boundError is an evaluation stopped at a bound: the gate is COULD_NOT_RUN
// with code, and msg names the limit.
type boundError struct {
	code string
	msg  string
}

func (e *boundError) Error() string { return e.code + ": " + e.msg }

// BoundReason is err's reason when err is an evaluation stopped at a bound.
func BoundReason(err error) (Reason, bool) {
	var be *boundError
	if errors.As(err, &be) {
		return Reason{Code: be.code, Msg: be.msg}, true
	}
	return Reason{}, false
}

// heapSampleEvery is how often a running evaluation's heap is looked at.
// Allocating at the fastest a policy can (numbers.range: ~400 MB/s on one
// core), the heap overshoots the budget by a few megabytes at most.
const heapSampleEvery = 2 * time.Millisecond

// EvalBounded evaluates p under the limits in ctx (see WithLimits): a
// deadline, and a heap budget that a watcher holds while the evaluation
// runs; a CEL policy also holds its cost limit. An evaluation stopped at a
// bound returns a *boundError; a panic is an error, as in evalSafely.
func EvalBounded(ctx context.Context, p Policy, in *Input) (Result, error) {
	lim := limitsFrom(ctx)
	tctx, cancelTimeout := context.WithTimeoutCause(ctx, lim.EvalTimeout, &boundError{ReasonEvalTimeout,
		fmt.Sprintf("the policy ran past its deadline of %d ms (limits eval_timeout_ms)", lim.EvalTimeout.Milliseconds())})
	defer cancelTimeout()
	mctx, cancel := context.WithCancelCause(tctx)
	defer cancel(nil)
	stop := watchHeap(lim.EvalMemory, func() {
		cancel(&boundError{ReasonEvalMemory, fmt.Sprintf("the policy grew the heap past its budget of %d MB (limits eval_memory_mb)", lim.EvalMemory>>20)})
	})
	res, err := evalSafely(mctx, p, in)
	stop()
	if err != nil {
		if _, ok := BoundReason(err); ok {
			return Result{}, err
		}
		// A policy stopped by its context says so in its own words; the
		// bound that stopped it is the reason, unless the caller cancelled.
		if cause := context.Cause(mctx); ctx.Err() == nil {
			if _, ok := BoundReason(cause); ok {
				return Result{}, cause
			}
		}
	}
	return res, err
}

// The runtime/metrics the heap watcher reads: the heap's objects (live and
// not yet swept) to notice growth cheaply, the live heap after a collection
// to confirm it.
const (
	metricHeapObjects = "/memory/classes/heap/objects:bytes"
	metricHeapLive    = "/gc/heap/live:bytes"
)

// watchHeap calls over, once, when the heap has grown by more than budget
// bytes since the call, and returns a function that stops the watch. The
// growth counts the garbage held at the start as part of the baseline; a
// sample over the budget is confirmed by a collection, so garbage made
// during the evaluation does not count against it, and the next sample to
// confirm must have grown by another eighth of the budget: an evaluation
// that holds near its budget and makes garbage is collected that often, not
// at every sample. The heap is the process's: an evaluation running beside
// another shares its budget.
func watchHeap(budget int64, over func()) (stop func()) {
	samples := []metrics.Sample{{Name: metricHeapObjects}, {Name: metricHeapLive}}
	metrics.Read(samples)
	base := samples[0].Value.Uint64()
	limit := base + uint64(budget) // the live heap past which over is called
	next := limit                  // the heap's size that is confirmed next
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(heapSampleEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			if metrics.Read(samples[:1]); samples[0].Value.Uint64() <= next {
				continue
			}
			runtime.GC()
			metrics.Read(samples[1:])
			live := samples[1].Value.Uint64()
			if live > limit {
				over()
				return
			}
			next = max(limit, live+uint64(budget)/8)
		}
	}()
	return func() { close(done) }
}

// evalSafely turns a panic inside a policy library into an error, so one bad
// policy cannot take down an MCP server or pass by crashing.
func evalSafely(ctx context.Context, p Policy, in *Input) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("policy panicked: %v\n%s", r, debug.Stack())
		}
	}()
	return p.Eval(ctx, in)
}
