package workstate

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"time"
)

// ActiveGapCap is the most one pause between recorded events adds to a
// session's active time: a gap over ten minutes counts as ten, so a lunch
// break does not eat the session's time budget, and a stream of calls does.
const ActiveGapCap = 10 * time.Minute

// Session is one working window of an agent. Its two halves are separate:
// the window (start, end, tool calls) and the handoff note (see WriteHandoff).
type Session struct {
	ID        string // ULID
	StartedAt time.Time
	EndedAt   time.Time // zero while open
	ToolCalls int64     // calls recorded by RecordToolCall; never reset
}

// Open reports whether the session has not ended.
func (s Session) Open() bool { return s.EndedAt.IsZero() }

// Handoff is the latest note for whoever works next.
type Handoff struct {
	Text      string
	WrittenAt time.Time
	SessionID string // the session open when it was written, "" if none
}

// SessionState is what `tausik session status` and the session_capacity gate
// read: the current (open) or most recent session, its active time, and the
// latest handoff.
type SessionState struct {
	Session *Session      // nil when no session was ever started
	Open    bool          // Session is open (session_capacity refuses budgets without one)
	Active  time.Duration // from the start, recorded calls and the end; gaps capped at ActiveGapCap
	Handoff *Handoff      // nil when none was ever written
}

// ActiveMinutes is Active in whole minutes, rounded down.
func (st SessionState) ActiveMinutes() int64 { return int64(st.Active / time.Minute) }

// StartSession opens a new session now. Only one session may be open: the
// unique index makes two racing starts yield one session and one
// ErrSessionOpen.
func (s *Work) StartSession(ctx context.Context) (Session, error) {
	var out Session
	err := s.write(ctx, func(q querier) error {
		if _, err := openSession(ctx, q); err == nil {
			return ErrSessionOpen
		} else if !errors.Is(err, ErrNoOpenSession) {
			return err
		}
		now := s.clock()
		out = Session{ID: NewID(now), StartedAt: now.UTC()}
		_, err := q.ExecContext(ctx, "INSERT INTO sessions (id, started_at, tool_calls) VALUES (?, ?, 0)",
			out.ID, formatTime(now))
		return err
	})
	if err != nil {
		return Session{}, fmt.Errorf("start session: %w", err)
	}
	return out, nil
}

// EndSession closes the open session now and returns it. ErrNoOpenSession if
// none is open. Counters and the handoff are kept.
func (s *Work) EndSession(ctx context.Context) (Session, error) {
	var out Session
	err := s.write(ctx, func(q querier) error {
		sess, err := openSession(ctx, q)
		if err != nil {
			return err
		}
		now := s.clock()
		if _, err := q.ExecContext(ctx, "UPDATE sessions SET ended_at = ? WHERE id = ?", formatTime(now), sess.ID); err != nil {
			return err
		}
		out, err = getSession(ctx, q, sess.ID)
		return err
	})
	if err != nil {
		return Session{}, fmt.Errorf("end session: %w", err)
	}
	return out, nil
}

// OpenSession returns the open session, or ErrNoOpenSession.
func (s *Work) OpenSession(ctx context.Context) (Session, error) {
	sess, err := openSession(ctx, s.db.Conn())
	return sess, classify(err)
}

// OpenSession returns the open session as the transaction sees it.
func (tx *Tx) OpenSession(ctx context.Context) (Session, error) {
	sess, err := openSession(ctx, tx.q)
	return sess, classify(err)
}

const sessionColumns = "id, started_at, ended_at, tool_calls"

func openSession(ctx context.Context, q querier) (Session, error) {
	return scanSession(q.QueryRowContext(ctx, "SELECT "+sessionColumns+" FROM sessions WHERE ended_at IS NULL"))
}

func getSession(ctx context.Context, q querier, id string) (Session, error) {
	return scanSession(q.QueryRowContext(ctx, "SELECT "+sessionColumns+" FROM sessions WHERE id = ?", id))
}

func scanSession(row *sql.Row) (Session, error) {
	var out Session
	var started string
	var ended sql.NullString
	err := row.Scan(&out.ID, &started, &ended, &out.ToolCalls)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, ErrNoOpenSession
	}
	if err != nil {
		return Session{}, fmt.Errorf("read session: %w", err)
	}
	if out.StartedAt, err = parseTime(started); err != nil {
		return Session{}, fmt.Errorf("session %s: started_at: %w", out.ID, err)
	}
	if ended.Valid {
		if out.EndedAt, err = parseTime(ended.String); err != nil {
			return Session{}, fmt.Errorf("session %s: ended_at: %w", out.ID, err)
		}
	}
	return out, nil
}

