package command

import "errors"

// Errors New returns for a spec it refuses. The engine reports them as config
// errors naming the gate; none of them is ever turned into a verdict.
var (
	// ErrBadSpec marks a malformed spec: bad name, empty argv, unknown
	// placeholder or parser, malformed env entry.
	ErrBadSpec = errors.New("bad command spec")
	// ErrMetachar marks an argument holding a shell metacharacter.
	ErrMetachar = errors.New("shell metacharacter in command")
	// ErrNotAllowed marks an executable (or environment) the allow-list does
	// not permit.
	ErrNotAllowed = errors.New("executable not allowed")
)
