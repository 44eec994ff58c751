package workstate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tausik/tausik/internal/canonjson"
)

// A push ticket is a person's leave for one agent `git push`: bound to a
// commit (and a remote and a branch when the person named them), used at
// most once. Its issue and its use each append, in the same transaction, a
// log entry with trigger TriggerPushTicket whose task column is the
// ticket's id (so `tausik log --task ID` shows its history) and whose body
// records the ticket. Only the newest ticket counts: issuing one retires
// every earlier one. A ticket row the log does not record as issued, or
// records as used while the row says otherwise, is an error, never a leave.

// TriggerPushTicket is the trigger of the log entries that record a push
// ticket's issue and use.
const TriggerPushTicket = "push-ticket"

// Push ticket changes, as a push-ticket entry names them.
const (
	PushIssued = "issue"
	PushUsed   = "use"
)

// ErrTicketGone is returned by UsePushTicket when the ticket it was asked to
// use is no longer the newest unused one (another call used it, or a person
// issued a newer one).
var ErrTicketGone = errors.New("the push ticket is used or replaced")

// PushTicket is one ticket.
type PushTicket struct {
	// ID is the ULID of the log entry that issued it.
	ID string `json:"id"`
	// Commit is the full commit hash the push must be at.
	Commit string `json:"commit"`
	// Remote and Branch bind the push when not empty.
	Remote string `json:"remote"`
	Branch string `json:"branch"`
	// PushURL is where a push to Remote went when the ticket was issued
	// ("" when none was recorded).
	PushURL string `json:"push_url"`
	// IssuedAt is when the person issued it; IssuedBy who ("cli").
	IssuedAt time.Time `json:"-"`
	IssuedBy string    `json:"issued_by"`
	// UsedAt is when a push used it (zero: unused); UsedBy the decision
	// that allowed that push.
	UsedAt time.Time `json:"-"`
	UsedBy string    `json:"used_by"`
}

// pushTicketBody is a push-ticket entry's body: the columns every log entry
// mirrors, the change and the ticket.
type pushTicketBody struct {
	Blocked    bool              `json:"blocked"`
	Change     string            `json:"change"`
	DecisionID string            `json:"decision_id"`
	ExitCode   int               `json:"exit_code"`
	Gates      []json.RawMessage `json:"gates"`
	GitHead    string            `json:"git_head"`
	Request    struct {
		Task    string `json:"task"`
		Trigger string `json:"trigger"`
	} `json:"request"`
	Requester string      `json:"requester"`
	Schema    string      `json:"schema"`
	Ticket    ticketState `json:"ticket"`
	Time      string      `json:"time"`
}

// ticketState is a ticket as its entries record it.
type ticketState struct {
	Branch   string `json:"branch"`
	Commit   string `json:"commit"`
	ID       string `json:"id"`
	IssuedAt string `json:"issued_at"`
	IssuedBy string `json:"issued_by"`
	PushURL  string `json:"push_url,omitempty"`
	Remote   string `json:"remote"`
	UsedAt   string `json:"used_at"`
	UsedBy   string `json:"used_by"`
}

func stateOfTicket(t PushTicket) ticketState {
	s := ticketState{Branch: t.Branch, Commit: t.Commit, ID: t.ID, IssuedAt: formatTime(t.IssuedAt), IssuedBy: t.IssuedBy,
		PushURL: t.PushURL, Remote: t.Remote, UsedBy: t.UsedBy}
	if !t.UsedAt.IsZero() {
		s.UsedAt = formatTime(t.UsedAt)
	}
	return s
}

