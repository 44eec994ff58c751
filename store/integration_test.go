package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tausik/tausik/store/receipt"
)

// The verify_first flow end to end: sign a receipt for a verify run, store
// it, read it back and check it the way the gate will, inside the
// transaction that closes the task.
var _ = contract("verify_run_receipt_round_trip", func(t *testing.T, open opener) {
	ctx := context.Background()
	clock := newClock()
	s := open(t, WithClock(clock.Now))
	root := t.TempDir()
	key, err := receipt.InitKey(receipt.KeyDir(root), false)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	task := mkTask("ship")
	task.Files = []string{"a.py"}
	if _, err := s.CreateTask(ctx, task); err != nil {
		t.Fatal(err)
	}
	filesHash, err := receipt.FilesHash(root, task.Files)
	if err != nil {
		t.Fatal(err)
	}
	gateSig := receipt.GateSignature([]receipt.VerifyGate{{Name: "pytest", Command: []string{"pytest"}, Severity: "block"}})
	ranAt := clock.Now().Truncate(time.Second)
	payload, sig, err := receipt.Sign(receipt.Receipt{Task: "ship", GitSHA: "abc", Passed: true, RanAt: ranAt,
		Gates: []receipt.Gate{{Name: "pytest", Passed: true, Severity: "block"}}, FilesHash: filesHash, GateSignature: gateSig}, key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordVerifyRun(ctx, VerifyRun{Task: "ship", Gates: []VerifyGateResult{{Name: "pytest", Passed: true, Severity: SeverityBlock}},
		FilesHash: filesHash, GateSignature: gateSig, Passed: true, RanAt: ranAt, GitSHA: "abc",
		Receipt: payload, Signature: sig, KeyFingerprint: key.Fingerprint()}); err != nil {
		t.Fatal(err)
	}
	errStale := errors.New("stale")
	err = s.WithTx(ctx, func(tx *Tx) error {
		run, err := tx.LatestVerifyRun(ctx, "ship")
		if err != nil {
			return err
		}
		r, err := receipt.Verify(run.Receipt, run.Signature, key.Public)
		if err != nil {
			return err
		}
		now, err := receipt.FilesHash(root, task.Files)
		if err != nil {
			return err
		}
		if r.Task != "ship" || !r.RanAt.Equal(run.RanAt) || r.FilesHash != now || r.GateSignature != run.GateSignature {
			return errStale
		}
		_, err = tx.MarkTaskDone(ctx, "ship")
		return err
	})
	if err != nil {
		t.Fatalf("close with a fresh signed receipt: %v", err)
	}
	if got, _ := s.GetTask(ctx, "ship"); got.Status != TaskDone {
		t.Fatalf("status %s", got.Status)
	}
})
