package policytest

import (
	"context"
	"fmt"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/gate"
)

// CaseVerdict is the verdict one fixture case produced.
type CaseVerdict struct {
	Gate, Case string
	Verdict    engine.Verdict
}

// Verdicts evaluates every fixture case of every COVERED gate of e, as
// `policy test` does, and returns the verdicts themselves rather than
// whether they met their expectation: output formats are checked over
// them. A case whose tool is missing still yields its verdict
// (COULD_NOT_RUN); a case that cannot be loaded or read is an error.
func Verdicts(ctx context.Context, e *engine.Engine) ([]CaseVerdict, error) {
	var out []CaseVerdict
	for _, g := range e.Gates() {
		if g.Table() != gate.TableCovered {
			continue
		}
		for _, name := range g.Fixtures {
			c, d := loadCase(g, name)
			if d != nil {
				return nil, d
			}
			v, err := evalCase(ctx, e, g, c)
			if err != nil {
				return nil, fmt.Errorf("%s fixture %s: %w", g.Name, name, err)
			}
			out = append(out, CaseVerdict{Gate: g.Name, Case: name, Verdict: v})
		}
	}
	return out, nil
}
