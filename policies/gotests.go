package policies

import (
	_ "embed"
	"strings"
)

//go:embed gotests.txt
var goTestsTxt string

// GoTests returns the names of the Go test functions in tausik's sources, as
// listed in gotests.txt when the binary was built. A built-in gate's
// excused.yaml may only name these; a test in this package keeps the list in
// step with the sources.
func GoTests() []string {
	return strings.Fields(goTestsTxt)
}
