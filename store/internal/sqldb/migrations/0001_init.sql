-- tausik schema version 1. Times are UTC text in a fixed-width RFC 3339 form
-- (2006-01-02T15:04:05.000000000Z) so text order is time order. Lists are JSON
-- arrays in TEXT columns. Booleans are 0/1.

-- Decision log: append-only, hash-chained (see chain.go for the hash).
CREATE TABLE decisions (
    seq       INTEGER PRIMARY KEY,           -- 1, 2, 3 … with no gaps; the chain order
    id        TEXT    NOT NULL UNIQUE,       -- ULID, the decision_id
    time      TEXT    NOT NULL,
    trigger   TEXT    NOT NULL,
    task      TEXT    NOT NULL,
    requester TEXT    NOT NULL,
    git_head  TEXT    NOT NULL,
    exit_code INTEGER NOT NULL,
    blocked   INTEGER NOT NULL,
    body      TEXT    NOT NULL,              -- the engine's decision document, canonical JSON
    prev_hash TEXT    NOT NULL,              -- hash of seq-1, or 64 zeros for seq 1
    hash      TEXT    NOT NULL
) STRICT;
CREATE INDEX decisions_time ON decisions (time);
CREATE INDEX decisions_task ON decisions (task, seq);

-- Per-gate verdicts of each decision, for filtering; covered by the row hash.
CREATE TABLE decision_gates (
    seq      INTEGER NOT NULL REFERENCES decisions (seq),
    idx      INTEGER NOT NULL,               -- position in the decision's gate list
    name     TEXT    NOT NULL,
    outcome  TEXT    NOT NULL,
    severity TEXT    NOT NULL,
    blocks   INTEGER NOT NULL,
    PRIMARY KEY (seq, idx)
) STRICT, WITHOUT ROWID;
CREATE INDEX decision_gates_gate ON decision_gates (name, outcome, seq);
CREATE INDEX decision_gates_outcome ON decision_gates (outcome, seq);

-- Independent witness of the chain's length and last hash, updated in the same
-- transaction as every append: deleting the last rows leaves it pointing past
-- the end, which VerifyChain reports as truncation.
CREATE TABLE chain_head (
    id    INTEGER PRIMARY KEY CHECK (id = 1),
    count INTEGER NOT NULL,
    hash  TEXT    NOT NULL
) STRICT;
INSERT INTO chain_head (id, count, hash)
VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

-- Guards against accidental edits through SQL. They are not security: anyone
-- who can write the file can drop them, which is what the hash chain is for.
CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions
BEGIN SELECT RAISE(ABORT, 'decision log is append-only'); END;
CREATE TRIGGER decisions_no_delete BEFORE DELETE ON decisions
BEGIN SELECT RAISE(ABORT, 'decision log is append-only'); END;
CREATE TRIGGER decision_gates_no_update BEFORE UPDATE ON decision_gates
BEGIN SELECT RAISE(ABORT, 'decision log is append-only'); END;
CREATE TRIGGER decision_gates_no_delete BEFORE DELETE ON decision_gates
BEGIN SELECT RAISE(ABORT, 'decision log is append-only'); END;
CREATE TRIGGER chain_head_forward_only BEFORE UPDATE ON chain_head
WHEN NEW.count <> OLD.count + 1
BEGIN SELECT RAISE(ABORT, 'chain head only moves forward by one'); END;
CREATE TRIGGER chain_head_no_delete BEFORE DELETE ON chain_head
BEGIN SELECT RAISE(ABORT, 'chain head cannot be deleted'); END;

-- Tasks: the facts the workflow gates read.
CREATE TABLE tasks (
    slug        TEXT    PRIMARY KEY,
    goal        TEXT    NOT NULL,
    scope_paths TEXT,                        -- NULL: no scope declared; '[]': declared empty (allows nothing)
    tier        TEXT    NOT NULL CHECK (tier IN ('lightweight', 'standard', 'substantial', 'deep')),
    complexity  TEXT    NOT NULL CHECK (complexity IN ('simple', 'medium', 'complex')),
    delegated   INTEGER NOT NULL CHECK (delegated IN (0, 1)),
    call_budget INTEGER CHECK (call_budget IS NULL OR call_budget >= 0),
    specs       TEXT    NOT NULL,
    adapts      TEXT    NOT NULL,
    files       TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('active', 'done', 'abandoned')),
    started_at  TEXT    NOT NULL,
    done_at     TEXT
) STRICT;
CREATE INDEX tasks_status ON tasks (status, started_at);

-- Sessions: at most one open (ended_at IS NULL) at a time, enforced by the index.
CREATE TABLE sessions (
    id         TEXT    PRIMARY KEY,          -- ULID
    started_at TEXT    NOT NULL,
    ended_at   TEXT,
    tool_calls INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE UNIQUE INDEX sessions_one_open ON sessions ((ended_at IS NULL)) WHERE ended_at IS NULL;
CREATE INDEX sessions_started ON sessions (started_at);

-- One row per recorded tool call; active time is computed from at_ms.
CREATE TABLE session_calls (
    session_id TEXT    NOT NULL REFERENCES sessions (id),
    n          INTEGER NOT NULL,             -- 1-based call number within the session
    at_ms      INTEGER NOT NULL,             -- Unix milliseconds
    tool       TEXT    NOT NULL,
    PRIMARY KEY (session_id, n)
) STRICT, WITHOUT ROWID;

-- Handoff notes live apart from sessions: writing one needs no open session
-- and never touches a session's counters.
CREATE TABLE handoffs (
    id         INTEGER PRIMARY KEY,
    written_at TEXT    NOT NULL,
    session_id TEXT    REFERENCES sessions (id),
    text       TEXT    NOT NULL
) STRICT;

-- Verification runs and their signed receipts.
CREATE TABLE verify_runs (
    id              INTEGER PRIMARY KEY,
    task            TEXT    NOT NULL REFERENCES tasks (slug),
    ran_at          TEXT    NOT NULL,
    git_sha         TEXT    NOT NULL,
    files_hash      TEXT    NOT NULL,
    gate_signature  TEXT    NOT NULL,
    exit_code       INTEGER NOT NULL,
    passed          INTEGER NOT NULL CHECK (passed IN (0, 1)),
    receipt         TEXT    NOT NULL,        -- canonical receipt JSON; '' when unsigned
    signature       BLOB    NOT NULL,        -- ed25519 signature over receipt; empty when unsigned
    key_fingerprint TEXT    NOT NULL
) STRICT;
CREATE INDEX verify_runs_task ON verify_runs (task, id);

CREATE TABLE verify_run_gates (
    run_id   INTEGER NOT NULL REFERENCES verify_runs (id),
    idx      INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    passed   INTEGER NOT NULL CHECK (passed IN (0, 1)),
    severity TEXT    NOT NULL CHECK (severity IN ('block', 'warn')),
    PRIMARY KEY (run_id, idx)
) STRICT, WITHOUT ROWID;

-- Fact cache: one row per (runner, content); a hit also needs the runner
-- version to match, and a newer version's put replaces the stale row.
CREATE TABLE fact_cache (
    runner         TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    runner_version TEXT NOT NULL,
    value          TEXT NOT NULL,
    stored_at      TEXT NOT NULL,
    PRIMARY KEY (runner, content_sha256)
) STRICT, WITHOUT ROWID;
