package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/app"
)

// entryJSON is one decision-log row without its body.
type entryJSON struct {
	Seq       int64         `json:"seq"`
	ID        string        `json:"decision_id"`
	Time      string        `json:"time"`
	Trigger   string        `json:"trigger"`
	Task      string        `json:"task"`
	Requester string        `json:"requester"`
	GitHead   string        `json:"git_head"`
	ExitCode  int           `json:"exit_code"`
	Blocked   bool          `json:"blocked"`
	Gates     []gateRowJSON `json:"gates"`
	PrevHash  string        `json:"prev_hash"`
	Hash      string        `json:"hash"`
}

type gateRowJSON struct {
	Name     string `json:"name"`
	Outcome  string `json:"outcome"`
	Severity string `json:"severity"`
	Blocks   bool   `json:"blocks"`
}

func toEntryJSON(e app.LogEntry) entryJSON {
	out := entryJSON{Seq: e.Seq, ID: e.ID, Time: e.Time.UTC().Format("2006-01-02T15:04:05.000000000Z"), Trigger: e.Trigger,
		Task: e.Task, Requester: e.Requester, GitHead: e.GitHead, ExitCode: e.ExitCode, Blocked: e.Blocked,
		Gates: make([]gateRowJSON, 0, len(e.Gates)), PrevHash: e.PrevHash, Hash: e.Hash}
	for _, gv := range e.Gates {
		out.Gates = append(out.Gates, gateRowJSON{gv.Name, string(gv.Outcome), string(gv.Severity), gv.Blocks})
	}
	return out
}

// gateSummary names the gates that did not pass, or counts the passes.
func gateSummary(gates []app.GateVerdict) string {
	var odd []string
	for _, gv := range gates {
		if gv.Outcome != app.OutcomePassed {
			odd = append(odd, gv.Name+":"+string(gv.Outcome))
		}
	}
	if len(odd) == 0 {
		return fmt.Sprintf("%d passed", len(gates))
	}
	return strings.Join(odd, " ")
}

// LogList writes a table of decisions, oldest first, or their rows (no
// bodies) as JSON.
func LogList(w io.Writer, format string, entries []app.LogEntry) error {
	if format == "json" {
		rows := make([]entryJSON, 0, len(entries))
		for _, e := range entries {
			rows = append(rows, toEntryJSON(e))
		}
		return JSON(w, rows)
	}
	if len(entries) == 0 {
		_, err := fmt.Fprintln(w, "no decisions match")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tTIME\tDECISION\tTRIGGER\tTASK\tRESULT\tGATES")
	for _, e := range entries {
		result := "passed"
		if e.Blocked {
			result = "blocked"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Seq, Stamp(e.Time), e.ID, e.Trigger, OrDash(e.Task), result, gateSummary(e.Gates))
	}
	return tw.Flush()
}

// LogShow writes one decision: its row, the call a hook judged, and the
// decision as text; or the row with the decision's body as JSON.
func LogShow(w io.Writer, format string, e app.LogEntry) error {
	if format == "json" {
		return JSON(w, struct {
			entryJSON
			Decision json.RawMessage `json:"decision"`
		}{toEntryJSON(e), e.Body})
	}
	fmt.Fprintf(w, "decision  %s (seq %d)\ntime      %s\ntrigger   %s\ntask      %s\nrequester %s\ngit head  %s\nhash      %s\nprev hash %s\n",
		e.ID, e.Seq, e.Time.UTC().Format("2006-01-02T15:04:05.000Z"), e.Trigger, OrDash(e.Task), e.Requester, OrDash(e.GitHead), e.Hash, e.PrevHash)
	var d engine.Decision
	if err := json.Unmarshal(e.Body, &d); err != nil {
		return fmt.Errorf("decision %s: body: %w", e.ID, err)
	}
	if len(d.Request.Bypass) > 0 {
		fmt.Fprintf(w, "bypass    %v\n", d.Request.Bypass)
	}
	if len(d.Request.Tasks) > 0 {
		fmt.Fprintf(w, "active    %s\n", strings.Join(d.Request.Tasks, " "))
	}
	if t := d.Request.Tool; t != nil {
		fmt.Fprintf(w, "host      %s\ntool      %s (%s)\n", OrDash(t.Host), t.Tool, t.Kind)
		if t.Command != "" {
			fmt.Fprintf(w, "command   %s\n", strings.ReplaceAll(t.Command, "\n", "\n          "))
		}
		for _, p := range t.Targets {
			fmt.Fprintf(w, "target    %s\n", p)
		}
		for _, u := range t.Unknown {
			fmt.Fprintf(w, "unknown   %s (%s)\n", u.Text, u.Reason)
		}
	}
	fmt.Fprintln(w)
	return Text(w, &d)
}
