package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

func benchDecisions(n int) []Decision {
	ds := make([]Decision, n)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range ds {
		ds[i] = mkDecision(at.Add(time.Duration(i)*time.Millisecond), "commit", "bench",
			gateSpec{"filesize", OutcomeFailed, SeverityBlock}, gateSpec{"ruff", OutcomePassed, SeverityBlock},
			gateSpec{"tdd_order", OutcomeNotApplicable, SeverityWarn})
	}
	return ds
}

// BenchmarkAppendDecision measures one append on a file-backed store in WAL
// mode with synchronous=FULL: one BEGIN IMMEDIATE transaction, one fsync.
func BenchmarkAppendDecision(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "tausik.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ds := benchDecisions(b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.AppendDecision(ctx, ds[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyChain measures a full verification of a 10,000-row log.
func BenchmarkVerifyChain(b *testing.B) {
	const rows = 10_000
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "tausik.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ds := benchDecisions(rows)
	err = s.WithTx(ctx, func(tx *Tx) error {
		for _, d := range ds {
			if _, err := tx.AppendDecision(ctx, d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rep, err := s.VerifyChain(ctx)
		if err != nil || !rep.OK || rep.Rows != rows {
			b.Fatalf("verify: %+v %v", rep, err)
		}
	}
}

// BenchmarkVerifyLog measures `log verify`'s store pass over a 100,000-row
// log: every body hashed into its leaf, the tree rebuilt and compared with
// the stored hashes, columns and gate rows compared with the bodies.
func BenchmarkVerifyLog(b *testing.B) {
	const rows = 100_000
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "tausik.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ds := benchDecisions(rows)
	err = s.WithTx(ctx, func(tx *Tx) error {
		for _, d := range ds {
			if _, err := tx.AppendDecision(ctx, d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rep, err := s.VerifyLog(ctx)
		if err != nil || !rep.OK || rep.Size != rows {
			b.Fatalf("verify: %+v %v", rep.Break, err)
		}
	}
}
