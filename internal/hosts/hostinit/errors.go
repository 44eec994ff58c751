package hostinit

import "errors"

// ErrMalformed marks an existing host file that init cannot read (bad JSON,
// JSONC or TOML, or a key of the wrong type where tausik's wiring goes). The
// file is left untouched; the error names it with the line.
var ErrMalformed = errors.New("malformed host file")

// ErrConflict marks an existing file that init would have to overwrite but
// did not write itself (a hand-written Cline hook script), so it refuses.
var ErrConflict = errors.New("file not written by tausik init")

// ErrUnknownHost marks a --host name init does not know.
var ErrUnknownHost = errors.New("unknown host")

// ErrLink marks a host file that is a symlink (or lies below one) init will
// not write through: it points out of the project, or to nothing. Writing
// there would change a file the project does not hold (another checkout's,
// the user's own settings); replacing the link would silently cut it.
var ErrLink = errors.New("host file links out of the project")
