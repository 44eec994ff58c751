-- tausik schema version 2: the decision log is also a Merkle tree (RFC 6962,
-- in the layout of golang.org/x/mod/sumdb/tlog; see store/merkle). Leaf n is
-- tlog.RecordHash of the body of the decision at seq n+1, its bytes exactly as
-- stored. Every hash tlog.StoredHashes returns is kept here at its tlog
-- stored-hash index, so a tree head or a proof costs O(log n) reads; they are
-- written in the same transaction as their decision. Rows logged under version
-- 1 are hashed by a Go backfill (store/internal/decisionlog/tree.go) that runs right after this
-- file, in the same transaction; no existing row changes.
--
-- Portable SQL except where marked. SQLite-specific: INTEGER PRIMARY KEY makes
-- idx the rowid (PostgreSQL: BIGINT PRIMARY KEY), STRICT (PostgreSQL's column
-- types are strict already), and the trigger syntax (PostgreSQL needs a
-- trigger function).
CREATE TABLE tree_hashes (
    idx  INTEGER PRIMARY KEY,   -- tlog.StoredHashIndex(level, n)
    hash TEXT    NOT NULL       -- lower-case hex sha256, 64 characters
) STRICT;

-- Guards against accidental edits, like the decision log's own: not
-- security (checkpoints kept outside the database are).
CREATE TRIGGER tree_hashes_no_update BEFORE UPDATE ON tree_hashes
BEGIN SELECT RAISE(ABORT, 'decision log tree is append-only'); END;
CREATE TRIGGER tree_hashes_no_delete BEFORE DELETE ON tree_hashes
BEGIN SELECT RAISE(ABORT, 'decision log tree is append-only'); END;
