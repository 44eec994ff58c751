// Package gcpace sets the garbage collector's pace for the three kinds of
// tausik process: a short run (a command, a hook), which should finish
// before it collects at all; a server, which lives as long as its host
// and keeps Go's default; and the resident hook evaluator, which answers
// short calls for hours and collects seldom, within a memory limit.
package gcpace

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// Free is the memory limit under which a short run does not collect: all
// of Go's memory, the heap with stacks and the runtime's own. An evaluation
// on the Python standard library peaks at ~130 MB of RSS and one on
// GOROOT/src cold at ~150 MB (CHANGELOG.md, the warm path of class_surface); a run that needs
// more is collected at Free until Short's switch to Percent has run.
const Free = 256 << 20

// Percent is a short run's collector target once its first collection under
// Short has run: a collection each time the heap grows fivefold.
const Percent = 400

// The pace Short set, if any.
const (
	goDefault = iota // Short never ran, or Server replaced its pace
	off              // the collector is off under Free
	paced            // Short's first collection switched it to Percent
	resident         // Resident's
)

var (
	mu     sync.Mutex
	pace   = goDefault
	shorts int // calls of Short; a first collection acts for the latest only
	seen   int // the latest call of Short whose first collection has run
)

// sentinel is what Short watches: it holds a pointer, so the allocator gives
// it an object of its own, whose cleanup runs after the first collection.
type sentinel struct{ _ *byte }

// Short turns the collector off under the memory limit Free, and back on at
// Percent, with no limit, once the first collection's cleanup has run (after
// one or two collections at the limit): most runs end before the first
// collection, and one that does not is paced as before rather than
// collected over and over at the limit. Package initialisation may already
// have collected once, at Go's default 4 MB, before main calls Short.
func Short() {
	mu.Lock()
	defer mu.Unlock()
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(Free)
	shorts++
	pace = off
	runtime.AddCleanup(new(sentinel), firstCollection, shorts)
}

// firstCollection paces the collector by Percent with no memory limit when
// call is the latest Short and its pace still holds (Server has not
// replaced it).
func firstCollection(call int) {
	mu.Lock()
	defer mu.Unlock()
	seen = max(seen, call)
	if call == shorts && pace == off {
		debug.SetGCPercent(Percent)
		debug.SetMemoryLimit(math.MaxInt64)
		pace = paced
	}
}

// Server replaces Short's pace, if it was set, with Go's default for good
// (GOGC 100, no memory limit): a process that serves for hours keeps its
// heap within twice what it holds. Without Short it changes nothing, so the
// GOGC and GOMEMLIMIT a user set stand.
func Server() {
	mu.Lock()
	defer mu.Unlock()
	if pace != goDefault {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
		pace = goDefault
	}
}

// ResidentPercent and ResidentLimit are the resident evaluator's pace: a
// collection each time the heap grows fivefold, and more often only as the
// process nears ResidentLimit. Its live heap (compiled policies, the store,
// the config watch) is ~5 MB and a warm call allocates ~1 MB, so it
// collects every ~20 calls instead of every ~5 at Go's default, keeps a
// ~25 MB heap, and the limit bounds what a project's larger policies or a
// burst of calls may grow it to.
const (
	ResidentPercent = 400
	ResidentLimit   = 256 << 20
)

// Resident paces the collector for the resident hook evaluator, replacing
// Short's pace, unless the user set GOGC or GOMEMLIMIT, which then stand.
func Resident() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	debug.SetGCPercent(ResidentPercent)
	debug.SetMemoryLimit(ResidentLimit)
	pace = resident
}
