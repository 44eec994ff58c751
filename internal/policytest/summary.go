package policytest

import (
	"github.com/tausik/tausik/engine/gate"
)

// CaseSummary is what a fixture claims, without running it: for `tausik
// policy explain`, which shows how a gate is proved red and green.
type CaseSummary struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Kind is "facts" (a facts.json), "tree" (a small project the runners
	// scan) or "mutation" (a base case plus one change).
	Kind string `json:"kind"`
	Base string `json:"base,omitempty"`
	// Outcome is the outcome the case expects.
	Outcome string `json:"outcome"`
	// Error is why the case could not be read ("" when it could); `policy
	// test` fails on it.
	Error string `json:"error,omitempty"`
}

// Summaries reads every fixture of g, in name order, and says what each
// expects. A fixture that does not load is listed with its error.
func Summaries(g *gate.Gate) []CaseSummary {
	out := make([]CaseSummary, 0, len(g.Fixtures))
	for _, name := range g.Fixtures {
		c, d := loadCase(g, name)
		if c == nil {
			s := CaseSummary{Name: name}
			if d != nil {
				s.Error = d.Error()
			}
			out = append(out, s)
			continue
		}
		s := CaseSummary{Name: name, Description: c.Description, Base: c.Base, Outcome: c.Expect.Outcome, Kind: "facts"}
		switch {
		case c.Base != "":
			s.Kind = "mutation"
		case c.tree != nil:
			s.Kind = "tree"
		}
		out = append(out, s)
	}
	return out
}
