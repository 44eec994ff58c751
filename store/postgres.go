package store

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// DefaultConnectTimeout bounds the connection to a PostgreSQL server whose
// URL sets no connect_timeout: an unreachable server must be an error a
// person sees, not a hook that hangs.
const DefaultConnectTimeout = 10 * time.Second

// IsPostgresURL reports whether s names a PostgreSQL server
// (postgres:// or postgresql://), the form OpenPostgres takes.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// OpenPostgres opens the store on the PostgreSQL server at rawURL
// (postgres://user@host:port/db?sslmode=…; what the URL leaves out comes
// from libpq's PG* environment variables, PGPASSWORD and ~/.pgpass among
// them), checks that the server answers, applies pending migrations and
// returns the store. The tables live in the connection's current schema:
// a search_path parameter in the URL puts one log per schema on a server.
//
// Every process, on every machine, that opens the same URL shares one
// decision log, one task list and one set of verify runs. The fact cache
// stays on the machine (see WithFactCache): its rows are neither chained nor
// signed, so sharing it would let anyone who can write to the server feed
// every machine's gates the facts they like.
//
// Errors: ErrUnreachable (no connection: refused, timed out, bad password),
// ErrSchemaTooNew, ErrSchemaOutdated (read-only), or a URL error. Messages
// show the URL without its password.
func OpenPostgres(ctx context.Context, rawURL string, opts ...Option) (*Store, error) {
	cfg := newConfig(opts)
	shown := RedactURL(rawURL)
	if !IsPostgresURL(rawURL) {
		return nil, fmt.Errorf("open store %s: not a postgres:// URL", shown)
	}
	pc, err := pgx.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", shown, err)
	}
	if pc.ConnectTimeout == 0 {
		pc.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.readOnly {
		// The server itself refuses writes (SQLSTATE 25006, ErrReadOnly).
		pc.RuntimeParams["default_transaction_read_only"] = "on"
	}
	db := stdlib.OpenDB(*pc)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w: %w", shown, ErrUnreachable, err)
	}
	s := &Store{db: db, d: postgresDialect, clock: cfg.clock, path: shown, readOnly: cfg.readOnly}
	if cfg.factCache != "" {
		s.cache, err = Open(ctx, cfg.factCache, WithClock(cfg.clock))
	} else {
		s.cache, err = OpenMemory(ctx, WithClock(cfg.clock))
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: fact cache: %w", shown, err)
	}
	if err := s.init(ctx, false); err != nil {
		s.Close()
		return nil, fmt.Errorf("open store %s: %w", shown, err)
	}
	return s, nil
}

// WithFactCache keeps a server-backed store's fact cache in the SQLite file
// at path (created if needed) instead of in memory, so it outlives the
// process. SQLite stores keep their cache in their own file and ignore it.
func WithFactCache(path string) Option {
	return func(c *config) { c.factCache = path }
}

// RedactURL returns rawURL with any password replaced by xxxxx, for
// messages and logs. A string that does not parse is shown as
// "(unparsable URL)", since it may hold a password anywhere.
func RedactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(unparsable URL)"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	if q := u.Query(); q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// PostgresOrigin names the log at rawURL for checkpoints:
// host:port/database, plus /schema when a search_path parameter picks one.
// It holds neither user nor password, so every machine writing to the log
// names it alike.
func PostgresOrigin(rawURL string) (string, error) {
	pc, err := pgx.ParseConfig(rawURL)
	if err != nil {
		return "", fmt.Errorf("store %s: %w", RedactURL(rawURL), err)
	}
	origin := fmt.Sprintf("%s:%d/%s", pc.Host, pc.Port, pc.Database)
	if sp := strings.TrimSpace(pc.RuntimeParams["search_path"]); sp != "" {
		first, _, _ := strings.Cut(sp, ",")
		origin += "/" + strings.Trim(strings.TrimSpace(first), `"`)
	}
	return origin, nil
}

// URLHasPassword reports whether rawURL carries a password itself (in its
// user info or a password parameter), which a committed or shared config
// file must never hold.
func URLHasPassword(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return true // cannot tell: assume the worst
	}
	_, has := u.User.Password()
	return has || u.Query().Has("password")
}

// PostgreSQL keeps the schema version in a one-row table of the schema.
// Whether it exists is asked of pg_class with a query, not to_regclass: a
// name lookup that misses is cached by the backend, and the migration, which
// reads the version again after waiting for another process's migration to
// commit, would then still see no table (TestOpenConcurrentFirstOpen).
func postgresReadVersion(ctx context.Context, q querier) (int, error) {
	var exists bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND c.relname = 'tausik_schema')`).Scan(&exists)
	if err != nil || !exists {
		return 0, err
	}
	var v int
	err = q.QueryRowContext(ctx, "SELECT version FROM tausik_schema WHERE id = 1").Scan(&v)
	if isNoRows(err) {
		return 0, nil
	}
	return v, err
}

func postgresSetVersion(ctx context.Context, q querier, v int) error {
	if _, err := q.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS tausik_schema (
		id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`); err != nil {
		return err
	}
	_, err := q.ExecContext(ctx, `INSERT INTO tausik_schema (id, version) VALUES (1, ?)
		ON CONFLICT (id) DO UPDATE SET version = excluded.version`, v)
	return err
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// pgBusy: a serialization failure or deadlock, which a retry resolves.
func pgBusy(err error) bool {
	c := pgCode(err)
	return c == "40001" || c == "40P01"
}

func classifyPostgres(err error) error {
	if pgCode(err) == "25006" && !errors.Is(err, ErrReadOnly) { // read_only_sql_transaction
		return fmt.Errorf("%w: %w", ErrReadOnly, err)
	}
	return err
}
