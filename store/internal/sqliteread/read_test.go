package sqliteread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// memdb opens a fresh shared in-memory database for writing.
func memdb(t *testing.T) *Conn {
	t.Helper()
	c, err := Open("file:/sqliteread-"+strings.ReplaceAll(t.Name(), "/", "-")+"?vfs=memdb", true)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestTextByStorageType: Text gives text and only text, the empty string
// included; Int64 integers only.
func TestTextByStorageType(t *testing.T) {
	c := memdb(t)
	if err := c.Exec("CREATE TABLE t (v)"); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"INSERT INTO t VALUES ('abc')", "INSERT INTO t VALUES ('')", "INSERT INTO t VALUES (NULL)",
		"INSERT INTO t VALUES (5)", "INSERT INTO t VALUES (5.0)", "INSERT INTO t VALUES (x'616263')"} {
		if err := c.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	st, err := c.Prepare("SELECT v FROM t ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	type want struct {
		text   string
		isText bool
		num    int64
		isInt  bool
	}
	for i, w := range []want{{"abc", true, 0, false}, {"", true, 0, false}, {}, {"", false, 5, true}, {}, {}} {
		if ok, err := st.Next(); !ok || err != nil {
			t.Fatalf("row %d: %v %v", i, ok, err)
		}
		text, isText := st.Text(0)
		num, isInt := st.Int64(0)
		if string(text) != w.text || isText != w.isText || num != w.num || isInt != w.isInt {
			t.Errorf("row %d: Text %q %v, Int64 %d %v; want %+v", i, text, isText, num, isInt, w)
		}
	}
	if ok, err := st.Next(); ok || err != nil {
		t.Errorf("after the last row: %v %v", ok, err)
	}
}

// TestBindAndRerun: Bind resets the statement, so it runs again with new
// arguments.
func TestBindAndRerun(t *testing.T) {
	c := memdb(t)
	st, err := c.Prepare("SELECT ? + ?")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, args := range [][3]int64{{1, 2, 3}, {40, 2, 42}} {
		if err := st.Bind(args[0], args[1]); err != nil {
			t.Fatal(err)
		}
		if ok, err := st.Next(); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if got, ok := st.Int64(0); !ok || got != args[2] {
			t.Errorf("%d + %d = %d %v", args[0], args[1], got, ok)
		}
	}
}

// TestExecRunsOneStatement: text after the first statement is an error, not
// silently dropped; so is a syntax error, with SQLite's message.
func TestExecRunsOneStatement(t *testing.T) {
	c := memdb(t)
	if err := c.Exec("CREATE TABLE t (a); INSERT INTO t VALUES (1)"); err == nil {
		t.Error("Exec ran the first of two statements and dropped the second without an error")
	}
	if err := c.Exec("CREATE TABLE u (a);  \n"); err != nil {
		t.Errorf("trailing white space: %v", err)
	}
	if err := c.Exec("SELEC 1"); err == nil || !strings.Contains(err.Error(), "syntax error") {
		t.Errorf("syntax error: %v", err)
	}
}

// TestOpenReadOnly: a file opened read-only refuses writes, and a missing
// file is an error rather than a new database.
func TestOpenReadOnly(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.db")
	if _, err := Open("file:"+p, false); err == nil {
		t.Fatal("opened a file that does not exist")
	}
	if _, err := os.Stat(p); err == nil {
		t.Error("a read-only open created the file")
	}
	if err := os.WriteFile(p, nil, 0o600); err != nil { // an empty file is an empty database
		t.Fatal(err)
	}
	w, err := Open("file:"+p, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Exec("CREATE TABLE t (a)"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r, err := Open("file:"+p, false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Exec("INSERT INTO t VALUES (1)"); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Errorf("write on a read-only connection: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
}
