-- tausik schema version 6: push tickets. A person's `tausik push-ok` issues
-- a single-use ticket bound to a commit (and a remote and a branch when the
-- person named them); the git_push_gate lets one agent `git push` through
-- with it, and the push marks it used. Issue and use each append a log
-- entry with trigger push-ticket in the same transaction (store/internal/workstate/pushtickets.go),
-- so a ticket row the log does not record is not trusted.
CREATE TABLE push_tickets (
    id         TEXT NOT NULL PRIMARY KEY,
    commit_sha TEXT NOT NULL,
    remote     TEXT NOT NULL,
    branch     TEXT NOT NULL,
    issued_at  TEXT NOT NULL,
    issued_by  TEXT NOT NULL,
    used_at    TEXT NOT NULL DEFAULT '',
    used_by    TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX push_tickets_issued ON push_tickets (issued_at, id);
