package cli_test

import (
	"database/sql"
	"fmt"
	"os"
	"regexp"

	"github.com/rogpeppe/go-internal/testscript"

	_ "modernc.org/sqlite"
)

// sqlexecMain is the `sqlexec DB STATEMENT...` program of the scripts: it
// runs each statement against the database file with database/sql and the
// same SQLite driver tausik uses, the way anyone with write access to
// .tausik/tausik.db could tamper with it (no sqlite3 CLI is needed).
func sqlexecMain() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: sqlexec DB STATEMENT...")
		os.Exit(2)
	}
	db, err := sql.Open("sqlite", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "sqlexec:", err)
		os.Exit(1)
	}
	defer db.Close()
	for _, stmt := range os.Args[2:] {
		if _, err := db.Exec(stmt); err != nil {
			fmt.Fprintf(os.Stderr, "sqlexec: %s: %v\n", stmt, err)
			os.Exit(1)
		}
	}
}

var decisionIDRE = regexp.MustCompile(`decision ([0-9A-HJKMNP-TV-Z]{26})\b`)

// cmdDecisionID sets VAR to the decision id the last command printed
// ("…; decision <ULID>"), so a script can look that decision up.
func cmdDecisionID(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: decisionid VAR")
	}
	m := decisionIDRE.FindStringSubmatch(ts.ReadFile("stdout"))
	if m == nil {
		ts.Fatalf("decisionid: no decision id in stdout")
	}
	ts.Setenv(args[0], m[1])
}
