package app

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/policytest"
)

// Explanation is everything a person or an agent needs to understand one
// gate: what it decides, what it reads, how it is configured and by whom,
// and the fixtures that prove it red and green. `tausik policy explain` and
// the MCP tool policy_explain both return it.
type Explanation struct {
	GateConfig
	Description string `json:"description"`
	Prevents    string `json:"prevents"`
	Language    string `json:"language"`
	// Source is "builtin" or the team directory (tausik/policies); Dir is
	// where the bundle lives ("policies/filesize",
	// "tausik/policies/no_print").
	Source string   `json:"source"`
	Dir    string   `json:"dir"`
	Phase  string   `json:"phase"`
	Facts  []string `json:"facts"`
	// Table is the closed-list table the gate claims (COVERED, EXCUSED).
	Table string `json:"table"`
	// Fixtures are the fixtures' names; Cases what each expects.
	Fixtures []string                 `json:"fixtures"`
	Cases    []policytest.CaseSummary `json:"cases"`
}

// Explain describes the gate called name. An unknown name is an
// diag.ErrUsage naming the closest known gate and every known one.
func Explain(eng *engine.Engine, name string) (*Explanation, error) {
	g, ok := eng.Gate(name)
	if !ok {
		return nil, unknownGate(eng, name)
	}
	return &Explanation{
		GateConfig:  gateConfig(eng, g),
		Description: g.Description, Prevents: g.Prevents, Language: g.Language,
		Source: g.Source, Dir: g.Dir, Phase: g.Phase, Facts: nonNil(g.Facts), Table: g.Table(),
		Fixtures: nonNil(g.Fixtures), Cases: policytest.Summaries(g),
	}, nil
}

// unknownGate is the error for a gate name the engine does not know.
func unknownGate(eng *engine.Engine, name string) error {
	known := []string{}
	for _, g := range eng.Gates() {
		known = append(known, g.Name)
	}
	slices.Sort(known)
	hint := ""
	if c := closest(name, known); c != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", c)
	}
	return fmt.Errorf("%w: no gate named %q%s; known gates: %s", diag.ErrUsage, name, hint, strings.Join(known, ", "))
}

// closest returns the known name nearest to name by edit distance, when it
// is near enough to be a typo (at most a third of the name's length, and
// at least 1) or one is the start of the other (three bytes or more), else
// "".
func closest(name string, known []string) string {
	best, bestD := "", max(1, len(name)/3)+1
	for _, k := range known {
		d := editDistance(name, k)
		if len(name) >= 3 && (strings.HasPrefix(k, name) || strings.HasPrefix(name, k)) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
