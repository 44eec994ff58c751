-- tausik schema version 3 on PostgreSQL: migrations/0003_gate_lists.sql,
-- spelt for PostgreSQL (the update guard is disabled, not dropped, around
-- the backfill).
ALTER TABLE decisions DISABLE TRIGGER decisions_no_update;
ALTER TABLE decisions ADD COLUMN gates TEXT COLLATE "C" NOT NULL DEFAULT '';
-- tausik:backfill
DROP TABLE decision_gates;
ALTER TABLE decisions ENABLE TRIGGER decisions_no_update;
