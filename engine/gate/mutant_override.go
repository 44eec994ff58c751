package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// EnvMutantBundle names a directory of mutated policies, <gate>/<policy
// file>, that an engine built inside a Go test binary loads instead of the
// gates' own: `tausik policy mutate` runs an excused gate's red and green Go
// tests against each mutant this way.
//
// It is honoured only where testing.Testing() is true, that is in a binary
// built by `go test`. The tausik binary ignores it, so setting it can never
// swap a built-in (or team) gate's policy in production; a test binary is
// built from the sources and can change any policy anyway.
const EnvMutantBundle = "TAUSIK_MUTANT_BUNDLE"

// mutantOverride returns the mutated source of gate's policy file when a
// test run names one.
func mutantOverride(gate, policyFile string) ([]byte, bool) {
	dir := os.Getenv(EnvMutantBundle)
	if dir == "" || !testing.Testing() {
		return nil, false
	}
	b, err := os.ReadFile(filepath.Join(dir, gate, policyFile))
	return b, err == nil
}
