-- tausik schema version 1 on PostgreSQL: the tables of migrations/0001_init.sql
-- with the same columns, meaning and guards, spelt for PostgreSQL. Integers are
-- BIGINT (the store reads every integer as int64), text compares byte-wise
-- (COLLATE "C", as SQLite's BINARY: ULID prefixes and time ranges order the
-- same on both backends). The fact cache is not here: it stays on each machine
-- (see store.OpenPostgres).

CREATE TABLE decisions (
    seq       BIGINT PRIMARY KEY,              -- 1, 2, 3 … with no gaps; the chain order
    id        TEXT COLLATE "C" NOT NULL UNIQUE, -- ULID, the decision_id
    time      TEXT COLLATE "C" NOT NULL,
    trigger   TEXT COLLATE "C" NOT NULL,
    task      TEXT COLLATE "C" NOT NULL,
    requester TEXT COLLATE "C" NOT NULL,
    git_head  TEXT COLLATE "C" NOT NULL,
    exit_code BIGINT NOT NULL,
    blocked   BIGINT NOT NULL,
    body      TEXT COLLATE "C" NOT NULL,       -- the engine's decision document, canonical JSON
    prev_hash TEXT COLLATE "C" NOT NULL,       -- hash of seq-1, or 64 zeros for seq 1
    hash      TEXT COLLATE "C" NOT NULL
);
CREATE INDEX decisions_time ON decisions (time);
CREATE INDEX decisions_task ON decisions (task, seq);

CREATE TABLE decision_gates (
    seq      BIGINT NOT NULL REFERENCES decisions (seq),
    idx      BIGINT NOT NULL,
    name     TEXT COLLATE "C" NOT NULL,
    outcome  TEXT COLLATE "C" NOT NULL,
    severity TEXT COLLATE "C" NOT NULL,
    blocks   BIGINT NOT NULL,
    PRIMARY KEY (seq, idx)
);
CREATE INDEX decision_gates_gate ON decision_gates (name, outcome, seq);
CREATE INDEX decision_gates_outcome ON decision_gates (outcome, seq);

-- The chain head: witness of the log's length and last hash, and the row every
-- write transaction locks first (SELECT … FOR UPDATE), so writers on every
-- machine queue on it as SQLite's writers queue on BEGIN IMMEDIATE.
CREATE TABLE chain_head (
    id    BIGINT PRIMARY KEY CHECK (id = 1),
    count BIGINT NOT NULL,
    hash  TEXT COLLATE "C" NOT NULL
);
INSERT INTO chain_head (id, count, hash)
VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

-- Guards against accidental edits through SQL, as on SQLite: not security
-- (an owner of the tables can drop them), which is what the chain is for.
CREATE FUNCTION tausik_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'decision log is append-only'; END $$;
CREATE FUNCTION tausik_head_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'chain head only moves forward by one'; END $$;
CREATE FUNCTION tausik_head_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'chain head cannot be deleted'; END $$;
CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions
FOR EACH ROW EXECUTE FUNCTION tausik_append_only();
CREATE TRIGGER decisions_no_delete BEFORE DELETE ON decisions
FOR EACH ROW EXECUTE FUNCTION tausik_append_only();
CREATE TRIGGER decisions_no_truncate BEFORE TRUNCATE ON decisions
FOR EACH STATEMENT EXECUTE FUNCTION tausik_append_only();
CREATE TRIGGER decision_gates_no_update BEFORE UPDATE ON decision_gates
FOR EACH ROW EXECUTE FUNCTION tausik_append_only();
CREATE TRIGGER decision_gates_no_delete BEFORE DELETE ON decision_gates
FOR EACH ROW EXECUTE FUNCTION tausik_append_only();
CREATE TRIGGER chain_head_forward_only BEFORE UPDATE ON chain_head
FOR EACH ROW WHEN (NEW.count <> OLD.count + 1) EXECUTE FUNCTION tausik_head_forward_only();
CREATE TRIGGER chain_head_no_delete BEFORE DELETE ON chain_head
FOR EACH ROW EXECUTE FUNCTION tausik_head_kept();

CREATE TABLE tasks (
    slug        TEXT COLLATE "C" PRIMARY KEY,
    goal        TEXT COLLATE "C" NOT NULL,
    scope_paths TEXT COLLATE "C",              -- NULL: no scope declared; '[]': declared empty
    tier        TEXT COLLATE "C" NOT NULL CHECK (tier IN ('lightweight', 'standard', 'substantial', 'deep')),
    complexity  TEXT COLLATE "C" NOT NULL CHECK (complexity IN ('simple', 'medium', 'complex')),
    delegated   BIGINT NOT NULL CHECK (delegated IN (0, 1)),
    call_budget BIGINT CHECK (call_budget IS NULL OR call_budget >= 0),
    specs       TEXT COLLATE "C" NOT NULL,
    adapts      TEXT COLLATE "C" NOT NULL,
    files       TEXT COLLATE "C" NOT NULL,
    status      TEXT COLLATE "C" NOT NULL CHECK (status IN ('active', 'done', 'abandoned')),
    started_at  TEXT COLLATE "C" NOT NULL,
    done_at     TEXT COLLATE "C"
);
CREATE INDEX tasks_status ON tasks (status, started_at);

CREATE TABLE sessions (
    id         TEXT COLLATE "C" PRIMARY KEY,   -- ULID
    started_at TEXT COLLATE "C" NOT NULL,
    ended_at   TEXT COLLATE "C",
    tool_calls BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX sessions_one_open ON sessions ((ended_at IS NULL)) WHERE ended_at IS NULL;
CREATE INDEX sessions_started ON sessions (started_at);

CREATE TABLE session_calls (
    session_id TEXT COLLATE "C" NOT NULL REFERENCES sessions (id),
    n          BIGINT NOT NULL,
    at_ms      BIGINT NOT NULL,
    tool       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (session_id, n)
);

CREATE TABLE handoffs (
    id         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    written_at TEXT COLLATE "C" NOT NULL,
    session_id TEXT COLLATE "C" REFERENCES sessions (id),
    text       TEXT COLLATE "C" NOT NULL
);

CREATE TABLE verify_runs (
    id              BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    task            TEXT COLLATE "C" NOT NULL REFERENCES tasks (slug),
    ran_at          TEXT COLLATE "C" NOT NULL,
    git_sha         TEXT COLLATE "C" NOT NULL,
    files_hash      TEXT COLLATE "C" NOT NULL,
    gate_signature  TEXT COLLATE "C" NOT NULL,
    exit_code       BIGINT NOT NULL,
    passed          BIGINT NOT NULL CHECK (passed IN (0, 1)),
    receipt         TEXT COLLATE "C" NOT NULL,
    signature       BYTEA NOT NULL,
    key_fingerprint TEXT COLLATE "C" NOT NULL
);
CREATE INDEX verify_runs_task ON verify_runs (task, id);

CREATE TABLE verify_run_gates (
    run_id   BIGINT NOT NULL REFERENCES verify_runs (id),
    idx      BIGINT NOT NULL,
    name     TEXT COLLATE "C" NOT NULL,
    passed   BIGINT NOT NULL CHECK (passed IN (0, 1)),
    severity TEXT COLLATE "C" NOT NULL CHECK (severity IN ('block', 'warn')),
    PRIMARY KEY (run_id, idx)
);
