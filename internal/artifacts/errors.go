package artifacts

import "errors"

// Sentinel errors. The CLI maps ErrUsage, ErrNotFound and ErrExists to exit
// 2 (the command named something wrong) and ErrParse to exit 3 (a file on
// disk is malformed; the error names file:line).
var (
	// ErrUsage marks a value outside its closed list, a malformed slug or a
	// refused transition.
	ErrUsage = errors.New("bad request")
	// ErrNotFound marks an artifact slug with no file.
	ErrNotFound = errors.New("no such artifact")
	// ErrExists marks a new artifact whose file is already there.
	ErrExists = errors.New("artifact already exists")
	// ErrParse marks a file whose front matter cannot be read.
	ErrParse = errors.New("malformed artifact")
	// ErrKey marks a signing key that cannot be loaded.
	ErrKey = errors.New("signing key")
)
