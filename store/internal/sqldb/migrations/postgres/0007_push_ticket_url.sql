-- tausik schema version 7 on PostgreSQL: migrations/0007_push_ticket_url.sql,
-- spelt for PostgreSQL.
ALTER TABLE push_tickets ADD COLUMN push_url TEXT COLLATE "C" NOT NULL DEFAULT '';
