package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/toolcall"
)

// WriteFindings is the text handed to the model after a write: what the
// enabled warn gates (those judging task-done or commit) find in the
// written files, one line each, sorted, or "" when they find nothing or
// no such gate is on. The evaluation is a logged decision recording the
// call's host and session. A blocking gate is not asked here: the backstop
// and the pre-write gates speak for those.
func WriteFindings(ctx context.Context, eng *engine.Engine, host, session string, files []string) (string, error) {
	var gates []string
	for _, g := range eng.Gates() {
		eff, ok := eng.Effective(g.Name)
		if ok && eff.Enabled && eff.Severity == gate.SeverityWarn &&
			(slices.Contains(eff.Triggers, engine.TriggerTaskDone) || slices.Contains(eff.Triggers, "commit")) {
			gates = append(gates, g.Name)
		}
	}
	if len(gates) == 0 || len(files) == 0 {
		return "", nil
	}
	rec := toolcall.Turn{Host: host, Event: toolcall.EventPostToolUse, HostEvent: toolcall.EventPostToolUse, Session: session}
	d, err := eng.Evaluate(ctx, engine.Request{Trigger: engine.TriggerTaskDone, Gates: gates, Files: files, Requester: "hook:" + host, Turn: &rec})
	if err != nil {
		return "", err
	}
	written := map[string]bool{}
	for _, f := range d.Request.Files {
		written[f] = true
	}
	var lines []string
	for i := range d.Gates {
		v := &d.Gates[i]
		if v.Outcome != engine.Failed {
			continue
		}
		for _, vi := range v.Violations {
			if vi.File == "" || written[vi.File] {
				lines = append(lines, "- "+v.Name+": "+violationText(vi))
			}
		}
	}
	if len(lines) == 0 {
		return "", nil
	}
	slices.Sort(lines)
	return fmt.Sprintf("tausik: warnings on what was just written (they do not block):\n%s\n", strings.Join(slices.Compact(lines), "\n")), nil
}
