package store

import (
	"github.com/tausik/tausik/store/internal/sqldb"
	"github.com/tausik/tausik/store/internal/workstate"
)

// Sentinel errors. Every error the store returns wraps at most one of these so
// the CLI can map it to an exit code with errors.Is; anything else is an I/O
// or SQLite failure (exit 3). They are the base's (store/internal/sqldb) and
// the work state's own values, so errors.Is holds whichever layer returned one.
var (
	// ErrSchemaTooNew refuses a database written by a newer tausik: running old
	// migrations or queries against an unknown schema could corrupt the audit log.
	ErrSchemaTooNew = sqldb.ErrSchemaTooNew
	// ErrSchemaOutdated refuses a read-only open of a database that still needs
	// migrations, which a read-only handle must not apply.
	ErrSchemaOutdated = sqldb.ErrSchemaOutdated
	// ErrCorrupt marks a file that is not an SQLite database or whose pages are
	// damaged; the store never tries to repair it.
	ErrCorrupt = sqldb.ErrCorrupt
	// ErrReadOnly is returned when a write reaches a database opened read-only
	// or whose file cannot be written.
	ErrReadOnly = sqldb.ErrReadOnly
	// ErrUnreachable is returned when a PostgreSQL store's server cannot be
	// reached or refuses the connection; the store never falls back to a
	// local file, which would split the log.
	ErrUnreachable = sqldb.ErrUnreachable

	// ErrNotFound is returned by single-row lookups that match nothing.
	ErrNotFound = sqldb.ErrNotFound
	// ErrAmbiguousID is returned when a decision id prefix matches several rows.
	ErrAmbiguousID = sqldb.ErrAmbiguousID

	// ErrInvalidDecision rejects a decision the log must not record: a bad id,
	// an unknown outcome or severity, a body that is not a JSON object, or
	// columns that disagree with the body.
	ErrInvalidDecision = sqldb.ErrInvalidDecision
	// ErrDecisionExists rejects a second append of the same decision id.
	ErrDecisionExists = sqldb.ErrDecisionExists
	// ErrChainBroken is what ChainReport.Err returns for a log that failed
	// verification, and what an append returns when the chain head is gone.
	ErrChainBroken = sqldb.ErrChainBroken
	// ErrInvalidFilter rejects a filter that cannot be answered (e.g. Tail and
	// Limit together, or a negative count).
	ErrInvalidFilter = sqldb.ErrInvalidFilter
	// ErrBadExport marks an NDJSON export that cannot be parsed as tausik
	// decision events at all (as opposed to one that parses but fails its hashes).
	ErrBadExport = sqldb.ErrBadExport

	// ErrInvalidTask rejects a task with a malformed slug, an unknown enum value
	// or an illegal change.
	ErrInvalidTask = sqldb.ErrInvalidTask
	// ErrTaskExists rejects creating a task whose slug is taken, whatever its status.
	ErrTaskExists = sqldb.ErrTaskExists
	// ErrTaskNotActive rejects closing or editing a task that is done or abandoned.
	ErrTaskNotActive = sqldb.ErrTaskNotActive

	// ErrSessionOpen rejects starting a session while another is open.
	ErrSessionOpen = sqldb.ErrSessionOpen
	// ErrNoOpenSession is returned by operations that need an open session.
	ErrNoOpenSession = sqldb.ErrNoOpenSession

	// ErrInvalidVerifyRun rejects a verify run with missing or malformed fields.
	ErrInvalidVerifyRun = sqldb.ErrInvalidVerifyRun
	// ErrInvalidCacheEntry rejects a cache key or value that could never be
	// served back (bad sha256, empty runner, value that is not JSON).
	ErrInvalidCacheEntry = sqldb.ErrInvalidCacheEntry

	// ErrTicketGone: the push ticket is used or replaced.
	ErrTicketGone = workstate.ErrTicketGone
	// ErrTicketTampered: a push ticket row the log does not vouch for.
	ErrTicketTampered = workstate.ErrTicketTampered
)
