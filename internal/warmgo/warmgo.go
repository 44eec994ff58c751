// Package warmgo runs functions on goroutines that outlive them: a
// resident evaluator judges each call on goroutines whose stacks an earlier
// call already grew, instead of growing a fresh 8 KiB stack through OPA's
// and SQLite's deep calls by copying it again and again (a tenth of a warm
// call's CPU). A goroutine left idle for Keep exits.
package warmgo

import "time"

// Keep is how long an idle goroutine waits for work before it exits.
const Keep = 30 * time.Second

// work hands a function to a goroutine waiting for one.
var work = make(chan func())

// Go runs f on an idle goroutine, or on a new one when none is idle.
func Go(f func()) {
	select {
	case work <- f:
	default:
		go worker(f, Keep)
	}
}

// worker runs f, then each function it is handed, until it has waited keep
// for one.
func worker(f func(), keep time.Duration) {
	t := time.NewTimer(keep)
	defer t.Stop()
	for {
		f()
		f = nil // what it holds is not kept alive while the worker waits
		t.Reset(keep)
		select {
		case f = <-work:
		case <-t.C:
			return
		}
	}
}
