package decisionlog

import (
	"github.com/tausik/tausik/store/internal/sqldb"

	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Filter selects decisions for ListDecisions and ExportDecisions. Zero fields
// do not filter. Results always come oldest first (newest last), like a log
// file; Tail picks the newest N matches and still returns them oldest first.
type Filter struct {
	Gate    string  // decisions with a verdict for this gate
	Outcome Outcome // with Gate: that gate had this outcome; alone: any gate had it
	Task    string  // decisions about this task
	Trigger string  // decisions for this trigger
	// Requester: decisions asked for by this requester ("cli", "hook:claude"…).
	Requester string
	// Blocked: alone, decisions that blocked (true) or did not (false); with
	// Gate, decisions in which that gate's verdict blocked or did not.
	Blocked *bool
	Since   time.Time // time >= Since
	Until   time.Time // time < Until
	Tail    int       // the newest N matches
	Limit   int       // the oldest N matches; at most one of Tail and Limit
}

// entryColumns selects one decision row, its gates column included.
const entryColumns = `d.seq, d.id, d.time, d.trigger, d.task, d.requester, d.git_head,
	d.exit_code, d.blocked, d.body, d.prev_hash, d.hash, d.gates`

func (f Filter) query() (string, []any, error) {
	if f.Tail < 0 || f.Limit < 0 {
		return "", nil, fmt.Errorf("%w: negative count", sqldb.ErrInvalidFilter)
	}
	if f.Tail > 0 && f.Limit > 0 {
		return "", nil, fmt.Errorf("%w: use Tail or Limit, not both", sqldb.ErrInvalidFilter)
	}
	if f.Outcome != "" && !f.Outcome.Valid() {
		return "", nil, fmt.Errorf("%w: unknown outcome %q", sqldb.ErrInvalidFilter, f.Outcome)
	}
	var where []string
	var args []any
	if f.Task != "" {
		where, args = append(where, "d.task = ?"), append(args, f.Task)
	}
	if f.Trigger != "" {
		where, args = append(where, "d.trigger = ?"), append(args, f.Trigger)
	}
	if f.Requester != "" {
		where, args = append(where, "d.requester = ?"), append(args, f.Requester)
	}
	if f.Blocked != nil && f.Gate == "" {
		blocked := 0
		if *f.Blocked {
			blocked = 1
		}
		where, args = append(where, "d.blocked = ?"), append(args, blocked)
	}
	if !f.Since.IsZero() {
		where, args = append(where, "d.time >= ?"), append(args, sqldb.FormatTime(f.Since))
	}
	if !f.Until.IsZero() {
		where, args = append(where, "d.time < ?"), append(args, sqldb.FormatTime(f.Until))
	}
	if f.Gate != "" || f.Outcome != "" {
		var blocks *bool
		if f.Gate != "" {
			blocks = f.Blocked
		}
		where = append(where, sqldb.GateMatchSQL)
		args = append(args, gateNeedle(blocks, f.Gate, f.Outcome))
	}
	q := "SELECT " + entryColumns + " FROM decisions d"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	switch {
	case f.Tail > 0:
		q = "SELECT * FROM (" + q + " ORDER BY d.seq DESC LIMIT ?) AS tail ORDER BY 1"
		args = append(args, f.Tail)
	case f.Limit > 0:
		q += " ORDER BY d.seq LIMIT ?"
		args = append(args, f.Limit)
	default:
		q += " ORDER BY d.seq"
	}
	return q, args, nil
}

// ListDecisions returns the decisions matching f, oldest first.
func (s *Log) ListDecisions(ctx context.Context, f Filter) ([]Entry, error) {
	var out []Entry
	q, args, err := f.query()
	if err == nil {
		err = s.eachRecord(ctx, q, args, func(rec *Record) error {
			out = append(out, rec.entry())
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("list decisions: %w", err)
	}
	return out, nil
}

// GetDecision returns one decision by its full ULID or by a unique prefix of
// at least 6 characters (case-insensitive), the way git accepts short commit
// ids. ULIDs start with their timestamp, so short prefixes of recent
// decisions are often shared: an ambiguous prefix is sqldb.ErrAmbiguousID, never a
// guess. No match is sqldb.ErrNotFound.
func (s *Log) GetDecision(ctx context.Context, id string) (Entry, error) {
	p := strings.ToUpper(strings.TrimSpace(id))
	if len(p) < 6 || len(p) > 26 || strings.Trim(p, "0123456789ABCDEFGHJKMNPQRSTVWXYZ") != "" {
		return Entry{}, fmt.Errorf("get decision %q: %w (give the full id or a prefix of at least 6 characters)", id, sqldb.ErrNotFound)
	}
	q := sqldb.Hot("SELECT " + entryColumns + " FROM decisions d WHERE d.id >= ? AND d.id <= ? ORDER BY d.id LIMIT 2")
	var found []Entry
	err := s.eachRecord(ctx, q, []any{p, p + "~"}, func(rec *Record) error {
		found = append(found, rec.entry())
		return nil
	})
	switch {
	case err != nil:
		return Entry{}, fmt.Errorf("get decision %s: %w", id, err)
	case len(found) == 0:
		return Entry{}, fmt.Errorf("get decision %s: %w", id, sqldb.ErrNotFound)
	case len(found) > 1 && found[0].ID != p:
		return Entry{}, fmt.Errorf("get decision %s: %w", id, sqldb.ErrAmbiguousID)
	}
	return found[0], nil
}

// eachRecord streams the rows query selects (with entryColumns) inside one
// read snapshot. A damaged row ends the stream with an error naming it.
func (s *Log) eachRecord(ctx context.Context, query string, args []any, fn func(*Record) error) error {
	return s.db.Read(ctx, func(qr sqldb.Querier) error {
		rows, err := qr.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			rec, prob, err := scanRecord(rows)
			if err != nil {
				return err
			}
			if prob != nil {
				return damaged(rec.seq, prob)
			}
			if err := fn(rec); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

func damaged(seq int64, m *mismatch) error {
	return fmt.Errorf("%w: row seq %d is damaged (%s: %s); run the chain verification",
		sqldb.ErrChainBroken, seq, m.column, m.detail)
}

func (rec *Record) entry() Entry {
	t, _ := sqldb.ParseTime(rec.time)
	return Entry{
		Decision: Decision{
			ID: rec.id, Time: t.UTC(), Trigger: rec.trigger, Task: rec.task, Requester: rec.requester,
			GitHead: rec.gitHead, ExitCode: int(rec.exitCode), Blocked: rec.blocked,
			Gates: append([]GateVerdict{}, rec.gates...), Body: json.RawMessage(bytes.Clone(rec.body)),
		},
		Seq: rec.seq, PrevHash: rec.prevHash, Hash: rec.hash,
	}
}

// scanRecord reads one row selected with entryColumns. Values whose storage
// type or shape is not what the append path writes are reported as a
// mismatch (the row was edited), not as an error, so VerifyChain can name
// the column; err is only for I/O.
func scanRecord(rows *sql.Rows) (*Record, *mismatch, error) {
	var v [13]any
	ptrs := make([]any, len(v))
	for i := range v {
		ptrs[i] = &v[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, nil, err
	}
	rec := &Record{}
	seq, ok := v[0].(int64)
	if !ok {
		return rec, &mismatch{"seq", fmt.Sprintf("not an integer: %v", v[0])}, nil
	}
	rec.seq = seq
	texts := []struct {
		column string
		val    any
		dst    *string
	}{
		{"id", v[1], &rec.id}, {"time", v[2], &rec.time}, {"trigger", v[3], &rec.trigger},
		{"task", v[4], &rec.task}, {"requester", v[5], &rec.requester}, {"git_head", v[6], &rec.gitHead},
		{"prev_hash", v[10], &rec.prevHash}, {"hash", v[11], &rec.hash},
	}
	for _, t := range texts {
		s, ok := t.val.(string)
		if !ok {
			return rec, &mismatch{t.column, fmt.Sprintf("not text: %T", t.val)}, nil
		}
		*t.dst = s
	}
	body, ok := v[9].(string)
	if !ok {
		return rec, &mismatch{"body", fmt.Sprintf("not text: %T", v[9])}, nil
	}
	rec.body = []byte(body)
	if rec.exitCode, ok = v[7].(int64); !ok {
		return rec, &mismatch{"exit_code", fmt.Sprintf("not an integer: %v", v[7])}, nil
	}
	blocked, ok := v[8].(int64)
	if !ok || (blocked != 0 && blocked != 1) {
		return rec, &mismatch{"blocked", fmt.Sprintf("not 0 or 1: %v", v[8])}, nil
	}
	rec.blocked = blocked == 1
	gates, ok := v[12].(string)
	if !ok {
		return rec, &mismatch{gatesColumn, fmt.Sprintf("not text: %T", v[12])}, nil
	}
	var m *mismatch
	rec.gates, m = decodeGates(gates)
	return rec, m, nil
}
