-- tausik schema version 7: a push ticket bound to a remote records where a
-- push to that remote went when the person issued it (git remote get-url
-- --push: pushurl, pushInsteadOf and insteadOf applied), so a remote
-- redirected afterwards no longer matches the ticket. '' = none recorded
-- (no remote named, or the remote is a URL or a path itself).
ALTER TABLE push_tickets ADD COLUMN push_url TEXT NOT NULL DEFAULT '';
