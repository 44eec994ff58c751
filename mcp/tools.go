package mcp

import (
	"encoding/json"
	"sort"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/policy"
)

// Shared pieces of the output schemas.
const (
	schemaViolation = `{"type":"object","properties":{"msg":{"type":"string"},"file":{"type":"string"},` +
		`"line":{"type":"integer"},"rule":{"type":"string"}},"required":["msg"]}`
	schemaReason  = `{"type":"object","properties":{"code":{"type":"string"},"msg":{"type":"string"}},"required":["code"]}`
	schemaVerdict = `{"type":"object","properties":{"name":{"type":"string"},"outcome":{"type":"string",` +
		`"enum":["PASSED","FAILED","NOT_APPLICABLE","COULD_NOT_RUN"]},"severity":{"type":"string","enum":["block","warn"]},` +
		`"blocks":{"type":"boolean"},"violations":{"type":"array","items":` + schemaViolation + `},` +
		`"reasons":{"type":"array","items":` + schemaReason + `}},"required":["name","outcome","severity","blocks","violations","reasons"]}`
	schemaEvalResult = `{"type":"object","properties":{"decision_id":{"type":"string"},"trigger":{"type":"string"},` +
		`"task":{"type":"string"},"blocked":{"type":"boolean"},"exit_code":{"type":"integer"},` +
		`"gates":{"type":"array","items":` + schemaVerdict + `},"warnings":{"type":"array","items":{"type":"string"}}},` +
		`"required":["decision_id","trigger","blocked","exit_code","gates","warnings"]}`
)

// tools returns every tool, sorted by name: the order tools/list shows.
func tools() []tool {
	all := []tool{
		policyEvalTool(), policyListTool(), policyExplainTool(),
		taskStartTool(), taskDoneTool(), verifyRunTool(), sessionStatusTool(),
		decisionLogQueryTool(), decisionShowTool(),
	}
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	return all
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// evalResult is the agent-facing view of a decision.
type evalResult struct {
	DecisionID string        `json:"decision_id"`
	Trigger    string        `json:"trigger"`
	Task       string        `json:"task,omitempty"`
	Blocked    bool          `json:"blocked"`
	ExitCode   int           `json:"exit_code"`
	Gates      []evalVerdict `json:"gates"`
	Warnings   []string      `json:"warnings"`
}

type evalVerdict struct {
	Name       string             `json:"name"`
	Outcome    string             `json:"outcome"`
	Severity   string             `json:"severity"`
	Blocks     bool               `json:"blocks"`
	Violations []policy.Violation `json:"violations"`
	Reasons    []policy.Reason    `json:"reasons"`
}

func toEvalResult(d *engine.Decision) evalResult {
	r := evalResult{DecisionID: d.ID, Trigger: d.Request.Trigger, Task: d.Request.Task, Blocked: d.Blocked,
		ExitCode: d.ExitCode, Gates: []evalVerdict{}, Warnings: d.Warnings}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	for _, v := range d.Gates {
		r.Gates = append(r.Gates, evalVerdict{Name: v.Name, Outcome: v.Outcome, Severity: v.Severity, Blocks: v.Blocks,
			Violations: v.Violations, Reasons: v.Reasons})
	}
	return r
}
