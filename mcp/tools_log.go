package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/tausik/tausik/internal/app"
	"time"

	"github.com/tausik/tausik/engine"
)

// logEntry is one decision in decision_log_query.
type logEntry struct {
	DecisionID string         `json:"decision_id"`
	Time       string         `json:"time"`
	Trigger    string         `json:"trigger"`
	Task       string         `json:"task"`
	Requester  string         `json:"requester"`
	Blocked    bool           `json:"blocked"`
	ExitCode   int            `json:"exit_code"`
	Gates      []logGateEntry `json:"gates"`
}

type logGateEntry struct {
	Name    string `json:"name"`
	Outcome string `json:"outcome"`
	Blocks  bool   `json:"blocks"`
}

func decisionLogQueryTool() tool {
	return tool{
		name:  "decision_log_query",
		title: "Query the decision log",
		description: "List recent decisions from the audit log, newest last, optionally only those involving a gate, " +
			"an outcome or a task, or made since a time. Use decision_show for one decision in full.",
		args: []arg{
			{name: "gate", kind: kindString, desc: "Only decisions with a verdict of this gate."},
			{name: "outcome", kind: kindString, enum: []string{"PASSED", "FAILED", "NOT_APPLICABLE", "COULD_NOT_RUN"}, desc: "Only decisions where a gate (the named one, if any) had this outcome."},
			{name: "task", kind: kindString, desc: "Only decisions about this task."},
			{name: "since", kind: kindString, desc: "Only decisions since this long ago ('90m', '3h', '2d') or since this time (RFC 3339)."},
			{name: "limit", kind: kindInteger, required: true, min: 1, max: 200, desc: "At most this many decisions: the newest ones."},
		},
		output: raw(`{"type":"object","properties":{"decisions":{"type":"array","items":{"type":"object","properties":{` +
			`"decision_id":{"type":"string"},"time":{"type":"string"},"trigger":{"type":"string"},"task":{"type":"string"},` +
			`"requester":{"type":"string"},"blocked":{"type":"boolean"},"exit_code":{"type":"integer"},` +
			`"gates":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"outcome":{"type":"string"},` +
			`"blocks":{"type":"boolean"}},"required":["name","outcome","blocks"]}}},` +
			`"required":["decision_id","time","trigger","task","requester","blocked","exit_code","gates"]}}},"required":["decisions"]}`),
		readOnly:   true,
		idempotent: true,
		handle: func(ctx context.Context, eng *engine.Engine, a args) (any, error) {
			limit, _ := a.integer("limit") // required: parseArgs has checked it is there
			q := app.LogQuery{Gate: a.str("gate"), Outcome: a.str("outcome"), Task: a.str("task"), Since: a.str("since"), Tail: limit}
			f, err := q.Filter(time.Now())
			if err != nil {
				return nil, flowError(err)
			}
			entries, err := app.ListLog(ctx, eng.Store(), f)
			if err != nil {
				return nil, flowError(err)
			}
			out := []logEntry{}
			for _, e := range entries {
				le := logEntry{DecisionID: e.ID, Time: e.Time.UTC().Format(time.RFC3339Nano), Trigger: e.Trigger, Task: e.Task,
					Requester: e.Requester, Blocked: e.Blocked, ExitCode: e.ExitCode, Gates: []logGateEntry{}}
				for _, g := range e.Gates {
					le.Gates = append(le.Gates, logGateEntry{Name: g.Name, Outcome: string(g.Outcome), Blocks: g.Blocks})
				}
				out = append(out, le)
			}
			return map[string]any{"decisions": out}, nil
		},
	}
}

func decisionShowTool() tool {
	return tool{
		name:  "decision_show",
		title: "Show a decision",
		description: "Show one decision from the audit log in full: the request, every gate's verdict with its " +
			"violations and reasons, the digests of the facts and policies, timings, and the chain hashes.",
		args: []arg{{name: "id", kind: kindString, required: true, desc: "The decision id, or a unique prefix of at least 6 characters."}},
		output: raw(`{"type":"object","properties":{"seq":{"type":"integer"},"hash":{"type":"string"},"prev_hash":{"type":"string"},` +
			`"decision":{"type":"object"}},"required":["seq","hash","prev_hash","decision"]}`),
		readOnly:   true,
		idempotent: true,
		handle: func(ctx context.Context, eng *engine.Engine, a args) (any, error) {
			e, err := app.ShowLog(ctx, eng.Store(), a.str("id"))
			if errors.Is(err, app.ErrNotFound) || errors.Is(err, app.ErrAmbiguousID) {
				return nil, &refusal{msg: err.Error() + "; list decisions with decision_log_query"}
			}
			if err != nil {
				return nil, flowError(err)
			}
			var body map[string]any
			if err := json.Unmarshal(e.Body, &body); err != nil {
				return nil, err
			}
			return map[string]any{"seq": e.Seq, "hash": e.Hash, "prev_hash": e.PrevHash, "decision": body}, nil
		},
	}
}
