package receipt

import "errors"

// Sentinel errors. Verification failures are deliberately split three ways so
// `tausik receipt verify` can say which: the bytes were changed (bad
// signature), they were signed by someone else (key mismatch), or they are
// not a receipt at all.
var (
	// ErrBadSignature: the signature does not verify over the receipt bytes;
	// the receipt or the signature was altered.
	ErrBadSignature = errors.New("receipt signature does not verify")
	// ErrKeyMismatch: the receipt names, or was signed by, a different key
	// than the one trusted (pinned key or fingerprint).
	ErrKeyMismatch = errors.New("receipt was signed by a different key")
	// ErrNotReceipt: the input is not a tausik receipt or receipt export.
	ErrNotReceipt = errors.New("not a tausik receipt")

	// ErrKeyExists refuses to overwrite a signing key without force: every
	// receipt signed by the old key would stop verifying against the project key.
	ErrKeyExists = errors.New("signing key already exists (use force to replace it)")
	// ErrNoKey: no signing key has been initialised in the key directory.
	ErrNoKey = errors.New("no signing key (run `tausik key init`)")
	// ErrKeyPermissions refuses a private key file readable by group or others.
	ErrKeyPermissions = errors.New("private key file is accessible by others")
	// ErrBadKey: key material that does not parse as an ed25519 key.
	ErrBadKey = errors.New("malformed ed25519 key")

	// ErrBadPath rejects a declared file path that is absolute, escapes the
	// root, or cannot be written on one line of the files hash.
	ErrBadPath = errors.New("bad declared path")
)
