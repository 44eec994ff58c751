-- tausik schema version 4: the work tree's state recorded when a task with
-- a declared scope starts (internal/treestate's JSON: the HEAD commit and
-- each path that differed from it, with its content hash), so the backstop
-- can tell what the task changed from what was there before. One row per
-- task, written once.
CREATE TABLE task_trees (
    task        TEXT NOT NULL PRIMARY KEY REFERENCES tasks (slug),
    recorded_at TEXT NOT NULL,
    state       TEXT NOT NULL
) STRICT;
