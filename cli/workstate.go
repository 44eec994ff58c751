package cli

import (
	"context"
	"fmt"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/project"
	"io"
	"strings"
	"time"
)

// openStore opens the project's store alone, for commands that read or
// write workflow state without judging anything (task show, session…): they
// work even while the gate configuration is broken. The caller closes it.
func (g *globals) openStore(ctx context.Context) (*app.Store, string, error) {
	root, err := g.projectRoot()
	if err != nil {
		return nil, "", err
	}
	st, err := project.OpenStore(ctx, root, g.getenv)
	return st, root, err
}

// stamp renders a time to the second in UTC, "-" for the zero time.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "(none)"
	}
	return strings.Join(list, ", ")
}

// renderTask prints a task as aligned "key  value" lines.
func renderTask(w io.Writer, t app.Task) error {
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
		{"budget", budget}, {"delegated", fmt.Sprint(t.Delegated)}, {"scope", scope}, {"files", orNone(t.Files)},
		{"specs", orNone(t.Specs)}, {"adapts", orNone(t.Adapts)}, {"started", stamp(t.StartedAt)}, {"done", stamp(t.DoneAt)},
	} {
		fmt.Fprintf(&b, "%-10s %s\n", kv[0], kv[1])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// renderSession prints a session state.
func renderSession(w io.Writer, st app.SessionState) {
	switch {
	case st.Session == nil:
		fmt.Fprintln(w, "session   none started yet")
	default:
		state := "ended " + stamp(st.Session.EndedAt)
		if st.Open {
			state = "open"
		}
		fmt.Fprintf(w, "session   %s (%s)\n", st.Session.ID, state)
		fmt.Fprintf(w, "started   %s\n", stamp(st.Session.StartedAt))
		fmt.Fprintf(w, "calls     %d\n", st.Session.ToolCalls)
		fmt.Fprintf(w, "active    %d minutes\n", st.ActiveMinutes())
	}
	if h := st.Handoff; h != nil {
		from := "no open session"
		if h.SessionID != "" {
			from = "session " + h.SessionID
		}
		fmt.Fprintf(w, "handoff   written %s (%s):\n", stamp(h.WrittenAt), from)
		for _, line := range strings.Split(strings.TrimRight(h.Text, "\n"), "\n") {
			fmt.Fprintf(w, "    %s\n", line)
		}
	} else {
		fmt.Fprintln(w, "handoff   none")
	}
}
