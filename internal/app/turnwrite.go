package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/runners"
)

// StartWriteFindings begins finding what the enabled warn gates (those
// judging task-done or commit) find in the written files: it starts
// listing the project's files, which those gates' facts need, at once, and
// returns the function that evaluates the gates and returns the text handed
// to the model: one line per finding, sorted, or "" when they find
// nothing. The evaluation is a logged decision recording the call's host
// and session. Nil when no such gate is on or nothing was written. ctx
// bounds the listing. A blocking gate is not asked here: the backstop and
// the pre-write gates speak for those.
func StartWriteFindings(ctx context.Context, eng *engine.Engine, host, session string, files []string) func(context.Context) (string, error) {
	var gates []string
	for _, g := range eng.Gates() {
		eff, ok := eng.Effective(g.Name)
		if ok && eff.Enabled && eff.Severity == gate.SeverityWarn &&
			(slices.Contains(eff.Triggers, engine.TriggerTaskDone) || slices.Contains(eff.Triggers, "commit")) {
			gates = append(gates, g.Name)
		}
	}
	if len(gates) == 0 || len(files) == 0 {
		return nil
	}
	listing := runners.StartListing(ctx, eng.Root())
	return func(ctx context.Context) (string, error) {
		return writeFindings(ctx, eng, host, session, files, gates, listing)
	}
}

func writeFindings(ctx context.Context, eng *engine.Engine, host, session string, files, gates []string, listing *runners.Listing) (string, error) {
	rec := toolcall.Turn{Host: host, Event: toolcall.EventPostToolUse, HostEvent: toolcall.EventPostToolUse, Session: session}
	d, err := eng.Evaluate(ctx, engine.Request{Trigger: engine.TriggerTaskDone, Gates: gates, Files: files, Requester: "hook:" + host, Turn: &rec, Listing: listing})
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
