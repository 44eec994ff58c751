package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/sqldb"
)

// TestBusyRetryOutlastsBusyTimeout: with a busy timeout far shorter than the
// time another store holds the write lock, an append still succeeds through
// the retry loop once the lock is released.
func TestBusyRetryOutlastsBusyTimeout(t *testing.T) {
	ctx := context.Background()
	p := newFileDB(t)
	holder, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	waiter, err := Open(ctx, p, WithBusyTimeout(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()

	locked, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- holder.WithTx(ctx, func(tx *Tx) error {
			if _, err := tx.AppendDecision(ctx, mkDecision(time.Now(), "commit", "holder")); err != nil {
				return err
			}
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	appended := make(chan error, 1)
	go func() {
		_, err := waiter.AppendDecision(ctx, mkDecision(time.Now(), "commit", "waiter"))
		appended <- err
	}()
	time.Sleep(50 * time.Millisecond) // let the waiter hit SQLITE_BUSY and start backing off
	select {
	case err := <-appended:
		t.Fatalf("append finished while the lock was held: %v", err)
	default:
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-appended; err != nil {
		t.Fatalf("append after the lock was released: %v", err)
	}
	if rep := mustVerify(t, waiter); rep.Rows != 2 {
		t.Fatalf("%d rows", rep.Rows)
	}
}

// TestBusyRetryStopsOnCancel: a writer stuck behind a lock gives up when its
// context ends instead of waiting forever.
func TestBusyRetryStopsOnCancel(t *testing.T) {
	ctx := context.Background()
	p := newFileDB(t)
	holder, err := Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	waiter, err := Open(ctx, p, WithBusyTimeout(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()
	locked, release := make(chan struct{}), make(chan struct{})
	go holder.WithTx(ctx, func(tx *Tx) error {
		close(locked)
		<-release
		return errors.New("rollback")
	})
	<-locked
	defer close(release)
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		time.Sleep(30 * time.Millisecond)
		cancel()
	}()
	_, err = waiter.AppendDecision(cctx, mkDecision(time.Now(), "commit", ""))
	if !errors.Is(err, context.Canceled) && !sqldb.IsBusy(err) {
		t.Fatalf("append behind a held lock: %v", err)
	}
}

// TestRacingSessionStarts: many stores start a session at once; exactly one
// wins and the rest get ErrSessionOpen.
func TestRacingSessionStarts(t *testing.T) {
	ctx := context.Background()
	p := newFileDB(t)
	const n = 8
	var wg sync.WaitGroup
	results := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(ctx, p)
			if err != nil {
				results <- err
				return
			}
			defer s.Close()
			_, err = s.StartSession(ctx)
			results <- err
		}()
	}
	wg.Wait()
	close(results)
	wins := 0
	for err := range results {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, ErrSessionOpen):
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d sessions opened, want 1", wins)
	}
}
