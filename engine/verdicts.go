package engine

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/verdictcache"
)

// reuse returns, for each gate of selected, its input digest given the
// namespace digests parts, and the verdicts the log holds for the digests
// the verdict cache knows, with Reused naming their decision. A gate's
// reusability is not asked here, which would compile a lazy policy: only
// reusable verdicts are ever indexed, under a digest that covers the
// policy's source. Without a cache there are neither.
func (e *Engine) reuse(ctx context.Context, selected []*gate.Gate, params func(*gate.Gate) map[string]any, parts map[string]string) (map[string]string, map[string]Verdict) {
	keys := map[string]string{}
	hits := map[string]Verdict{}
	if e.verdicts == nil {
		return keys, hits
	}
	byName := map[string]*gate.Gate{}
	for _, g := range selected {
		if k, err := verdictcache.Key(g, params(g), parts); err == nil {
			keys[g.Name], byName[g.Name] = k, g
		}
	}
	logged := map[string]*Decision{}
	for name, id := range e.verdicts.Lookup(ctx, keys) {
		d, ok := logged[id]
		if !ok {
			d = e.loggedDecision(ctx, id)
			logged[id] = d
		}
		if v, ok := recorded(d, byName[name], keys[name]); ok {
			v.Reused = id
			hits[name] = v
		}
	}
	return keys, hits
}

// loggedDecisions remembers, by ID, decisions read back from the log: a
// logged decision never changes, and a resident evaluator reuses the
// verdicts of the same few on every call. Safe for concurrent use; bounded.
type loggedDecisions struct {
	mu sync.Mutex
	m  map[string]*Decision
}

// maxLoggedDecisions bounds loggedDecisions.
const maxLoggedDecisions = 256

// loggedDecision reads a logged decision in full; nil when it is not there.
func (e *Engine) loggedDecision(ctx context.Context, id string) *Decision {
	e.logged.mu.Lock()
	d, ok := e.logged.m[id]
	e.logged.mu.Unlock()
	if ok {
		return d
	}
	entry, err := e.store.GetDecision(ctx, id)
	if err != nil || entry.ID != id {
		return nil
	}
	d = &Decision{}
	if json.Unmarshal(entry.Body, d) != nil || d.ID != id {
		return nil
	}
	e.logged.mu.Lock()
	if len(e.logged.m) >= maxLoggedDecisions || e.logged.m == nil {
		e.logged.m = map[string]*Decision{}
	}
	e.logged.m[id] = d
	e.logged.mu.Unlock()
	return d
}

// recorded returns d's verdict for g when it was evaluated (not itself
// reused) from the input digest key with g's policy.
func recorded(d *Decision, g *gate.Gate, key string) (Verdict, bool) {
	if d == nil {
		return Verdict{}, false
	}
	for _, v := range d.Gates {
		if v.Name == g.Name && v.InputDigest == key && v.PolicyDigest == g.PolicyDigest && v.Reused == "" {
			// The caller settles the copy's violations: d stays as logged.
			v.Reasons, v.Violations = slices.Clone(v.Reasons), slices.Clone(v.Violations)
			return v, true
		}
	}
	return Verdict{}, false
}
