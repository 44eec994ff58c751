-- tausik schema version 4 on PostgreSQL: migrations/0004_task_trees.sql,
-- spelt for PostgreSQL.
CREATE TABLE task_trees (
    task        TEXT COLLATE "C" NOT NULL PRIMARY KEY REFERENCES tasks (slug),
    recorded_at TEXT COLLATE "C" NOT NULL,
    state       TEXT COLLATE "C" NOT NULL
);
