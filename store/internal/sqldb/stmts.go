package sqldb

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
)

// A hook call runs the same few statements every time (the append, the
// chain head, the verdict-reuse lookup, the task checks); parsing them
// again on every call costs as much as running them. A statement marked
// Hot is prepared once per database and reused: outside a transaction as
// it is, inside one through Tx.StmtContext, which reuses the statement
// already prepared on the transaction's connection. Every other statement
// runs as before, parsed each time.

// hot is the set of statements, in SQLite's spelling, that Hot marked.
var (
	hot      sync.Map // string → struct{}
	hotCount atomic.Int64
)

// maxHot bounds the set: a statement built with an IN list of each length
// must not grow it forever.
const maxHot = 1024

// Hot marks query as one to prepare once per database and returns it
// unchanged, so a statement is marked where it is written.
func Hot(query string) string {
	if _, ok := hot.Load(query); ok || hotCount.Load() >= maxHot {
		return query
	}
	if _, loaded := hot.LoadOrStore(query, struct{}{}); !loaded {
		hotCount.Add(1)
	}
	return query
}

// stmtCache holds a database's prepared hot statements, by the query in
// SQLite's spelling. It is safe for concurrent use.
//
// A statement is prepared on the pool, never inside a transaction: there
// it would take a connection of its own, and on a database whose writer
// locks out readers (SQLite's memdb) that connection would wait for the
// transaction it serves. A hot statement first met inside a transaction
// runs unprepared and is prepared before the next transaction begins.
type stmtCache struct {
	pool   *sql.DB
	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	wanted map[string]string // met inside a transaction: the query in the dialect's spelling
	closed bool
}

func newStmtCache(pool *sql.DB) *stmtCache {
	return &stmtCache{pool: pool, stmts: map[string]*sql.Stmt{}, wanted: map[string]string{}}
}

// get returns the prepared statement for query (SQLite's spelling; spelled
// is the dialect's), preparing it on first use outside a transaction; nil
// when query is not hot, not prepared yet, or does not prepare, and then
// the caller runs it unprepared, which reports whatever error preparing it
// met.
func (c *stmtCache) get(ctx context.Context, query, spelled string, inTx bool) *sql.Stmt {
	if _, ok := hot.Load(query); !ok {
		return nil
	}
	c.mu.Lock()
	s, closed := c.stmts[query], c.closed
	if s == nil && !closed && inTx {
		c.wanted[query] = spelled
	}
	c.mu.Unlock()
	if s != nil || closed || inTx {
		return s
	}
	return c.prepare(ctx, query, spelled)
}

// prepare prepares query on the pool and keeps it, unless another caller
// was first. It runs outside the lock: preparing may wait for a busy
// database, and other statements must not wait behind it.
func (c *stmtCache) prepare(ctx context.Context, query, spelled string) *sql.Stmt {
	s, err := c.pool.PrepareContext(ctx, spelled)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.stmts[query]; old != nil || c.closed {
		s.Close()
		return old
	}
	c.stmts[query] = s
	return s
}

// flush prepares the hot statements met inside transactions; it runs
// before a transaction begins, when the pool may take a connection.
func (c *stmtCache) flush(ctx context.Context) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if len(c.wanted) == 0 {
		c.mu.Unlock()
		return
	}
	wanted := c.wanted
	c.wanted = map[string]string{}
	c.mu.Unlock()
	for query, spelled := range wanted {
		c.prepare(ctx, query, spelled)
	}
}

// close releases the statements; later gets prepare nothing.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for q, s := range c.stmts {
		s.Close()
		delete(c.stmts, q)
	}
}

// prepared is the statement to run query with on c.Q: the cached one on
// the pool, or a transaction's own use of it; nil to run it unprepared.
func (c Conn) prepared(ctx context.Context, query, spelled string) *sql.Stmt {
	if c.stmts == nil {
		return nil
	}
	switch q := c.Q.(type) {
	case *sql.DB:
		if q == c.stmts.pool {
			return c.stmts.get(ctx, query, spelled, false)
		}
	case *sql.Tx:
		if s := c.stmts.get(ctx, query, spelled, true); s != nil {
			return q.StmtContext(ctx, s)
		}
	}
	return nil
}
