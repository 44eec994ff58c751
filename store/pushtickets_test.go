package store

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// A push ticket is issued and spent once, each in the log; a newer ticket
// retires the older; a row changed outside the store allows nothing.
var _ = contract("push_tickets", func(t *testing.T, open opener) {
	ctx := WithRequester(context.Background(), "cli")
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	if _, err := s.LatestPushTicket(ctx); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no ticket yet: %v", err)
	}
	if _, err := s.IssuePushTicket(ctx, "", "", "", ""); err == nil {
		t.Fatal("a ticket without a commit was issued")
	}
	old, err := s.IssuePushTicket(ctx, "c0ffee", "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	tk, err := s.IssuePushTicket(ctx, "c0ffee", "origin", "main", "/srv/origin.git")
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.LatestPushTicket(ctx)
	if err != nil || got.ID != tk.ID || got.Remote != "origin" || got.Branch != "main" || got.PushURL != "/srv/origin.git" || got.IssuedBy != "cli" ||
		!got.IssuedAt.Equal(clock.Now()) || !got.UsedAt.IsZero() {
		t.Fatalf("latest %+v %v, want %+v", got, err, tk)
	}
	if err := s.UsePushTicket(ctx, old.ID, "01J0000000000000000000000D"); !errors.Is(err, ErrTicketGone) {
		t.Fatalf("spending a retired ticket: %v", err)
	}
	if err := s.UsePushTicket(ctx, tk.ID, "01J0000000000000000000000D"); err != nil {
		t.Fatal(err)
	}
	if err := s.UsePushTicket(ctx, tk.ID, "01J0000000000000000000000E"); !errors.Is(err, ErrTicketGone) {
		t.Fatalf("spending it twice: %v", err)
	}
	got, err = s.LatestPushTicket(ctx)
	if err != nil || got.UsedAt.IsZero() || got.UsedBy != "01J0000000000000000000000D" {
		t.Fatalf("after use %+v %v", got, err)
	}
	entries, err := s.ListDecisions(ctx, Filter{Task: tk.ID})
	if err != nil || len(entries) != 2 || entries[0].Trigger != TriggerPushTicket || entries[0].ID != tk.ID {
		t.Fatalf("the ticket's log entries: %+v %v", entries, err)
	}
	if rep, err := s.VerifyChain(ctx); err != nil || !rep.OK {
		t.Fatalf("verify: %+v %v", rep, err)
	}

	for _, tamper := range []string{
		"UPDATE push_tickets SET used_at = '', used_by = ''",
		"UPDATE push_tickets SET commit_sha = 'beef'",
		"UPDATE push_tickets SET remote = ''",
		"UPDATE push_tickets SET push_url = '/srv/evil.git'",
	} {
		if _, err := s.db.Conn().ExecContext(ctx, tamper+" WHERE id = ?", tk.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LatestPushTicket(ctx); !errors.Is(err, ErrTicketTampered) {
			t.Errorf("%s: %v, want ErrTicketTampered", tamper, err)
		}
	}
	// A row inserted by hand has no issue entry.
	if _, err := s.db.Conn().ExecContext(ctx, `INSERT INTO push_tickets (id, commit_sha, remote, branch, issued_at, issued_by)
		VALUES ('01J0000000000000000000000F', 'c0ffee', '', '', '2099-01-01T00:00:00Z', 'cli')`); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LatestPushTicket(ctx); !errors.Is(err, ErrTicketTampered) {
		t.Errorf("a hand-made ticket: %v, want ErrTicketTampered", err)
	}
})

// TestPushTicketRace has two handles on one SQLite file (two hook
// processes) race for each of 20 tickets, each reading the newest ticket
// and then spending it, released together: exactly one spends it, the
// other is told ErrTicketGone, and the log records one use per ticket.
func TestPushTicketRace(t *testing.T) {
	ctx := WithRequester(context.Background(), "cli")
	path := filepath.Join(t.TempDir(), "tausik.db")
	var handles [2]*Store
	for i := range handles {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		handles[i] = s
	}
	for round := range 20 {
		tk, err := handles[0].IssuePushTicket(ctx, "c0ffee", "origin", "main", "")
		if err != nil {
			t.Fatal(err)
		}
		start := make(chan struct{})
		errs := make([]error, len(handles))
		var wg sync.WaitGroup
		for i, s := range handles {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				latest, err := s.LatestPushTicket(ctx)
				if err == nil {
					err = s.UsePushTicket(ctx, latest.ID, NewID(time.Now()))
				}
				errs[i] = err
			}()
		}
		close(start)
		wg.Wait()
		won, gone := 0, 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case errors.Is(err, ErrTicketGone):
				gone++
			default:
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if won != 1 || gone != 1 {
			t.Fatalf("round %d: %d calls spent the ticket and %d were told it is gone (%v), want 1 and 1", round, won, gone, errs)
		}
		entries, err := handles[1].ListDecisions(ctx, Filter{Task: tk.ID})
		if err != nil || len(entries) != 2 {
			t.Fatalf("round %d: the ticket's log entries: %d %v, want issue and one use", round, len(entries), err)
		}
	}
}
