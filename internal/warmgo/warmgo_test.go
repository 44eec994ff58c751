package warmgo

import (
	"bytes"
	"runtime"
	"testing"
)

// goroutineID is the calling goroutine's number, from its stack header.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := bytes.Cut(bytes.TrimPrefix(buf, []byte("goroutine ")), []byte(" "))
	return string(id)
}

// TestGoReusesAnIdleGoroutine: every function runs, and functions handed
// over one after another run on the same few goroutines, not each on a new
// one.
func TestGoReusesAnIdleGoroutine(t *testing.T) {
	const n = 50
	seen := map[string]int{}
	for range n {
		done := make(chan string)
		Go(func() { done <- goroutineID() })
		seen[<-done]++
		for range 20 {
			runtime.Gosched() // the worker gets back to waiting for work
		}
	}
	total := 0
	for _, c := range seen {
		total += c
	}
	if total != n {
		t.Fatalf("%d functions ran, want %d", total, n)
	}
	if len(seen) > n/2 {
		t.Errorf("%d functions ran on %d goroutines: idle ones were not reused", n, len(seen))
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
