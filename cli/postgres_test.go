package cli_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCondition answers [postgres]: whether TAUSIK_TEST_POSTGRES names a
// test server (testdata/postgres/with-server.sh starts one). In CI
// (CI=true) a missing server is an error, never a skipped script.
func scriptCondition(cond string) (bool, error) {
	if cond != "postgres" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	if os.Getenv("TAUSIK_TEST_POSTGRES") != "" {
		return true, nil
	}
	if os.Getenv("CI") == "true" {
		return false, errors.New("TAUSIK_TEST_POSTGRES is not set in CI: the PostgreSQL store must be tested (run under testdata/postgres/with-server.sh)")
	}
	return false, nil
}

// cmdPGSchema creates an empty schema on the test server, drops it when the
// script ends, and sets VAR to a URL whose tables live in it.
func cmdPGSchema(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pgschema VAR")
	}
	base := os.Getenv("TAUSIK_TEST_POSTGRES")
	if base == "" {
		ts.Fatalf("pgschema: TAUSIK_TEST_POSTGRES is not set (guard the command with [postgres])")
	}
	pc, err := pgx.ParseConfig(base)
	ts.Check(err)
	db := stdlib.OpenDB(*pc)
	var b [8]byte
	rand.Read(b[:])
	schema := "tausik_script_" + hex.EncodeToString(b[:])
	_, err = db.ExecContext(context.Background(), "CREATE SCHEMA "+schema)
	ts.Check(err)
	ts.Defer(func() {
		db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		db.Close()
	})
	u, err := url.Parse(base)
	ts.Check(err)
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	ts.Setenv(args[0], u.String())
}
