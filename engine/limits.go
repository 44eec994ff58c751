package engine

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tausik/tausik/engine/diag"
)

// Limits bound one gate's policy evaluation, so that a policy cannot hang a
// hook or run the process out of memory: past any of them the gate is
// COULD_NOT_RUN with the bound's reason code, and the other gates are judged
// as usual (docs/bounds.md).
type Limits struct {
	// EvalTimeout is the deadline of one gate's evaluation (eval_timeout_ms;
	// reason eval_timeout).
	EvalTimeout time.Duration
	// EvalMemory is how far the heap may grow during one gate's evaluation,
	// in bytes (eval_memory_mb; reason eval_memory).
	EvalMemory int64
	// CELCost caps a CEL policy's cost in cel-go's units, over all of its
	// expressions (cel_cost; reason cel_cost).
	CELCost uint64
}

// The limit classes of a config's "limits" object: hook for the triggers an
// agent's hook waits on, default for every other.
const (
	LimitsHook    = "hook"
	LimitsDefault = "default"
)

// hookTriggers are the triggers judged while an agent's host waits on a
// hook: tighter limits bound them, and a project's own command gates never
// run at them (trust.go).
var hookTriggers = []string{"pre-write", "post-write"}

// limitsSection is a config's "limits" object.
type limitsSection struct {
	Hook    any `cfg:"hook"`
	Default any `cfg:"default"`
}

// limitValues is one class of limits as a config sets them, in the order
// docs list them.
type limitValues struct {
	EvalTimeoutMS int64 `cfg:"eval_timeout_ms"`
	EvalMemoryMB  int64 `cfg:"eval_memory_mb"`
	CELCost       int64 `cfg:"cel_cost"`
}

// DefaultLimits are the limits no tier changed. A hook is answered within
// a host's timeout (30 s at the tightest host) with every gate of the
// trigger run: 2 s and 256 MB a gate. CI and a developer's commands judge
// the whole tree and wait: 30 s and 1 GB.
func DefaultLimits() map[string]Limits {
	return map[string]Limits{
		LimitsHook:    {EvalTimeout: 2 * time.Second, EvalMemory: 256 << 20, CELCost: 5_000_000},
		LimitsDefault: {EvalTimeout: 30 * time.Second, EvalMemory: 1 << 30, CELCost: 50_000_000},
	}
}

// limitsClass is the class of limits that bounds trigger's evaluations.
func limitsClass(trigger string) string {
	if slices.Contains(hookTriggers, trigger) {
		return LimitsHook
	}
	return LimitsDefault
}

// get returns the limit key of l in its config unit.
func (l Limits) get(key string) int64 {
	switch key {
	case "eval_timeout_ms":
		return l.EvalTimeout.Milliseconds()
	case "eval_memory_mb":
		return l.EvalMemory >> 20
	}
	return int64(l.CELCost)
}

// set returns l with key set to v in its config unit.
func (l Limits) set(key string, v int64) Limits {
	switch key {
	case "eval_timeout_ms":
		l.EvalTimeout = time.Duration(v) * time.Millisecond
	case "eval_memory_mb":
		l.EvalMemory = v << 20
	default:
		l.CELCost = uint64(v)
	}
	return l
}

// maxLimit caps every limit's value, so a unit conversion cannot overflow:
// about 24 days in milliseconds, 2 PB in megabytes.
const maxLimit = 1 << 31

// parseLimits checks a config's "limits" object: {hook|default: {key: n}}
// with every n a positive integer. It returns the values by class and key.
func parseLimits(t *tierFile, v any, d *Diagnostics) map[string]map[string]int64 {
	var sec limitsSection
	has, _ := cfgObject{t: t, path: []string{keyLimits}, d: d}.decode(v, &sec, "an object {hook, default}")
	out := map[string]map[string]int64{}
	for _, class := range []string{LimitsHook, LimitsDefault} {
		if _, seen := has[class]; !seen {
			continue
		}
		obj := cfgObject{t: t, path: []string{keyLimits, class}, d: d}
		var lv limitValues
		set, _ := obj.decode(v.(map[string]any)[class], &lv, "an object")
		if set == nil {
			continue
		}
		out[class] = map[string]int64{}
		for i, n := range []int64{lv.EvalTimeoutMS, lv.EvalMemoryMB, lv.CELCost} {
			k := []string{"eval_timeout_ms", "eval_memory_mb", "cel_cost"}[i]
			if !set[k] {
				continue
			}
			if n < 1 || n > maxLimit {
				obj.bad(k, "want an integer from 1 to %d, got %s", maxLimit, diag.Describe(n))
				continue
			}
			out[class][k] = n
		}
	}
	return out
}

// resolveLimits applies the tiers' limits to the defaults, lowest tier
// first. The project tier may only lower a limit: raising one is refused
// with a warning, as any weakening of a gate is.
func resolveLimits(tiers []*tierFile) (map[string]Limits, []string) {
	out := DefaultLimits()
	var warnings []string
	for _, t := range tiers {
		if t == nil {
			continue
		}
		for _, class := range sortedKeys(t.limits) {
			for _, k := range sortedKeys(t.limits[class]) {
				v, cur := t.limits[class][k], out[class].get(k)
				if t.tier == TierProject && v > cur {
					warnings = append(warnings, fmt.Sprintf("%s:%d: limits.%s.%s: refused: %d would raise the limit %d; only the user or managed tier may raise a limit",
						t.display, t.doc.line("limits", class, k), class, k, v, cur))
					continue
				}
				out[class] = out[class].set(k, v)
			}
		}
	}
	return out, warnings
}

// Limits returns the limits that bound each gate's evaluation for trigger,
// after every tier was applied.
func (e *Engine) Limits(trigger string) Limits {
	class := limitsClass(trigger)
	if l, ok := e.limits[class]; ok {
		return l
	}
	return DefaultLimits()[class]
}

// limitsKey carries an evaluation's Limits in its context.
type limitsKey struct{}

// withLimits returns ctx carrying the limits of one evaluation.
func withLimits(ctx context.Context, l Limits) context.Context {
	return context.WithValue(ctx, limitsKey{}, l)
}

// limitsFrom returns the limits ctx carries, else the default class's
// (a fixture run, which has no config tiers).
func limitsFrom(ctx context.Context) Limits {
	if l, ok := ctx.Value(limitsKey{}).(Limits); ok {
		return l
	}
	return DefaultLimits()[LimitsDefault]
}