// RecordToolCall counts one tool call (tool may be "") into the open session
// and returns the session's new total. Hook processes call this concurrently:
// the increment and the call's timestamp row are one write transaction, so
// no count is lost. ErrNoOpenSession when no session is open; hooks should
// treat that as "nothing to count", not as a failure.
func (s *Work) RecordToolCall(ctx context.Context, tool string) (int64, error) {
	var n int64
	err := s.write(ctx, func(q querier) error {
		sess, err := openSession(ctx, q)
		if err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, "UPDATE sessions SET tool_calls = tool_calls + 1 WHERE id = ?", sess.ID); err != nil {
			return err
		}
		n = sess.ToolCalls + 1
		_, err = q.ExecContext(ctx, "INSERT INTO session_calls (session_id, n, at_ms, tool) VALUES (?, ?, ?, ?)",
			sess.ID, n, s.clock().UnixMilli(), tool)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("record tool call: %w", err)
	}
	return n, nil
}

// WriteHandoff stores text as the current handoff note. It works with or
// without an open session and never touches a session's counters: ending the
// window and passing the baton are separate acts.
func (s *Work) WriteHandoff(ctx context.Context, text string) (Handoff, error) {
	var out Handoff
	err := s.write(ctx, func(q querier) error {
		var sid any
		if sess, err := openSession(ctx, q); err == nil {
			sid, out.SessionID = sess.ID, sess.ID
		} else if !errors.Is(err, ErrNoOpenSession) {
			return err
		}
		now := s.clock()
		out.Text, out.WrittenAt = text, now.UTC()
		_, err := q.ExecContext(ctx, "INSERT INTO handoffs (written_at, session_id, text) VALUES (?, ?, ?)",
			formatTime(now), sid, text)
		return err
	})
	if err != nil {
		return Handoff{}, fmt.Errorf("write handoff: %w", err)
	}
	return out, nil
}

// SessionStatus reports the open session, or else the most recent one, with
// its active time, plus the latest handoff.
func (s *Work) SessionStatus(ctx context.Context) (SessionState, error) {
	var st SessionState
	err := s.read(ctx, func(q querier) error {
		var err error
		st, err = sessionStatus(ctx, q)
		return err
	})
	if err != nil {
		return SessionState{}, fmt.Errorf("session status: %w", err)
	}
	return st, nil
}

// SessionStatus reports the session state as the transaction sees it.
func (tx *Tx) SessionStatus(ctx context.Context) (SessionState, error) {
	st, err := sessionStatus(ctx, tx.q)
	if err != nil {
		return SessionState{}, fmt.Errorf("session status: %w", classify(err))
	}
	return st, nil
}

func sessionStatus(ctx context.Context, q querier) (SessionState, error) {
	var st SessionState
	sess, err := scanSession(q.QueryRowContext(ctx, "SELECT "+sessionColumns+
		" FROM sessions ORDER BY ended_at IS NULL DESC, started_at DESC, id DESC LIMIT 1"))
	switch {
	case err == nil:
		st.Session, st.Open = &sess, sess.Open()
		if st.Active, err = activeTime(ctx, q, sess); err != nil {
			return st, err
		}
	case !errors.Is(err, ErrNoOpenSession):
		return st, err
	}
	var h Handoff
	var written string
	var sid sql.NullString
	err = q.QueryRowContext(ctx, "SELECT text, written_at, session_id FROM handoffs ORDER BY id DESC LIMIT 1").
		Scan(&h.Text, &written, &sid)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return st, fmt.Errorf("read handoff: %w", err)
	default:
		if h.WrittenAt, err = parseTime(written); err != nil {
			return st, fmt.Errorf("handoff written_at: %w", err)
		}
		h.SessionID = sid.String
		st.Handoff = &h
	}
	return st, nil
}

func activeTime(ctx context.Context, q querier, sess Session) (time.Duration, error) {
	rows, err := q.QueryContext(ctx, "SELECT at_ms FROM session_calls WHERE session_id = ?", sess.ID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var calls []time.Time
	for rows.Next() {
		var ms int64
		if err := rows.Scan(&ms); err != nil {
			return 0, err
		}
		calls = append(calls, time.UnixMilli(ms))
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	return ActiveDuration(sess.StartedAt, calls, sess.EndedAt), nil
}

// ActiveDuration sums the gaps between consecutive events — the start, each
// call (in time order; a call stamped before the start counts as at the
// start) and the end if non-zero — counting each gap as at most ActiveGapCap
// and a negative gap (clock skew between processes) as zero.
// Idle time after the last event of an open session is not active time.
func ActiveDuration(start time.Time, calls []time.Time, end time.Time) time.Duration {
	events := make([]time.Time, 0, len(calls)+2)
	events = append(events, start)
	for _, c := range calls {
		events = append(events, later(c, start)) // a call stamped before the start happened at the start
	}
	sort.Slice(events, func(i, j int) bool { return events[i].Before(events[j]) })
	if !end.IsZero() {
		events = append(events, end)
	}
	var total time.Duration
	for i := 1; i < len(events); i++ {
		gap := events[i].Sub(events[i-1])
		total += max(0, min(gap, ActiveGapCap))
	}
	return total
}

func later(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}
