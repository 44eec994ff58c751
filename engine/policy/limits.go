package policy

import (
	"context"
	"time"
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

// limitsKey carries an evaluation's Limits in its context.
type limitsKey struct{}

// WithLimits returns ctx carrying the limits of one evaluation.
func WithLimits(ctx context.Context, l Limits) context.Context {
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
