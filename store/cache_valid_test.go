package store

import (
	"encoding/json"
	"testing"
)

// FuzzValidValue: the fast check of a cache value agrees with encoding/json
// on every input.
func FuzzValidValue(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\"b"`, "\"\x01\"", "\"\xff\"", `"`, `""`, `"x" "y"`, `["x"]`, "\"\x7f\u2028\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if got, want := validValue(v), json.Valid(v); got != want {
			t.Fatalf("%q: validValue %v, json.Valid %v", v, got, want)
		}
	})
}
