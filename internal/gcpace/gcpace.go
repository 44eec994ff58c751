// Package gcpace sets the garbage collector's pace for the two kinds of
// tausik process: a short run (a command, a hook), which should finish
// before it collects at all, and a server, which lives as long as its host
// and keeps Go's default.
package gcpace

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
)

// Free is how far a short run's heap may grow before its first collection.
// An evaluation on the Python standard library peaks at ~110 MB and one on
// GOROOT/src cold at ~150 MB without collecting (docs/performance-warm.md);
// a run that needs more collects once at Free and is paced by Percent from
// then on.
const Free = 256 << 20

// Percent is a short run's collector target once its heap has passed Free:
// a collection each time the heap grows fivefold.
const Percent = 400

var (
	mu        sync.Mutex
	short     bool // Short's pace is in force (Server has not replaced it)
	off       bool // and its first collection has not run yet
	collected int  // first collections seen, for the tests
)

// sentinel is what Short watches: it holds a pointer, so the allocator gives
// it an object of its own, whose cleanup runs after the first collection.
type sentinel struct{ _ *byte }

// Short turns the collector off until the heap reaches Free, then back on at
// Percent: most runs end before the first collection, and one that does not
// is paced as before rather than collected over and over at the limit.
func Short() {
	mu.Lock()
	defer mu.Unlock()
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(Free)
	short, off = true, true
	runtime.AddCleanup(new(sentinel), func(struct{}) { firstCollection() }, struct{}{})
}

// firstCollection paces the collector by Percent with no memory limit, unless
// Server has replaced Short's pace meanwhile.
func firstCollection() {
	mu.Lock()
	defer mu.Unlock()
	collected++
	if short && off {
		debug.SetGCPercent(Percent)
		debug.SetMemoryLimit(math.MaxInt64)
		off = false
	}
}

// Server replaces Short's pace, if it was set, with Go's default for good
// (GOGC 100, no memory limit): a process that serves for hours keeps its
// heap within twice what it holds. Without Short it changes nothing, so the
// GOGC and GOMEMLIMIT a user set stand.
func Server() {
	mu.Lock()
	defer mu.Unlock()
	if short {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		short, off = false, false
	}
}
