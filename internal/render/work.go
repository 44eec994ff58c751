package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/app/taskflow"
	"github.com/tausik/tausik/store/receipt"
)

// Task writes a task as aligned "key  value" lines, or as JSON.
func Task(w io.Writer, format string, t app.Task) error {
	if format == "json" {
		return JSON(w, app.TaskView(t))
	}
	status := string(t.Status)
	if status == "" {
		status = "proposed"
	}
	scope := "(not declared)"
	switch {
	case t.Scope != nil && len(t.Scope) == 0:
		scope = "(declared empty: the task may write nothing)"
	case t.Scope != nil:
		scope = strings.Join(t.Scope, ", ")
	}
	budget := "none"
	if t.CallBudget != nil {
		budget = fmt.Sprintf("%d calls", *t.CallBudget)
	}
	var b strings.Builder
	for _, kv := range [][2]string{
		{"task", t.Slug + " (" + status + ")"}, {"goal", t.Goal},
		{"tier", string(t.Tier) + ", complexity " + string(t.Complexity)},
		{"budget", budget}, {"delegated", fmt.Sprint(t.Delegated)}, {"scope", scope}, {"files", OrNone(t.Files)},
		{"specs", OrNone(t.Specs)}, {"adapts", OrNone(t.Adapts)}, {"started", Stamp(t.StartedAt)}, {"done", Stamp(t.DoneAt)},
	} {
		fmt.Fprintf(&b, "%-10s %s\n", kv[0], kv[1])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Tasks writes a table of tasks, oldest first, or them as JSON.
func Tasks(w io.Writer, format string, tasks []app.Task) error {
	if format == "json" {
		rows := make([]facts.Task, 0, len(tasks))
		for _, t := range tasks {
			rows = append(rows, app.TaskView(t))
		}
		return JSON(w, rows)
	}
	if len(tasks) == 0 {
		_, err := fmt.Fprintln(w, "no tasks")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tSTATUS\tSTARTED\tBUDGET\tFILES\tGOAL")
	for _, t := range tasks {
		budget := "-"
		if t.CallBudget != nil {
			budget = fmt.Sprint(*t.CallBudget)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", t.Slug, t.Status, Stamp(t.StartedAt), budget, len(t.Files), t.Goal)
	}
	return tw.Flush()
}

// TaskOutcome writes the decision a task flow acted on, then what happened
// to the task (did, or didNot when a gate blocked); as JSON, the task,
// whether it changed, and the decision.
func TaskOutcome(w io.Writer, format string, out *taskflow.Outcome, did, didNot string) error {
	if format == "json" {
		return JSON(w, struct {
			Task     facts.Task       `json:"task"`
			Changed  bool             `json:"changed"`
			Decision *engine.Decision `json:"decision"`
		}{app.TaskView(out.Task), !out.Blocked, out.Decision})
	}
	if err := Text(w, out.Decision); err != nil {
		return err
	}
	if out.Blocked {
		_, err := fmt.Fprintf(w, "task %s %s: a gate blocks (see above)\n", out.Task.Slug, didNot)
		return err
	}
	_, err := fmt.Fprintf(w, "task %s %s\n", out.Task.Slug, did)
	return err
}

// Session writes a session state: the open (or last) session and the
// latest handoff, or them as JSON.
func Session(w io.Writer, format string, st app.SessionState) error {
	if format == "json" {
		return JSON(w, app.SessionView(st))
	}
	var b strings.Builder
	switch {
	case st.Session == nil:
		fmt.Fprintln(&b, "session   none started yet")
	default:
		state := "ended " + Stamp(st.Session.EndedAt)
		if st.Open {
			state = "open"
		}
		fmt.Fprintf(&b, "session   %s (%s)\n", st.Session.ID, state)
		fmt.Fprintf(&b, "started   %s\n", Stamp(st.Session.StartedAt))
		fmt.Fprintf(&b, "calls     %d\n", st.Session.ToolCalls)
		fmt.Fprintf(&b, "active    %d minutes\n", st.ActiveMinutes())
	}
	if h := st.Handoff; h != nil {
		from := "no open session"
		if h.SessionID != "" {
			from = "session " + h.SessionID
		}
		fmt.Fprintf(&b, "handoff   written %s (%s):\n", Stamp(h.WrittenAt), from)
		for _, line := range strings.Split(strings.TrimRight(h.Text, "\n"), "\n") {
			fmt.Fprintf(&b, "    %s\n", line)
		}
	} else {
		fmt.Fprintln(&b, "handoff   none")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Verify writes a verify run: its decision, then the run and its receipt
// when it was recorded; or all of it as JSON.
func Verify(w io.Writer, format string, out *taskflow.VerifyOutcome, recorded bool) error {
	r := out.Run
	if format == "json" {
		return JSON(w, struct {
			Recorded      bool             `json:"recorded"`
			RunID         int64            `json:"run_id"`
			Task          string           `json:"task"`
			Passed        bool             `json:"passed"`
			Files         []string         `json:"files"`
			Declared      bool             `json:"declared"`
			FilesHash     string           `json:"files_hash"`
			GateSignature string           `json:"gate_signature"`
			RanAt         string           `json:"ran_at"`
			Key           string           `json:"key_fingerprint"`
			Decision      *engine.Decision `json:"decision"`
		}{recorded, r.ID, r.Task, r.Passed, out.Files, out.Declared, r.FilesHash, r.GateSignature, Stamp(r.RanAt), r.KeyFingerprint, out.Decision})
	}
	if err := Text(w, out.Decision); err != nil || !recorded {
		return err
	}
	verdict := "passed"
	if !r.Passed {
		verdict = "FAILED"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "verify run %d for task %s: %s at %s over %d file(s)\n", r.ID, r.Task, verdict, Stamp(r.RanAt), len(out.Files))
	fmt.Fprintf(&b, "files hash %s\ngate signature %s (%d verify gate(s))\nreceipt signed by %s\n",
		r.FilesHash, r.GateSignature, len(out.Gates), r.KeyFingerprint)
	if !out.Declared {
		fmt.Fprintf(&b, "note: these are not the files task %s declares; task done will not accept this run\n", r.Task)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Receipt writes a task's latest verify run and its receipt's check, or
// them as JSON.
func Receipt(w io.Writer, format, task string, v app.ReceiptView) error {
	if format == "json" {
		raw := v.Run.Receipt
		if len(raw) == 0 {
			raw = json.RawMessage("null")
		}
		return JSON(w, struct {
			Run     any             `json:"run"`
			Receipt json.RawMessage `json:"receipt"`
		}{v.Facts, raw})
	}
	f := v.Facts
	check := "valid"
	if !f.Receipt.Valid {
		check = "INVALID: " + f.Receipt.Reason
	}
	var b strings.Builder
	fmt.Fprintf(&b, "verify run %d for task %s at %s: passed %v, exit %d\n", f.ID, task, Stamp(v.Run.RanAt), f.Passed, f.ExitCode)
	for _, gt := range f.Gates {
		fmt.Fprintf(&b, "    %-20s %-5s passed %v\n", gt.Name, gt.Severity, gt.Passed)
	}
	fmt.Fprintf(&b, "files hash     %s\ngate signature %s\ngit sha        %s\nsigned by      %s\nreceipt        %s\n",
		f.FilesHash, f.GateSignature, OrDash(f.GitSHA), OrDash(f.Receipt.KeyFingerprint), check)
	_, err := io.WriteString(w, b.String())
	return err
}

// ValidReceipt writes an exported receipt that verified: its task, run and
// the key that signed it, and whether that key was pinned.
func ValidReceipt(w io.Writer, r receipt.Receipt, pinned bool) error {
	var b strings.Builder
	trust := "pinned key"
	if !pinned {
		trust = "the key it embeds (not pinned: pass --pub to check it is the project's)"
	}
	fmt.Fprintf(&b, "valid: receipt of task %s, passed %v, ran at %s, %d gate(s)\n", r.Task, r.Passed, Stamp(r.RanAt), len(r.Gates))
	fmt.Fprintf(&b, "files hash     %s\ngate signature %s\nsigned by      %s, checked against %s\n",
		r.FilesHash, r.GateSignature, r.KeyFingerprint, trust)
	_, err := io.WriteString(w, b.String())
	return err
}
