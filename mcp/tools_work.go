package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/app/taskflow"

	"github.com/tausik/tausik/internal/app"

	"github.com/tausik/tausik/engine"
)

const (
	schemaTask = `{"type":"object","properties":{"slug":{"type":"string"},"goal":{"type":"string"},` +
		`"scope_paths":{"type":["array","null"],"items":{"type":"string"}},"tier":{"type":"string"},"complexity":{"type":"string"},` +
		`"delegated":{"type":"boolean"},"call_budget":{"type":["integer","null"]},"specs":{"type":"array","items":{"type":"string"}},` +
		`"adapts":{"type":"array","items":{"type":"string"}},"files":{"type":"array","items":{"type":"string"}},` +
		`"status":{"type":"string"},"started_at":{"type":"string"},"done_at":{"type":"string"}},` +
		`"required":["slug","goal","scope_paths","tier","complexity","delegated","call_budget","specs","adapts","files","status","started_at","done_at"]}`
	schemaTaskResult = `{"type":"object","properties":{"task":` + schemaTask + `,"decision":` + schemaEvalResult + `},"required":["task","decision"]}`
)

// flowError sorts a flow's error: what the agent can act on is a refusal,
// anything else is tausik failing.
func flowError(err error) error {
	if errors.Is(err, diag.ErrUsage) || errors.Is(err, diag.ErrNoKey) {
		return &refusal{msg: err.Error()}
	}
	return err
}

// blockedMessage explains a blocked flow: every blocking gate with its
// violations or reasons, then the decision id.
func blockedMessage(what string, d *engine.Decision) string {
	msg := what + ":"
	for _, v := range d.Gates {
		if !v.Blocks {
			continue
		}
		for _, vi := range v.Judged() { // not those elsewhere or baselined
			msg += fmt.Sprintf("\n- %s: %s", v.Name, vi.Msg)
		}
		for _, r := range v.Reasons {
			msg += fmt.Sprintf("\n- %s could not run (%s): %s", v.Name, r.Code, r.Msg)
		}
	}
	return msg + "\n(decision " + d.ID + ")"
}

// taskResult renders a task flow's outcome: the task and the decision, or a
// refusal carrying them when a gate blocked (what says what did not happen).
func taskResult(out *taskflow.Outcome, err error, what string) (any, error) {
	if err != nil {
		return nil, flowError(err)
	}
	res := map[string]any{"task": app.TaskView(out.Task), "decision": toEvalResult(out.Decision)}
	if out.Blocked {
		return nil, &refusal{msg: blockedMessage(what, out.Decision), result: res}
	}
	return res, nil
}

func taskStartTool() tool {
	return tool{
		name:  "task_start",
		title: "Start a task",
		description: "Start a task: the task-start gates judge it first, and it is created only if none blocks " +
			"(a refusal says why and what to do). Declare scope patterns to limit where you may write, " +
			"and the files the task will change so that verify_run can certify them.",
		args: []arg{
			{name: "slug", kind: kindString, required: true, desc: "Short unique id: lower case, digits, '.', '_' or '-'."},
			{name: "goal", kind: kindString, required: true, desc: "What the task achieves, in one sentence."},
			{name: "scope", kind: kindStrings, desc: "Paths you may write: 'dir/' prefixes, globs, or exact files. Omit for no declared scope."},
			{name: "files", kind: kindStrings, desc: "Files the task will change (verify_run certifies these)."},
			{name: "tier", kind: kindString, enum: []string{"lightweight", "standard", "substantial", "deep"}, desc: "How much is at stake."},
			{name: "complexity", kind: kindString, enum: []string{"simple", "medium", "complex"}, desc: "How hard the task is."},
			{name: "budget", kind: kindInteger, min: 0, max: 100000, desc: "Tool calls the task may use from the open session."},
			{name: "delegated", kind: kindBoolean, desc: "The task is done by a delegated worker (it must declare a scope)."},
		},
		output: raw(schemaTaskResult),
		handle: func(ctx context.Context, eng *engine.Engine, a args) (any, error) {
			t := app.Task{Slug: a.str("slug"), Goal: a.str("goal"), Scope: a.strs("scope"), Files: a.strs("files"),
				Tier: app.Tier(a.str("tier")), Complexity: app.Complexity(a.str("complexity")), Delegated: a.boolean("delegated")}
			if n, ok := a.integer("budget"); ok {
				t.CallBudget = &n
			}
			out, err := taskflow.Start(ctx, eng, taskflow.StartRequest{Task: t, Requester: requester(ctx)})
			return taskResult(out, err, "task "+t.Slug+" was not started")
		},
	}
}

