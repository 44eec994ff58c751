// Package sqliteread reads a SQLite database through SQLite's own C API, as
// modernc.org/sqlite transpiles it to Go, below database/sql and the
// driver. It exists for one reader: `log verify`'s quick pass, which reads
// every decision and every stored tree hash. Through database/sql each value
// is copied into a fresh Go allocation and handed through two layers of
// interfaces; here a text value is a view of SQLite's own buffer, valid
// until the statement steps again, and a row costs one sqlite3_step and a
// few column calls. It only reads, and only what its caller asks.
//
// A Conn and its statements belong to one goroutine at a time: SQLite's
// transpiled functions share the Conn's thread state.
package sqliteread

import (
	"fmt"
	"strings"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// Conn is one SQLite connection of the process.
type Conn struct {
	tls *libc.TLS
	db  uintptr
}

// Open opens the database at uri (an SQLite URI filename: "file:/path?…",
// which may name a VFS) for reading only, or for reading and writing when
// rw is set (an in-memory database, which SQLite cannot open read-only;
// the caller makes it query-only). The connection takes no mutex of its
// own: it is used by one goroutine at a time.
func Open(uri string, rw bool) (*Conn, error) {
	c := &Conn{tls: libc.NewTLS()}
	name, err := libc.CString(uri)
	if err != nil {
		c.tls.Close()
		return nil, fmt.Errorf("sqliteread: open: %w", err)
	}
	flags := int32(sqlite3.SQLITE_OPEN_READONLY)
	if rw {
		flags = sqlite3.SQLITE_OPEN_READWRITE
	}
	flags |= sqlite3.SQLITE_OPEN_URI | sqlite3.SQLITE_OPEN_NOMUTEX
	out := c.tls.Alloc(ptrSize)
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, out, flags, 0)
	c.db = *(*uintptr)(at(out))
	c.tls.Free(ptrSize)
	libc.Xfree(c.tls, name)
	if rc != sqlite3.SQLITE_OK {
		err := c.errorf("open", rc) // SQLite may return a handle holding the message
		c.Close()
		return nil, err
	}
	return c, nil
}

// ptrSize is the size of a C pointer, for the out parameters.
const ptrSize = int(unsafe.Sizeof(uintptr(0)))

// Close closes the connection and every statement still open on it.
func (c *Conn) Close() error {
	var err error
	if c.db != 0 {
		if rc := sqlite3.Xsqlite3_close_v2(c.tls, c.db); rc != sqlite3.SQLITE_OK {
			err = c.errorf("close", rc)
		}
		c.db = 0
	}
	if c.tls != nil {
		c.tls.Close()
		c.tls = nil
	}
	return err
}

// Exec runs sql, a statement without parameters whose rows, if any, are
// discarded.
func (c *Conn) Exec(sql string) error {
	st, err := c.Prepare(sql)
	if err != nil {
		return err
	}
	defer st.Close()
	for {
		ok, err := st.Next()
		if err != nil || !ok {
			return err
		}
	}
}

// Stmt is a prepared statement.
type Stmt struct {
	c *Conn
	p uintptr
}

// Prepare compiles sql, one statement (any text after it but white space
// is an error, not silently dropped).
func (c *Conn) Prepare(sql string) (*Stmt, error) {
	z, err := libc.CString(sql)
	if err != nil {
		return nil, fmt.Errorf("sqliteread: prepare: %w", err)
	}
	defer libc.Xfree(c.tls, z)
	out := c.tls.Alloc(2 * ptrSize)
	defer c.tls.Free(2 * ptrSize)
	tail := out + uintptr(ptrSize)
	if rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, z, -1, out, tail); rc != sqlite3.SQLITE_OK {
		return nil, c.errorf("prepare", rc)
	}
	st := &Stmt{c: c, p: *(*uintptr)(at(out))}
	if rest := strings.TrimSpace(libc.GoString(*(*uintptr)(at(tail)))); rest != "" || st.p == 0 {
		st.Close()
		return nil, fmt.Errorf("sqliteread: prepare: want one statement in %q", sql)
	}
	return st, nil
}

// Bind resets the statement and binds args to its parameters in order.
func (s *Stmt) Bind(args ...int64) error {
	sqlite3.Xsqlite3_reset(s.c.tls, s.p)
	for i, a := range args {
		if rc := sqlite3.Xsqlite3_bind_int64(s.c.tls, s.p, int32(i+1), a); rc != sqlite3.SQLITE_OK {
			return s.c.errorf("bind", rc)
		}
	}
	return nil
}

// Next steps to the next row: true while there is one, false at the end.
func (s *Stmt) Next() (bool, error) {
	switch rc := sqlite3.Xsqlite3_step(s.c.tls, s.p); rc {
	case sqlite3.SQLITE_ROW:
		return true, nil
	case sqlite3.SQLITE_DONE:
		return false, nil
	default:
		return false, s.c.errorf("step", rc)
	}
}

// Int64 is column i of the current row as an integer, and whether it is
// stored as one.
func (s *Stmt) Int64(i int) (int64, bool) {
	if sqlite3.Xsqlite3_column_type(s.c.tls, s.p, int32(i)) != sqlite3.SQLITE_INTEGER {
		return 0, false
	}
	return sqlite3.Xsqlite3_column_int64(s.c.tls, s.p, int32(i)), true
}

// Text is column i of the current row when it is stored as text, false
// for any other storage type (NULL, an integer, a real or a blob: SQLite
// would convert them, and spell a real unlike database/sql does). The
// bytes are SQLite's own: read them only, and not after the statement
// steps, is bound or is closed.
func (s *Stmt) Text(i int) ([]byte, bool) {
	if sqlite3.Xsqlite3_column_type(s.c.tls, s.p, int32(i)) != sqlite3.SQLITE_TEXT {
		return nil, false
	}
	p := sqlite3.Xsqlite3_column_text(s.c.tls, s.p, int32(i))
	if p == 0 { // out of memory
		return nil, false
	}
	n := sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, int32(i))
	return unsafe.Slice((*byte)(at(p)), n), true
}

// Close finalizes the statement.
func (s *Stmt) Close() error {
	if s.p == 0 {
		return nil
	}
	rc := sqlite3.Xsqlite3_finalize(s.c.tls, s.p)
	s.p = 0
	if rc != sqlite3.SQLITE_OK {
		return s.c.errorf("finalize", rc)
	}
	return nil
}

// at is the address p of SQLite's memory (outside Go's heap) as a pointer.
func at(p uintptr) unsafe.Pointer { return unsafe.Add(nil, p) }

func (c *Conn) errorf(op string, rc int32) error {
	msg := ""
	if c.db != 0 {
		msg = libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
	}
	return fmt.Errorf("sqliteread: %s: %s (code %d)", op, msg, rc)
}
