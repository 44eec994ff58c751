package git

import "errors"

// ErrBadSince marks a "changed since" point that cannot be used: a malformed
// value, a ref that is not a commit, or one with no history shared with HEAD.
var ErrBadSince = errors.New("bad since point")

// ErrNotRepo marks a project root that is not inside a git work tree; the
// runner reports it as status unavailable, never as an error.
var ErrNotRepo = errors.New("not a git repository")
