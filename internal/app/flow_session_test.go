package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/internal/project"
	"github.com/tausik/tausik/store"
)

// openTestStore opens a fresh project store in a throwaway directory.
func openTestStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := project.OpenStore(context.Background(), t.TempDir(), func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestFlowSessions(t *testing.T) {
	ctx := context.Background()
	st := openTestStore(t)
	if _, err := EndSession(ctx, st); !errors.Is(err, diag.ErrUsage) {
		t.Fatalf("end without a session: %v", err)
	}
	// A handoff needs no session.
	if h, err := WriteHandoff(ctx, st, "read the parser notes"); err != nil || h.SessionID != "" {
		t.Fatalf("handoff without a session: %+v %v", h, err)
	}
	if _, err := WriteHandoff(ctx, st, "  "); !errors.Is(err, diag.ErrUsage) {
		t.Fatalf("empty handoff: %v", err)
	}
	s, err := StartSession(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := StartSession(ctx, st); !errors.Is(err, diag.ErrUsage) || !strings.Contains(err.Error(), s.ID) {
		t.Fatalf("second session: %v", err)
	}
	if _, err := st.RecordToolCall(ctx, "Edit"); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteHandoff(ctx, st, "second note"); err != nil {
		t.Fatal(err)
	}
	state, err := EndSession(ctx, st)
	if err != nil || state.Open || state.Session.ToolCalls != 1 || state.Handoff.Text != "second note" || state.Handoff.SessionID != s.ID {
		t.Fatalf("ended session: %+v %v", state, err)
	}
}

func TestLogQueryFilter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f, err := LogQuery{Gate: "verify_first", Outcome: "failed", Since: "3h", Tail: 5}.Filter(now)
	if err != nil || f.Outcome != store.OutcomeFailed || !f.Since.Equal(now.Add(-3*time.Hour)) || f.Tail != 5 {
		t.Fatalf("filter: %+v %v", f, err)
	}
	f, err = LogQuery{Since: "2d"}.Filter(now)
	if err != nil || !f.Since.Equal(now.Add(-48*time.Hour)) {
		t.Fatalf("days: %+v %v", f, err)
	}
	f, err = LogQuery{Between: "2026-02-01,2026-02-02T06:00:00Z"}.Filter(now)
	if err != nil || f.Since.Day() != 1 || f.Until.Hour() != 6 {
		t.Fatalf("between: %+v %v", f, err)
	}
	for _, bad := range []LogQuery{
		{Outcome: "GREEN"}, {Since: "yesterday"}, {Since: "-3h"}, {Since: "3h", Between: "2026-01-01,2026-01-02"},
		{Between: "2026-01-01"}, {Between: "2026-01-02,2026-01-01"}, {Between: "3h,1h"}, {Tail: -1},
	} {
		if _, err := bad.Filter(now); !errors.Is(err, diag.ErrUsage) {
			t.Errorf("%+v: %v, want a usage error", bad, err)
		}
	}
}
