package runners

import (
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/store"
)

// FactsTask converts a stored task to its facts shape.
func FactsTask(t store.Task) facts.Task {
	out := facts.Task{
		Slug: t.Slug, Goal: t.Goal, ScopePaths: t.Scope, Tier: string(t.Tier), Complexity: string(t.Complexity),
		Delegated: t.Delegated, Specs: NonNil(t.Specs), Adapts: NonNil(t.Adapts), Files: NonNil(t.Files),
		Status: string(t.Status), StartedAt: FormatTime(t.StartedAt), DoneAt: FormatTime(t.DoneAt),
	}
	if t.Scope != nil {
		out.ScopePaths = append([]string{}, t.Scope...)
	}
	if t.CallBudget != nil {
		b := int64(*t.CallBudget)
		out.CallBudget = &b
	}
	return out
}

// FormatTime renders t as RFC 3339 UTC, "" for the zero time.
func FormatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// NonNil is s, or an empty list for nil (facts never hold null lists).
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return append([]string{}, s...)
}
