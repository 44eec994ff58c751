package app

import (
	"context"

	"github.com/tausik/tausik/engine"
)

// GateListing is one row of `policy list`: a gate with its effective
// configuration.
type GateListing struct {
	Name        string         `json:"name"`
	Language    string         `json:"language"`
	Severity    string         `json:"severity"`
	Enabled     bool           `json:"enabled"`
	Triggers    []string       `json:"triggers"`
	Phase       string         `json:"phase"`
	Table       string         `json:"table"`
	Source      string         `json:"source"`
	Description string         `json:"description"`
	Prevents    string         `json:"prevents"`
	Facts       []string       `json:"facts"`
	Params      map[string]any `json:"params"`
	// Roots are, for a stack gate, the roots of its stack it judges here.
	Roots []string `json:"roots,omitempty"`
}

// ListGates returns every gate of e with its effective configuration.
func ListGates(e *engine.Engine) []GateListing {
	var rows []GateListing
	for _, gate := range e.Gates() {
		eff, _ := e.Effective(gate.Name)
		rows = append(rows, GateListing{
			Name: gate.Name, Language: gate.Language, Severity: eff.Severity, Enabled: eff.Enabled,
			Triggers: eff.Triggers, Phase: gate.Phase, Table: gate.Table(), Source: gate.Source,
			Description: gate.Description, Prevents: gate.Prevents, Facts: gate.Facts, Params: eff.Params,
		})
	}
	return rows
}

// AddStackRoots sets, on each stack gate of rows, the roots of its stack
// it judges in the project at root (a scan of the tree, which `policy
// list` shows and the MCP tool does not).
func AddStackRoots(ctx context.Context, root string, rows []GateListing) error {
	roots, err := StackRoots(ctx, root)
	if err != nil {
		return err
	}
	for i := range rows {
		rows[i].Roots = roots[rows[i].Name]
	}
	return nil
}
