package gcpace

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// pace reads the collector's target and memory limit.
func pace() (percent int64, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), s[1].Value.Uint64()
}

// fresh resets the package and the runtime to Go's default, before and after t.
func fresh(t *testing.T) {
	reset := func() {
		mu.Lock()
		short, off = false, false
		mu.Unlock()
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}
	reset()
	t.Cleanup(reset)
}

// collectOnce runs collections until Short's sentinel has been seen
// collected once more than before.
func collectOnce(t *testing.T, before int) {
	t.Helper()
	for range 1000 {
		runtime.GC()
		runtime.Gosched()
		mu.Lock()
		n := collected
		mu.Unlock()
		if n > before {
			return
		}
	}
	t.Fatal("the sentinel's cleanup never ran")
}

func seen() int {
	mu.Lock()
	defer mu.Unlock()
	return collected
}

func TestShortIsOffUntilTheFirstCollection(t *testing.T) {
	fresh(t)
	before := seen()
	Short()
	if p, l := pace(); p != -1 || l != Free {
		t.Fatalf("after Short: GOGC %d, limit %d; want off, %d", p, l, Free)
	}
	collectOnce(t, before)
	if p, l := pace(); p != Percent || l != math.MaxInt64 {
		t.Fatalf("after the first collection: GOGC %d, limit %d; want %d, none", p, l, Percent)
	}
}

func TestServerOutlastsShortsFirstCollection(t *testing.T) {
	fresh(t)
	before := seen()
	Short()
	Server()
	if p, l := pace(); p != 100 || l != math.MaxInt64 {
		t.Fatalf("after Server: GOGC %d, limit %d; want 100, none", p, l)
	}
	collectOnce(t, before)
	if p, l := pace(); p != 100 || l != math.MaxInt64 {
		t.Fatalf("after Short's first collection: GOGC %d, limit %d; want Server's 100, none", p, l)
	}
}

func TestServerWithoutShortKeepsTheUsersPace(t *testing.T) {
	fresh(t)
	debug.SetGCPercent(150)
	debug.SetMemoryLimit(64 << 20)
	Server()
	if p, l := pace(); p != 150 || l != 64<<20 {
		t.Fatalf("GOGC %d, limit %d; want the user's 150, %d", p, l, 64<<20)
	}
}
