package store

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkAppendP50 measures one append per backend and reports the median
// (p50-ms) beside the mean: a shared server's latency has a long tail (other
// writers hold the head row), and the median is what a hook waits for.
// SQLite: a file in WAL mode with synchronous=FULL. PostgreSQL: the server of
// TAUSIK_TEST_POSTGRES over TCP, one transaction locking the head row.
func BenchmarkAppendP50(b *testing.B) {
	ctx := context.Background()
	b.Run("sqlite", func(b *testing.B) {
		s, err := Open(ctx, filepath.Join(b.TempDir(), "tausik.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchAppends(b, s)
	})
	b.Run("postgres", func(b *testing.B) {
		s, err := OpenPostgres(ctx, newPostgresSchema(b))
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		benchAppends(b, s)
	})
}

func benchAppends(b *testing.B, s *Store) {
	ctx := context.Background()
	ds := benchDecisions(b.N)
	took := make([]time.Duration, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		if _, err := s.AppendDecision(ctx, ds[i]); err != nil {
			b.Fatal(err)
		}
		took[i] = time.Since(start)
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkVerifyLogPostgres is BenchmarkVerifyLog on the server of
// TAUSIK_TEST_POSTGRES, one read snapshot, one reader, over 10,000
// decisions: appending 100,000 one by one takes the better part of an hour
// on a shared machine.
func BenchmarkVerifyLogPostgres(b *testing.B) {
	const rows = 10_000
	ctx := context.Background()
	s, err := OpenPostgres(ctx, newPostgresSchema(b))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ds := benchDecisions(rows)
	if err := s.WithTx(ctx, func(tx *Tx) error {
		for _, d := range ds {
			if _, err := tx.AppendDecision(ctx, d); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
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
