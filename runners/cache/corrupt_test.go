package cache

import (
	"database/sql"

	_ "modernc.org/sqlite"
)

// corruptCacheValues overwrites every cached value in the database file db
// with bytes that are not JSON, as a damaged disk or a hand edit would.
func corruptCacheValues(db string) error {
	conn, err := sql.Open("sqlite", db)
	if err != nil {
		return err
	}
	defer conn.Close()
	_, err = conn.Exec(`UPDATE fact_cache SET value = '{"root": "/r", "entries": ' || char(0)`)
	return err
}
