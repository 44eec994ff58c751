package sqldb

import "errors"

// Sentinel errors. Every error the store returns wraps at most one of these so
// the CLI can map it to an exit code with errors.Is; anything else is an I/O
// or SQLite failure (exit 3). Package store re-exports each under its name.
var (
	// ErrSchemaTooNew refuses a database written by a newer tausik: running old
	// migrations or queries against an unknown schema could corrupt the audit log.
	ErrSchemaTooNew = errors.New("database schema is newer than this tausik knows")
	// ErrSchemaOutdated refuses a read-only open of a database that still needs
	// migrations, which a read-only handle must not apply.
	ErrSchemaOutdated = errors.New("database schema needs migrating; open it read-write once")
	// ErrCorrupt marks a file that is not an SQLite database or whose pages are
	// damaged; the store never tries to repair it.
	ErrCorrupt = errors.New("database file is corrupt or not a tausik store")
	// ErrReadOnly is returned when a write reaches a database opened read-only
	// or whose file cannot be written.
	ErrReadOnly = errors.New("store is read-only")
	// ErrUnreachable is returned when a PostgreSQL store's server cannot be
	// reached or refuses the connection; the store never falls back to a
	// local file, which would split the log.
	ErrUnreachable = errors.New("store server unreachable")

	// ErrNotFound is returned by single-row lookups that match nothing.
	ErrNotFound = errors.New("not found")
	// ErrAmbiguousID is returned when a decision id prefix matches several rows.
	ErrAmbiguousID = errors.New("ambiguous decision id prefix")

	// ErrInvalidDecision rejects a decision the log must not record: a bad id,
	// an unknown outcome or severity, a body that is not a JSON object, or
	// columns that disagree with the body.
	ErrInvalidDecision = errors.New("invalid decision")
	// ErrDecisionExists rejects a second append of the same decision id.
	ErrDecisionExists = errors.New("decision already logged")
	// ErrChainBroken is what ChainReport.Err returns for a log that failed
	// verification, and what an append returns when the chain head is gone.
	ErrChainBroken = errors.New("decision log chain is broken")
	// ErrInvalidFilter rejects a filter that cannot be answered (e.g. Tail and
	// Limit together, or a negative count).
	ErrInvalidFilter = errors.New("invalid decision filter")
	// ErrBadExport marks an NDJSON export that cannot be parsed as tausik
	// decision events at all (as opposed to one that parses but fails its hashes).
	ErrBadExport = errors.New("not a tausik decision log export")

	// ErrInvalidTask rejects a task with a malformed slug, an unknown enum value
	// or an illegal change.
	ErrInvalidTask = errors.New("invalid task")
	// ErrTaskExists rejects creating a task whose slug is taken, whatever its status.
	ErrTaskExists = errors.New("task already exists")
	// ErrTaskNotActive rejects closing or editing a task that is done or abandoned.
	ErrTaskNotActive = errors.New("task is not active")

	// ErrSessionOpen rejects starting a session while another is open.
	ErrSessionOpen = errors.New("a session is already open")
	// ErrNoOpenSession is returned by operations that need an open session.
	ErrNoOpenSession = errors.New("no open session")

	// ErrInvalidVerifyRun rejects a verify run with missing or malformed fields.
	ErrInvalidVerifyRun = errors.New("invalid verify run")
	// ErrInvalidCacheEntry rejects a cache key or value that could never be
	// served back (bad sha256, empty runner, value that is not JSON).
	ErrInvalidCacheEntry = errors.New("invalid fact cache entry")
)
