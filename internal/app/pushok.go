package app

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/runners/push"
	"github.com/tausik/tausik/store"
)

// PushTicketReport is the ticket IssuePushTicket recorded and what it
// allows.
type PushTicketReport struct {
	ID     string `json:"id"`
	Commit string `json:"commit"`
	// Remote and Branch bind the push; "" allows any. Force allows a
	// forced update of Branch.
	Remote string `json:"remote"`
	Branch string `json:"branch"`
	Force  bool   `json:"force"`
	// PushURL is where a push to Remote goes now, as the ticket records
	// it ("" when Remote is empty or not a configured remote).
	PushURL string `json:"push_url"`
	// IssuedAt and Until bound the ticket's life (git_push_gate's
	// ttl_seconds as configured now).
	IssuedAt   time.Time `json:"issued_at"`
	Until      time.Time `json:"until"`
	TTLSeconds int64     `json:"ttl_seconds"`
	// GateEnabled is false while git_push_gate is off: the ticket then
	// changes nothing until a person switches it on.
	GateEnabled bool `json:"gate_enabled"`
}

// IssuePushTicket records a single-use push ticket for the commit HEAD of
// e's project is at, bound to remote when it is not empty (and to where a
// push to it goes now), and to branch, or the branch HEAD is on when branch
// is empty (no branch when HEAD is detached), and logs its issue as
// requester's. force lets the push update the branch by force (the
// ticket's branch is then "+NAME", git's spelling of a forced refspec). A
// person's command: the caller refuses an agent requester first
// (agent_authority). Issuing a ticket retires every earlier one.
func IssuePushTicket(ctx context.Context, e *engine.Engine, requester, remote, branch string, force bool) (*PushTicketReport, error) {
	st := e.Store()
	if st == nil {
		return nil, fmt.Errorf("%w: no store to record the push ticket in", diag.ErrStore)
	}
	head, current, err := push.Head(ctx, e.Root())
	if err != nil {
		return nil, fmt.Errorf("%w: %v", diag.ErrUsage, err)
	}
	if branch == "" {
		branch = current
	}
	if force && branch == "" {
		return nil, fmt.Errorf("%w: a forced push needs a branch, and HEAD is detached: name one", diag.ErrUsage)
	}
	if force {
		branch = "+" + branch
	}
	url := ""
	if remote != "" {
		if url, err = push.PushURL(ctx, e.Root(), remote); err != nil {
			return nil, fmt.Errorf("%w: %v", diag.ErrUsage, err)
		}
	}
	eff, ok := e.Effective(engine.GateGitPush)
	if !ok {
		return nil, fmt.Errorf("%w: the gate %s is not loaded", diag.ErrConfig, engine.GateGitPush)
	}
	ttl, ok := toSeconds(eff.Params["ttl_seconds"])
	if !ok {
		return nil, fmt.Errorf("%w: %s: params.ttl_seconds is %v, not a whole number of seconds", diag.ErrConfig, engine.GateGitPush, eff.Params["ttl_seconds"])
	}
	t, err := st.IssuePushTicket(store.WithRequester(ctx, requester), head, remote, branch, url)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", diag.ErrStore, err)
	}
	return &PushTicketReport{ID: t.ID, Commit: t.Commit, Remote: t.Remote, Branch: strings.TrimPrefix(t.Branch, "+"), Force: force, PushURL: t.PushURL, IssuedAt: t.IssuedAt,
		Until: t.IssuedAt.Add(time.Duration(ttl) * time.Second), TTLSeconds: ttl, GateEnabled: eff.Enabled}, nil
}

// toSeconds reads an int param as the decoder leaves it.
func toSeconds(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		return int64(n), float64(int64(n)) == n
	}
	return 0, false
}
