package store

import (
	"context"
	"path/filepath"
	"slices"
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
// mode with synchronous=FULL: one BEGIN IMMEDIATE transaction (chain link,
// gate rows, the tree's leaf and completed subtree hashes), one fsync. It
// reports the median as p50-ns.
func BenchmarkAppendDecision(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "tausik.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ds := benchDecisions(b.N)
	took := make([]time.Duration, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		if _, err := s.AppendDecision(ctx, ds[i]); err != nil {
			b.Fatal(err)
		}
		took[i] = time.Since(t0)
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
}

// benchLog fills a file-backed store with rows decisions in one transaction.
func benchLog(b *testing.B, rows int) *Store {
	b.Helper()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "tausik.db"))
	if err != nil {
		b.Fatal(err)
	}
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
	// Reopen: closing checkpoints the WAL the one big transaction left, as
	// SQLite does for a log that grew over many appends.
	p := s.Path()
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	if s, err = Open(ctx, p); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkProveDecision measures `log prove`'s store work on a 10,000-row
// log: find the decision, read the O(log n) hashes of its inclusion proof
// and of the tree head.
func BenchmarkProveDecision(b *testing.B) {
	ctx := context.Background()
	s := benchLog(b, 10_000)
	es, err := s.ListDecisions(ctx, Filter{Limit: 4321})
	if err != nil {
		b.Fatal(err)
	}
	id := es[len(es)-1].ID
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := s.ProveDecision(ctx, id, 0); err != nil {
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
	s := benchLog(b, rows)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		rep, err := s.VerifyLog(ctx)
		if err != nil || !rep.OK || rep.Size != rows {
			b.Fatalf("verify: %+v %v", rep.Break, err)
		}
	}
}