// IssuePushTicket records a new ticket for commit (remote and branch may be
// empty: any; pushURL, where a push to remote goes now, may be empty: none
// recorded), issued now by the requester ctx carries, and its log entry.
func (s *Work) IssuePushTicket(ctx context.Context, commit, remote, branch, pushURL string) (PushTicket, error) {
	if commit == "" {
		return PushTicket{}, errors.New("issue push ticket: no commit")
	}
	at := s.clock().UTC()
	t := PushTicket{ID: NewID(at), Commit: commit, Remote: remote, Branch: branch, PushURL: pushURL, IssuedAt: at, IssuedBy: requesterOf(ctx)}
	err := s.write(ctx, func(q querier) error {
		if _, err := q.ExecContext(ctx, `INSERT INTO push_tickets (id, commit_sha, remote, branch, push_url, issued_at, issued_by)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, t.ID, t.Commit, t.Remote, t.Branch, t.PushURL, formatTime(t.IssuedAt), t.IssuedBy); err != nil {
			return err
		}
		return appendTicketEntry(ctx, q, t.ID, at, t, PushIssued, commit)
	})
	if err != nil {
		return PushTicket{}, fmt.Errorf("issue push ticket: %w", err)
	}
	return t, nil
}

// LatestPushTicket returns the newest ticket, checked against its log
// entries, or ErrNotFound when none was ever issued.
func (s *Work) LatestPushTicket(ctx context.Context) (PushTicket, error) {
	var t PushTicket
	err := s.read(ctx, func(q querier) error {
		var err error
		t, err = latestTicket(ctx, q)
		return err
	})
	if err != nil {
		return PushTicket{}, fmt.Errorf("read push ticket: %w", err)
	}
	return t, nil
}

// UsePushTicket marks ticket id used by the decision usedBy and logs the
// use, if id is still the newest ticket and unused; else ErrTicketGone.
func (s *Work) UsePushTicket(ctx context.Context, id, usedBy string) error {
	err := s.write(ctx, func(q querier) error {
		t, err := latestTicket(ctx, q)
		switch {
		case errors.Is(err, ErrNotFound):
			return ErrTicketGone
		case err != nil:
			return err
		case t.ID != id || !t.UsedAt.IsZero():
			return ErrTicketGone
		}
		at := s.clock().UTC()
		t.UsedAt, t.UsedBy = at, usedBy
		res, err := q.ExecContext(ctx, "UPDATE push_tickets SET used_at = ?, used_by = ? WHERE id = ? AND used_at = ''",
			formatTime(at), usedBy, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return ErrTicketGone
		}
		return appendTicketEntry(ctx, q, NewID(at), at, t, PushUsed, t.Commit)
	})
	if err != nil {
		return fmt.Errorf("use push ticket %s: %w", id, err)
	}
	return nil
}

func appendTicketEntry(ctx context.Context, q querier, entryID string, at time.Time, t PushTicket, change, gitHead string) error {
	b := pushTicketBody{Change: change, DecisionID: entryID, Gates: []json.RawMessage{}, GitHead: gitHead,
		Requester: requesterOf(ctx), Schema: "tausik-push-ticket/v1", Ticket: stateOfTicket(t), Time: formatTime(at)}
	b.Request.Task, b.Request.Trigger = t.ID, TriggerPushTicket
	body, err := canonjson.Marshal(b)
	if err != nil {
		return err
	}
	rec, err := prepareDecision(Decision{ID: entryID, Time: at, Trigger: TriggerPushTicket, Task: t.ID, GitHead: gitHead,
		Requester: b.Requester, Gates: []GateVerdict{}, Body: body}, func() time.Time { return at })
	if err != nil {
		return err
	}
	_, err = appendRecord(ctx, q, rec)
	return err
}

// latestTicket reads the newest ticket row and holds it to its log entries:
// an issue entry recording exactly the row, and a use entry exactly when the
// row says it was used.
func latestTicket(ctx context.Context, q querier) (PushTicket, error) {
	var t PushTicket
	var issued, used string
	err := q.QueryRowContext(ctx, `SELECT id, commit_sha, remote, branch, push_url, issued_at, issued_by, used_at, used_by
		FROM push_tickets ORDER BY issued_at DESC, id DESC LIMIT 1`).
		Scan(&t.ID, &t.Commit, &t.Remote, &t.Branch, &t.PushURL, &issued, &t.IssuedBy, &used, &t.UsedBy)
	if isNoRows(err) {
		return t, ErrNotFound
	}
	if err != nil {
		return t, err
	}
	if t.IssuedAt, err = parseTime(issued); err != nil {
		return t, fmt.Errorf("ticket %s: issued_at %q: %w", t.ID, issued, err)
	}
	if used != "" {
		if t.UsedAt, err = parseTime(used); err != nil {
			return t, fmt.Errorf("ticket %s: used_at %q: %w", t.ID, used, err)
		}
	}
	rows, err := q.QueryContext(ctx, "SELECT body FROM decisions WHERE task = ? AND trigger = ? ORDER BY seq", t.ID, TriggerPushTicket)
	if err != nil {
		return t, err
	}
	defer rows.Close()
	var sawIssue, sawUse bool
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return t, err
		}
		var b pushTicketBody
		if err := json.Unmarshal([]byte(raw), &b); err != nil {
			return t, fmt.Errorf("ticket %s: a log entry records no ticket: %w", t.ID, err)
		}
		want := stateOfTicket(t)
		switch b.Change {
		case PushIssued:
			want.UsedAt, want.UsedBy = "", ""
			sawIssue = b.Ticket == want
		case PushUsed:
			sawUse = b.Ticket == want
			if !sawUse {
				return t, fmt.Errorf("ticket %s: %w: the log records its use, the table does not", t.ID, ErrTicketTampered)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return t, err
	}
	if !sawIssue || (!t.UsedAt.IsZero() && !sawUse) {
		return t, fmt.Errorf("ticket %s: %w: the log does not record it as the table holds it", t.ID, ErrTicketTampered)
	}
	return t, nil
}

// ErrTicketTampered marks a push ticket row that differs from what the log
// records of it: changed outside tausik, so it allows nothing.
var ErrTicketTampered = errors.New("push ticket changed outside tausik")
