-- tausik schema version 2 on PostgreSQL: migrations/0002_merkle_tree.sql (the
-- decision log is also a Merkle tree; read its comment) spelt for PostgreSQL.
-- Old rows are hashed by the same Go backfill, in the same transaction.
CREATE TABLE tree_hashes (
    idx  BIGINT PRIMARY KEY,          -- tlog.StoredHashIndex(level, n)
    hash TEXT COLLATE "C" NOT NULL    -- lower-case hex sha256, 64 characters
);

CREATE FUNCTION tausik_tree_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'decision log tree is append-only'; END $$;
CREATE TRIGGER tree_hashes_no_update BEFORE UPDATE ON tree_hashes
FOR EACH ROW EXECUTE FUNCTION tausik_tree_append_only();
CREATE TRIGGER tree_hashes_no_delete BEFORE DELETE ON tree_hashes
FOR EACH ROW EXECUTE FUNCTION tausik_tree_append_only();
