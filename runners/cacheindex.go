package runners

import (
	"context"

	"github.com/tausik/tausik/runners/cache"
)

// LoadCacheIndex loads the index of namespace at version under root from
// c's store, or returns nil when c has none: for a runner that reads a
// chosen set of files with Sources.Scan rather than every file of one
// extension (Sources.Gather). Such a runner does not Retain its paths, since
// the next evaluation may ask for others; entries of files that vanished are
// forgotten when asked for.
func LoadCacheIndex(ctx context.Context, c CacheConfig, namespace, version, root string) *cache.Index {
	if c.Store == nil {
		return nil
	}
	return cache.LoadIndex(ctx, c.Store, namespace, version, root)
}
