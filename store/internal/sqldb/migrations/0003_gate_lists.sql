-- tausik schema version 3: a decision's gate verdicts move into its own row.
-- The gates column holds them as one value, canonical JSON of the list of
-- {"blocks","name","outcome","severity"} objects in the decision's gate
-- order (see store/internal/decisionlog/gatelist.go), the objects its row hash has always
-- covered: every old row hashes and verifies as before. decision_gates, a
-- row per gate, goes: reading it cost `log verify` more than every body.
-- Filters find a gate by substring of the canonical list.
--
-- The Go backfill (store/internal/decisionlog/migrate_gates.go) runs at the marker below, in the
-- same transaction: it fills the column from decision_gates and refuses a
-- log whose gate rows name no decision (they would be lost). The update
-- guard is dropped for it and comes back after it.
DROP TRIGGER decisions_no_update;
ALTER TABLE decisions ADD COLUMN gates TEXT NOT NULL DEFAULT '';
-- tausik:backfill
DROP TABLE decision_gates;
CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions
BEGIN SELECT RAISE(ABORT, 'decision log is append-only'); END;
