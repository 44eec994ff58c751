package documents

import (
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/sourcetest"
)

// BenchmarkGather10k gathers the documents namespace over sourcetest.Tree10k,
// cold and warm (see sourcetest.BenchGather10k).
func BenchmarkGather10k(b *testing.B) {
	sourcetest.BenchGather10k(b, map[string][]string{Namespace: {"conf/**"}},
		func(opts ...runners.SourceOption) runners.Runner { return New(opts...) },
		func(ns facts.Namespace) int { return len(ns.Data.(facts.Documents).Files) })
}
