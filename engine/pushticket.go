package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/store"
)

// GateGitPush is the gate that lets an agent's git push through only on a
// person's push ticket.
const GateGitPush = "git_push_gate"

// usePushTicket spends the push ticket a decision let a push through on:
// when git_push_gate passed (it judged a push and found the newest ticket
// good) and the call may go ahead (or a person is asked, who may let it),
// the newest ticket is marked used by d and the use logged. A ticket another
// call used or a person replaced meanwhile, or a store that cannot record
// the use, is an error: the caller refuses the call (a ticket is spent at
// most once).
func (e *Engine) usePushTicket(ctx context.Context, d *Decision) error {
	if d == nil || (d.Blocked && !d.Ask) {
		return nil
	}
	for _, v := range d.Gates {
		if v.Name != GateGitPush || v.Outcome != Passed {
			continue
		}
		if e.store == nil {
			return fmt.Errorf("%w: no store to spend the push ticket in", diag.ErrStore)
		}
		ctx = store.WithRequester(ctx, d.Requester)
		t, err := e.store.LatestPushTicket(ctx)
		if err == nil {
			err = e.store.UsePushTicket(ctx, t.ID, d.ID)
		}
		if errors.Is(err, store.ErrTicketGone) || errors.Is(err, store.ErrNotFound) {
			return fmt.Errorf("git push needs a push ticket a person issued: the ticket was used by another call or replaced while this one was judged; ask a person for one (%w)", store.ErrTicketGone)
		}
		if err != nil {
			return fmt.Errorf("%w: spend the push ticket: %v", diag.ErrStore, err)
		}
	}
	return nil
}
