package mcp

import (
	"context"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/app"
)

func policyEvalTool() tool {
	return tool{
		name:  "policy_eval",
		title: "Evaluate gates",
		description: "Evaluate tausik's gates for a trigger and return each gate's outcome, its violations " +
			"(with file and line), the decision id, and whether the change is blocked. Use trigger " +
			"\"pre-write\" with the files you are about to write, \"commit\" before committing, and " +
			"\"task-done\" before closing a task. blocked=true means: do not proceed; fix the violations.",
		args: []arg{
			{name: "trigger", kind: kindString, required: true, enum: gate.Triggers,
				desc: "The moment being judged."},
			{name: "files", kind: kindStrings,
				desc: "Files in scope, relative to the project root or absolute. Omit to judge the whole project."},
			{name: "task", kind: kindString, desc: "Slug of the task this evaluation is for."},
			{name: "gates", kind: kindStrings, desc: "Evaluate exactly these gates, enabled or not. Omit for every enabled gate of the trigger."},
		},
		output:     raw(schemaEvalResult),
		idempotent: true,
		handle: func(ctx context.Context, eng *engine.Engine, a args) (any, error) {
			d, err := eng.Evaluate(ctx, engine.Request{Trigger: a.str("trigger"), Files: a.strs("files"),
				Task: a.str("task"), Gates: a.strs("gates"), Requester: requester(ctx)})
			if err != nil {
				return nil, flowError(err)
			}
			return toEvalResult(d), nil
		},
	}
}

// gateSummary is one gate in policy_list.
type gateSummary struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Language    string   `json:"language"`
	Severity    string   `json:"severity"`
	Enabled     bool     `json:"enabled"`
	Triggers    []string `json:"triggers"`
	Source      string   `json:"source"`
}

func policyListTool() tool {
	return tool{
		name:  "policy_list",
		title: "List gates",
		description: "List every gate tausik knows (built-in and the project's own) with its description, " +
			"language, effective severity, whether it is enabled, and the triggers it listens to.",
		output: raw(`{"type":"object","properties":{"gates":{"type":"array","items":{"type":"object","properties":{` +
			`"name":{"type":"string"},"description":{"type":"string"},"language":{"type":"string"},` +
			`"severity":{"type":"string"},"enabled":{"type":"boolean"},"triggers":{"type":"array","items":{"type":"string"}},` +
			`"source":{"type":"string"}},"required":["name","description","language","severity","enabled","triggers","source"]}}},` +
			`"required":["gates"]}`),
		readOnly:   true,
		idempotent: true,
		handle: func(_ context.Context, eng *engine.Engine, _ args) (any, error) {
			out := []gateSummary{}
			for _, g := range app.ListGates(eng) {
				out = append(out, gateSummary{Name: g.Name, Description: g.Description, Language: g.Language,
					Severity: g.Severity, Enabled: g.Enabled, Triggers: g.Triggers, Source: g.Source})
			}
			return map[string]any{"gates": out}, nil
		},
	}
}

func policyExplainTool() tool {
	return tool{
		name:  "policy_explain",
		title: "Explain a gate",
		description: "Explain one gate: what it prevents, its params with their defaults and effective values, " +
			"which facts it reads, and the names of the fixtures that prove it can fail and pass.",
		args: []arg{{name: "gate", kind: kindString, required: true, desc: "Name of the gate, as policy_list shows it."}},
		output: raw(`{"type":"object","properties":{"name":{"type":"string"},"description":{"type":"string"},` +
			`"prevents":{"type":"string"},"language":{"type":"string"},"source":{"type":"string"},"phase":{"type":"string"},` +
			`"severity":{"type":"string"},"enabled":{"type":"boolean"},"triggers":{"type":"array","items":{"type":"string"}},` +
			`"facts":{"type":"array","items":{"type":"string"}},"params":{"type":"array","items":{"type":"object","properties":{` +
			`"name":{"type":"string"},"type":{"type":"string"},"description":{"type":"string"},"default":{},"value":{},` +
			`"project_may":{"type":"string"},"set_by":{"type":"string"}},"required":["name","type","description","default","value","project_may","set_by"]}},` +
			`"table":{"type":"string"},"fixtures":{"type":"array","items":{"type":"string"}}},` +
			`"required":["name","description","prevents","language","source","phase","severity","enabled","triggers","facts","params","table","fixtures"]}`),
		readOnly:   true,
		idempotent: true,
		handle: func(_ context.Context, eng *engine.Engine, a args) (any, error) {
			ex, err := app.Explain(eng, a.str("gate"))
			if err != nil {
				return nil, &refusal{msg: strings.TrimPrefix(err.Error(), diag.ErrUsage.Error()+": ")}
			}
			return ex, nil
		},
	}
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
