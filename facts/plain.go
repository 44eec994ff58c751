package facts

import (
	"strings"
	"unicode/utf8"
)

// plainStrings is s as a JSON round trip gives it back: nil for a nil slice
// (null), else a list.
func plainStrings(s []string) any {
	if s == nil {
		return nil
	}
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = jsonText(x)
	}
	return out
}

// jsonText is s as a JSON round trip gives it back: encoding/json replaces
// each byte that is not part of a UTF-8 sequence with U+FFFD.
func jsonText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
