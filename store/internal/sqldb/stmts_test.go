package sqldb

import (
	"context"
	"sync"
	"testing"
	"time"
)

// A hot statement first met inside a write transaction on memdb (whose
// writer locks out a second connection's schema read) runs unprepared,
// is prepared before the next transaction, and from then on serves the
// pool and transactions alike, from many goroutines at once.
func TestHotStatementsPreparedOnce(t *testing.T) {
	ctx := context.Background()
	db, err := OpenMemory(ctx, Config{Clock: time.Now, BusyTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	q := Hot("SELECT count FROM chain_head WHERE id = ?")
	count := func(c Querier) (n int64, err error) {
		err = c.QueryRowContext(ctx, q, 1).Scan(&n)
		return n, err
	}
	if err := db.Write(ctx, func(c Querier) error { _, err := count(c); return err }); err != nil {
		t.Fatal(err)
	}
	if got := cached(db, q); got {
		t.Fatal("prepared inside the transaction")
	}
	if err := db.Read(ctx, func(c Querier) error { _, err := count(c); return err }); err != nil {
		t.Fatal(err)
	}
	if !cached(db, q) {
		t.Fatal("not prepared before the next transaction")
	}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			switch i % 3 {
			case 0:
				_, err = count(db.Conn())
			case 1:
				err = db.Read(ctx, func(c Querier) error { _, err := count(c); return err })
			default:
				err = db.Write(ctx, func(c Querier) error {
					n, err := count(c)
					if err == nil {
						_, err = c.ExecContext(ctx, Hot("UPDATE chain_head SET count = ? WHERE id = 1"), n+1)
					}
					return err
				})
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n, err := count(db.Conn()); err != nil || n != 5 {
		t.Fatalf("count %d, %v; want the 5 writers' increments", n, err)
	}
	// The update is met only inside transactions: it is prepared before the
	// next one begins (the goroutines may have begun all theirs before the
	// first update ran).
	if err := db.Read(ctx, func(c Querier) error { _, err := count(c); return err }); err != nil {
		t.Fatal(err)
	}
	if !cached(db, "UPDATE chain_head SET count = ? WHERE id = 1") {
		t.Fatal("the update is not prepared")
	}
}

func cached(db *DB, query string) bool {
	db.stmts.mu.Lock()
	defer db.stmts.mu.Unlock()
	return db.stmts.stmts[query] != nil
}
