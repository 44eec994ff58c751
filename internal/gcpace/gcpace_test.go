package gcpace

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// current reads the collector's target and memory limit.
func current() (percent int64, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), s[1].Value.Uint64()
}

// fresh puts the package and the runtime back to Go's default, before and
// after t.
func fresh(t *testing.T) {
	reset := func() {
		mu.Lock()
		pace = goDefault
		mu.Unlock()
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}
	reset()
	t.Cleanup(reset)
}

// short calls Short and returns which call it was.
func short() int {
	Short()
	mu.Lock()
	defer mu.Unlock()
	return shorts
}

// collectUntil runs collections until the first collection of Short's call
// has run (an earlier call's, left over, does not count).
func collectUntil(t *testing.T, call int) {
	t.Helper()
	for range 1000 {
		runtime.GC()
		runtime.Gosched()
		mu.Lock()
		done := seen >= call
		mu.Unlock()
		if done {
			return
		}
	}
	t.Fatal("the sentinel's cleanup never ran")
}

// want fails t unless the collector's target and limit are percent and limit.
func want(t *testing.T, when string, percent int64, limit uint64) {
	t.Helper()
	if p, l := current(); p != percent || l != limit {
		t.Fatalf("%s: GOGC %d, limit %d; want %d, %d", when, p, l, percent, limit)
	}
}

func TestShortIsOffUntilTheFirstCollection(t *testing.T) {
	fresh(t)
	call := short()
	want(t, "after Short", -1, Free)
	collectUntil(t, call)
	want(t, "after the first collection", Percent, math.MaxInt64)
}

func TestServerOutlastsShortsFirstCollection(t *testing.T) {
	fresh(t)
	call := short()
	Server()
	want(t, "after Server", 100, math.MaxInt64)
	collectUntil(t, call)
	want(t, "after Short's first collection", 100, math.MaxInt64)
}

func TestServerAfterShortsFirstCollection(t *testing.T) {
	fresh(t)
	collectUntil(t, short())
	want(t, "after the first collection", Percent, math.MaxInt64)
	Server()
	want(t, "after Server", 100, math.MaxInt64)
}

func TestAnEarlierShortsCollectionLeavesTheLatestOff(t *testing.T) {
	fresh(t)
	mu.Lock()
	pace = off
	shorts++
	latest := shorts
	mu.Unlock()
	debug.SetGCPercent(-1)
	firstCollection(latest - 1)
	want(t, "after an earlier call's collection", -1, math.MaxInt64)
}

func TestServerWithoutShortKeepsTheUsersPace(t *testing.T) {
	fresh(t)
	debug.SetGCPercent(150)
	debug.SetMemoryLimit(64 << 20)
	Server()
	want(t, "after Server", 150, 64<<20)
}

// Resident replaces Short's pace, and its first collection does not undo
// it; a user's GOGC or GOMEMLIMIT stands.
func TestResidentPace(t *testing.T) {
	fresh(t)
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	call := short()
	Resident()
	collectUntil(t, call)
	want(t, "after Short, Resident and a collection", ResidentPercent, ResidentLimit)
	fresh(t)
	t.Setenv("GOGC", "150")
	Resident()
	want(t, "with GOGC set", 100, math.MaxInt64)
}
