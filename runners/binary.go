package runners

import (
	"bytes"
	"unicode/utf8"
)

// IsBinary reports whether head, the first bytes of a file, marks it binary: a
// NUL byte, or bytes that are not UTF-8. When the file goes on past head
// (truncated), a multi-byte character cut at the end of head is not held
// against it.
func IsBinary(head []byte, truncated bool) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if truncated {
		head = trimCutRune(head)
	}
	return !utf8.Valid(head)
}

// trimCutRune drops an incomplete UTF-8 sequence at the end of b.
func trimCutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			return b
		}
	}
	return b
}
