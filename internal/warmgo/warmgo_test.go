package warmgo

import (
	"runtime"
	"sync"
	"testing"
)

// TestGoReusesAnIdleGoroutine: every function runs, and a function handed
// over while a worker waits runs on that worker, not on a new goroutine.
func TestGoReusesAnIdleGoroutine(t *testing.T) {
	var wg sync.WaitGroup
	ran := make([]bool, 50)
	for i := range ran {
		wg.Add(1)
		Go(func() { ran[i] = true; wg.Done() })
		wg.Wait()
	}
	for i, r := range ran {
		if !r {
			t.Fatalf("function %d did not run", i)
		}
	}
	before := runtime.NumGoroutine()
	for range 20 {
		done := make(chan struct{})
		handed := false
		for !handed {
			// A handoff needs the worker back at its receive.
			select {
			case work <- func() { close(done) }:
				handed = true
			default:
				runtime.Gosched()
			}
		}
		<-done
	}
	if after := runtime.NumGoroutine(); after > before {
		t.Errorf("%d goroutines after 20 handoffs, %d before", after, before)
	}
}

// TestWorkerExitsWhenIdle: a worker handed nothing for its keep time
// returns.
func TestWorkerExitsWhenIdle(t *testing.T) {
	done := make(chan struct{})
	go func() {
		worker(func() {}, 1)
		close(done)
	}()
	<-done
}
