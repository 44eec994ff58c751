-- tausik schema version 6 on PostgreSQL: migrations/0006_push_tickets.sql,
-- spelt for PostgreSQL.
CREATE TABLE push_tickets (
    id         TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    commit_sha TEXT COLLATE "C" NOT NULL,
    remote     TEXT COLLATE "C" NOT NULL,
    branch     TEXT COLLATE "C" NOT NULL,
    issued_at  TEXT COLLATE "C" NOT NULL,
    issued_by  TEXT COLLATE "C" NOT NULL,
    used_at    TEXT COLLATE "C" NOT NULL DEFAULT '',
    used_by    TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX push_tickets_issued ON push_tickets (issued_at, id);
