package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/diag"

	"github.com/tausik/tausik/store"
)

// The session flows are thin on purpose: a session is state the workflow
// gates read, not something a gate judges. They take the store (an engine's
// Store(), or one opened with OpenStore) so a session can be handled even
// while the gate configuration is broken.

// StartSession opens a new session. ErrUsage when one is already open.
func StartSession(ctx context.Context, st *store.Store) (store.Session, error) {
	if st == nil {
		return store.Session{}, fmt.Errorf("%w: no store", diag.ErrStore)
	}
	s, err := st.StartSession(ctx)
	if errors.Is(err, store.ErrSessionOpen) {
		if open, oerr := st.OpenSession(ctx); oerr == nil {
			return store.Session{}, fmt.Errorf("%w: session %s is already open (started %s); end it first with `tausik session end`",
				diag.ErrUsage, open.ID, open.StartedAt.UTC().Format("2006-01-02T15:04:05Z"))
		}
	}
	return s, engine.StoreErr(err)
}

// EndSession closes the open session and returns its final state; the
// counters and the handoff are kept. ErrUsage when no session is open.
func EndSession(ctx context.Context, st *store.Store) (store.SessionState, error) {
	if st == nil {
		return store.SessionState{}, fmt.Errorf("%w: no store", diag.ErrStore)
	}
	if _, err := st.EndSession(ctx); err != nil {
		if errors.Is(err, store.ErrNoOpenSession) {
			return store.SessionState{}, fmt.Errorf("%w: no session is open (start one with `tausik session start`)", diag.ErrUsage)
		}
		return store.SessionState{}, engine.StoreErr(err)
	}
	state, err := st.SessionStatus(ctx)
	return state, engine.StoreErr(err)
}

// SessionStatus reports the open (or most recent) session, its active time
// and the latest handoff.
func SessionStatus(ctx context.Context, st *store.Store) (store.SessionState, error) {
	if st == nil {
		return store.SessionState{}, fmt.Errorf("%w: no store", diag.ErrStore)
	}
	state, err := st.SessionStatus(ctx)
	return state, engine.StoreErr(err)
}

// WriteHandoff stores the note for whoever works next. It needs no open
// session and never touches a session's counters. Empty text is ErrUsage.
func WriteHandoff(ctx context.Context, st *store.Store, text string) (store.Handoff, error) {
	if st == nil {
		return store.Handoff{}, fmt.Errorf("%w: no store", diag.ErrStore)
	}
	if strings.TrimSpace(text) == "" {
		return store.Handoff{}, fmt.Errorf("%w: the handoff text is empty", diag.ErrUsage)
	}
	h, err := st.WriteHandoff(ctx, text)
	return h, engine.StoreErr(err)
}
