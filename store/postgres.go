package store

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tausik/tausik/store/internal/sqldb"
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
	db, err := sqldb.OpenPostgres(ctx, pc, shown, cfg.base())
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", shown, err)
	}
	s := newStore(db)
	if cfg.factCache != "" {
		s.cache, err = Open(ctx, cfg.factCache, WithClock(cfg.clock))
	} else {
		s.cache, err = OpenMemory(ctx, WithClock(cfg.clock))
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: fact cache: %w", shown, err)
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
