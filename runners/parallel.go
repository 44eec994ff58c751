package runners

import (
	"context"
	"sync"
	"sync/atomic"
)

// Parallel runs n jobs, indexes 0..n-1, on up to workers goroutines, for
// runners that read many files. Each goroutine calls worker once and runs
// its jobs with the function it returns, so per-goroutine scratch (read
// buffers, a scanner) lives in that closure and is never shared. Once ctx is
// done no further job starts; Parallel returns after every started job has
// finished, with ctx's error, so callers never see a short result as complete.
func Parallel(ctx context.Context, n, workers int, worker func() func(i int)) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			do := worker()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				do(i)
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}