func taskDoneTool() tool {
	return tool{
		name:  "task_done",
		title: "Close a task",
		description: "Close a task: the task-done gates judge it (a fresh signed green verify_run for its declared " +
			"files, file sizes, and the rest), and it is marked done only if none blocks. A refusal lists what " +
			"blocks and what to do.",
		args: []arg{
			{name: "slug", kind: kindString, required: true, desc: "The task to close."},
			{name: "no_changelog", kind: kindBoolean, desc: "Waive the changelog gate on purpose; the decision log records the waiver."},
		},
		output: raw(schemaTaskResult),
		handle: func(ctx context.Context, eng *engine.Engine, a args) (any, error) {
			req := taskflow.DoneRequest{Slug: a.str("slug"), Requester: requester(ctx)}
			if a.boolean("no_changelog") {
				req.Bypass = []string{taskflow.GateChangelog}
			}
			out, err := taskflow.Done(ctx, eng, req)
			return taskResult(out, err, "task "+req.Slug+" was not closed")
		},
	}
}

func verifyRunTool() tool {
	return tool{
		name:  "verify_run",
		title: "Verify a task",
		description: "Run the verify gates (tests, linters) over a task's declared files and record the run with a " +
			"signed receipt. task_done accepts only a fresh, green run for exactly the declared files.",
		args: []arg{
			{name: "task", kind: kindString, required: true, desc: "The task to verify."},
			{name: "files", kind: kindStrings, desc: "Verify these files instead of the declared ones (task_done then accepts the run only if they are the declared files)."},
		},
		output: raw(`{"type":"object","properties":{"passed":{"type":"boolean"},"run_id":{"type":"integer"},"ran_at":{"type":"string"},` +
			`"files":{"type":"array","items":{"type":"string"}},"declared":{"type":"boolean"},"files_hash":{"type":"string"},` +
			`"gate_signature":{"type":"string"},"signed":{"type":"boolean"},"decision":` + schemaEvalResult + `},` +
			`"required":["passed","run_id","ran_at","files","declared","files_hash","gate_signature","signed","decision"]}`),
		handle: func(ctx context.Context, eng *engine.Engine, a args) (any, error) {
			out, err := taskflow.Verify(ctx, eng, taskflow.VerifyRequest{Task: a.str("task"), Files: a.strs("files"), Requester: requester(ctx)})
			if err != nil {
				return nil, flowError(err)
			}
			return map[string]any{
				"passed": out.Run.Passed, "run_id": out.Run.ID, "ran_at": out.Run.RanAt.UTC().Format(time.RFC3339),
				"files": nonNilStrings(out.Files), "declared": out.Declared, "files_hash": out.Run.FilesHash,
				"gate_signature": out.Run.GateSignature, "signed": len(out.Run.Signature) > 0,
				"decision": toEvalResult(out.Decision),
			}, nil
		},
	}
}

func sessionStatusTool() tool {
	return tool{
		name:  "session_status",
		title: "Session status",
		description: "Show the work session: whether one is open, tool calls used, active minutes, and the last " +
			"handoff note. Tasks with a call budget start only inside an open session.",
		output: raw(`{"type":"object","properties":{"open":{"type":"boolean"},"id":{"type":"string"},"started_at":{"type":"string"},` +
			`"tool_calls":{"type":"integer"},"active_minutes":{"type":"integer"},"handoff":{"type":["string","null"]}},` +
			`"required":["open","id","started_at","tool_calls","active_minutes","handoff"]}`),
		readOnly:   true,
		idempotent: true,
		handle: func(ctx context.Context, eng *engine.Engine, _ args) (any, error) {
			st, err := app.SessionStatus(ctx, eng.Store())
			if err != nil {
				return nil, flowError(err)
			}
			out := map[string]any{"open": st.Open, "id": "", "started_at": "", "tool_calls": 0,
				"active_minutes": st.ActiveMinutes(), "handoff": nil}
			if st.Session != nil {
				out["id"], out["started_at"], out["tool_calls"] = st.Session.ID, st.Session.StartedAt.UTC().Format(time.RFC3339), st.Session.ToolCalls
			}
			if st.Handoff != nil {
				out["handoff"] = st.Handoff.Text
			}
			return out, nil
		},
	}
}
