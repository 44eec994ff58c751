package config

import (
	"fmt"
	"slices"
	"time"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
)

// HookTriggers are the triggers judged while an agent's host waits on a
// hook: tighter limits bound them, and a project's own command gates never
// run at them (commandgate.Set.KeepOffHooks).
var HookTriggers = []string{"pre-write", "post-write"}

// LimitsClass is the class of limits that bounds trigger's evaluations.
func LimitsClass(trigger string) string {
	if slices.Contains(HookTriggers, trigger) {
		return policy.LimitsHook
	}
	return policy.LimitsDefault
}

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

// maxLimit caps every limit's value, so a unit conversion cannot overflow:
// about 24 days in milliseconds, 2 PB in megabytes.
const maxLimit = 1 << 31

// parseLimits checks a config's "limits" object: {hook|default: {key: n}}
// with every n a positive integer. It returns the values by class and key.
func parseLimits(t *File, v any, d *diag.Diagnostics) map[string]map[string]int64 {
	var sec limitsSection
	has, _ := cfgObject{t: t, path: []string{keyLimits}, d: d}.decode(v, &sec, "an object {hook, default}")
	out := map[string]map[string]int64{}
	for _, class := range []string{policy.LimitsHook, policy.LimitsDefault} {
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

// ResolveLimits applies the tiers' limits to the defaults, lowest tier
// first. The project tier may only lower a limit: raising one is refused
// with a warning, as any weakening of a gate is.
func ResolveLimits(tiers []*File) (map[string]policy.Limits, []string) {
	out := policy.DefaultLimits()
	var warnings []string
	for _, t := range tiers {
		if t == nil {
			continue
		}
		for _, class := range sortedKeys(t.limits) {
			for _, k := range sortedKeys(t.limits[class]) {
				v, cur := t.limits[class][k], limitGet(out[class], k)
				if t.tier == TierProject && v > cur {
					warnings = append(warnings, fmt.Sprintf("%s:%d: limits.%s.%s: refused: %d would raise the limit %d; only the user or managed tier may raise a limit",
						t.display, t.doc.Line("limits", class, k), class, k, v, cur))
					continue
				}
				out[class] = limitSet(out[class], k, v)
			}
		}
	}
	return out, warnings
}

// limitGet returns the limit key of l in its config unit.
func limitGet(l policy.Limits, key string) int64 {
	switch key {
	case "eval_timeout_ms":
		return l.EvalTimeout.Milliseconds()
	case "eval_memory_mb":
		return l.EvalMemory >> 20
	}
	return int64(l.CELCost)
}

// limitSet returns l with key set to v in its config unit.
func limitSet(l policy.Limits, key string, v int64) policy.Limits {
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

// CheckCELCosts refuses, at load, a team CEL policy with an expression
// whose estimated cost is over every class's cel_cost: it could never run.
func CheckCELCosts(gates []*gate.Gate, limits map[string]policy.Limits, d *diag.Diagnostics) {
	var most uint64
	for _, l := range limits {
		most = max(most, l.CELCost)
	}
	for _, g := range gates {
		for _, e := range policy.CostsOver(g.Policy, most) {
			d.Add(g.PolicyFile, e.Line, "its estimated cost, at least %d, is over every limit (cel_cost at most %d): it could never run", e.Cost, most)
		}
	}
}
