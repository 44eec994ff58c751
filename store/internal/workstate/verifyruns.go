package workstate

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// VerifyGateResult is one verify gate's result inside a run.
type VerifyGateResult struct {
	Name     string
	Passed   bool
	Severity Severity
}

// VerifyRun is one `tausik verify --task` execution: what ran, over which
// files, and the signed receipt that lets verify_first trust it later. The
// store does not check the receipt (package receipt does, in the gate); it
// keeps the bytes exactly so the signature still verifies.
type VerifyRun struct {
	ID             int64 // assigned by RecordVerifyRun
	Task           string
	Gates          []VerifyGateResult
	FilesHash      string // receipt.FilesHash of the task's declared files
	GateSignature  string // receipt.GateSignature of the enabled verify gates
	ExitCode       int
	Passed         bool      // every blocking gate passed
	RanAt          time.Time // zero means now; receipts keep it to the second
	GitSHA         string
	Receipt        json.RawMessage // canonical receipt JSON; empty when no key was available
	Signature      []byte          // ed25519 signature over Receipt; empty when unsigned
	KeyFingerprint string          // receipt.Fingerprint of the signing key
}

// RecordVerifyRun stores r for its task (which must exist: ErrNotFound) and
// returns it with its ID. A zero RanAt means now.
func (s *Work) RecordVerifyRun(ctx context.Context, r VerifyRun) (VerifyRun, error) {
	if err := validateVerifyRun(&r); err != nil {
		return VerifyRun{}, fmt.Errorf("record verify run: %w", err)
	}
	if r.RanAt.IsZero() {
		r.RanAt = s.clock()
	}
	r.RanAt = r.RanAt.UTC()
	err := s.write(ctx, func(q querier) error {
		if _, err := getTask(ctx, q, r.Task); err != nil {
			return err
		}
		// RETURNING, not LastInsertId: both backends have it, pgx has no LastInsertId.
		err := q.QueryRowContext(ctx, `INSERT INTO verify_runs (task, ran_at, git_sha, files_hash, gate_signature,
			exit_code, passed, receipt, signature, key_fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			r.Task, formatTime(r.RanAt), r.GitSHA, r.FilesHash, r.GateSignature, int64(r.ExitCode),
			boolInt(r.Passed), string(r.Receipt), nonNil(r.Signature), r.KeyFingerprint).Scan(&r.ID)
		if err != nil {
			return err
		}
		for i, g := range r.Gates {
			if _, err := q.ExecContext(ctx, `INSERT INTO verify_run_gates (run_id, idx, name, passed, severity)
				VALUES (?, ?, ?, ?, ?)`, r.ID, i, g.Name, boolInt(g.Passed), string(g.Severity)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return VerifyRun{}, fmt.Errorf("record verify run for %s: %w", r.Task, err)
	}
	return r, nil
}

func validateVerifyRun(r *VerifyRun) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidVerifyRun, fmt.Sprintf(format, args...))
	}
	if !ValidSlug(r.Task) {
		return bad("task %q is not a valid slug", r.Task)
	}
	if r.FilesHash == "" || r.GateSignature == "" {
		return bad("files hash and gate signature are required")
	}
	for i, g := range r.Gates {
		if strings.TrimSpace(g.Name) == "" {
			return bad("gate %d: empty name", i)
		}
		if !g.Severity.Valid() {
			return bad("gate %s: unknown severity %q", g.Name, g.Severity)
		}
	}
	if len(r.Receipt) > 0 && !json.Valid(r.Receipt) {
		return bad("receipt is not JSON")
	}
	if (len(r.Receipt) == 0) != (len(r.Signature) == 0) {
		return bad("receipt and signature go together")
	}
	return nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// LatestVerifyRun returns the newest run for task, or ErrNotFound. "Newest"
// is insertion order, not RanAt, so a skewed clock cannot resurrect an old run.
func (s *Work) LatestVerifyRun(ctx context.Context, task string) (VerifyRun, error) {
	var run VerifyRun
	err := s.read(ctx, func(q querier) error {
		var err error
		run, err = latestVerifyRun(ctx, q, task)
		return err
	})
	return run, err
}

// LatestVerifyRun reads the newest run for task inside the transaction, so
// the verify_first check and the close it allows see the same state.
func (tx *Tx) LatestVerifyRun(ctx context.Context, task string) (VerifyRun, error) {
	run, err := latestVerifyRun(ctx, tx.q, task)
	return run, classify(err)
}

func latestVerifyRun(ctx context.Context, q querier, task string) (VerifyRun, error) {
	runs, err := verifyRuns(ctx, q, task, true)
	if err != nil {
		return VerifyRun{}, err
	}
	if len(runs) == 0 {
		return VerifyRun{}, fmt.Errorf("verify run for %s: %w", task, ErrNotFound)
	}
	return runs[0], nil
}

// VerifyRuns returns every run for task, oldest first.
func (s *Work) VerifyRuns(ctx context.Context, task string) ([]VerifyRun, error) {
	var runs []VerifyRun
	err := s.read(ctx, func(q querier) error {
		var err error
		runs, err = verifyRuns(ctx, q, task, false)
		return err
	})
	return runs, err
}

func verifyRuns(ctx context.Context, qr querier, task string, latest bool) ([]VerifyRun, error) {
	q := `SELECT id, task, ran_at, git_sha, files_hash, gate_signature, exit_code, passed, receipt,
		signature, key_fingerprint FROM verify_runs WHERE task = ? ORDER BY id`
	if latest {
		q += " DESC LIMIT 1"
	}
	rows, err := qr.QueryContext(ctx, q, task)
	if err != nil {
		return nil, fmt.Errorf("verify runs for %s: %w", task, err)
	}
	defer rows.Close()
	var out []VerifyRun
	for rows.Next() {
		var r VerifyRun
		var ranAt, receipt string
		var passed int64
		if err := rows.Scan(&r.ID, &r.Task, &ranAt, &r.GitSHA, &r.FilesHash, &r.GateSignature, &r.ExitCode,
			&passed, &receipt, &r.Signature, &r.KeyFingerprint); err != nil {
			return nil, fmt.Errorf("verify runs for %s: %w", task, err)
		}
		r.Passed = passed == 1
		if receipt != "" {
			r.Receipt = json.RawMessage(receipt)
		}
		if r.RanAt, err = parseTime(ranAt); err != nil {
			return nil, fmt.Errorf("verify run %d: ran_at: %w", r.ID, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("verify runs for %s: %w", task, err)
	}
	rows.Close()
	for i := range out {
		if out[i].Gates, err = verifyRunGates(ctx, qr, out[i].ID); err != nil {
			return nil, fmt.Errorf("verify run %d: gates: %w", out[i].ID, err)
		}
	}
	return out, nil
}

func verifyRunGates(ctx context.Context, q querier, id int64) ([]VerifyGateResult, error) {
	rows, err := q.QueryContext(ctx, "SELECT name, passed, severity FROM verify_run_gates WHERE run_id = ? ORDER BY idx", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []VerifyGateResult{}
	for rows.Next() {
		var g VerifyGateResult
		var passed int64
		if err := rows.Scan(&g.Name, &passed, &g.Severity); err != nil {
			return nil, err
		}
		g.Passed = passed == 1
		out = append(out, g)
	}
	return out, rows.Err()
}
