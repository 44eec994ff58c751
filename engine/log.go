package engine

import (
	"context"
	"encoding/json"

	"github.com/tausik/tausik/store"
)

// StoreLog appends decisions to the store's hash-chained decision log.
type StoreLog struct {
	Store *store.Store
}

// Append implements DecisionLog.
func (l StoreLog) Append(ctx context.Context, d *Decision) error {
	body, err := json.Marshal(d)
	if err != nil {
		return err
	}
	gates := make([]store.GateVerdict, len(d.Gates))
	for i, v := range d.Gates {
		gates[i] = store.GateVerdict{Name: v.Name, Outcome: store.Outcome(v.Outcome), Severity: store.Severity(v.Severity), Blocks: v.Blocks}
	}
	_, err = l.Store.AppendDecision(ctx, store.Decision{
		ID: d.ID, Time: d.Time, Trigger: d.Request.Trigger, Task: d.Request.Task, Requester: d.Requester,
		GitHead: d.GitHead, ExitCode: d.ExitCode, Blocked: d.Blocked, Gates: gates, Body: body,
	})
	return err
}
