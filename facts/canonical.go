package facts

import (
	"bytes"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// This file is the facts' canonical JSON encoder, the one every encoding of
// facts goes through (Canonical, Document's digests, a runner's cache
// payloads: AppendTyped). The bytes tausik hashes and keeps (the decision
// log, receipts, signed artifacts) have an encoder of their own,
// internal/canonjson, pinned apart from this faster one.

// appendPlain appends the canonical JSON encoding of a plain value (see
// Document.Generic) to b. It writes exactly what encoding/json writes for the
// same value with HTML escaping off (a fuzz test holds it to that), without
// reflection: a facts document of 10,000 files is encoded once per evaluation
// for its digest. ok is false for a value that is not plain.
func appendPlain(b []byte, v any) ([]byte, bool) { return appendValue(b, v, false) }

// AppendTyped appends the canonical encoding of the plain value v, typed:
// a float always carries a "." or an exponent (1.0 is written 1.0, not 1),
// so a reader that takes any other number for an integer reads back the
// same values, and a string that is not UTF-8 (which JSON would replace)
// is refused with ok false, as any value that is not plain is. It is the
// encoding of a runner's cache payload of plain values.
func AppendTyped(b []byte, v any) ([]byte, bool) { return appendValue(b, v, true) }

func appendValue(b []byte, v any, typed bool) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, x), true
	case string:
		if typed && !utf8.ValidString(x) {
			return b, false
		}
		return appendString(b, x), true
	case int64:
		return strconv.AppendInt(b, x, 10), true
	case float64:
		start := len(b)
		b, ok := appendFloat(b, x)
		if ok && typed && !bytes.ContainsAny(b[start:], ".eE") {
			b = append(b, ".0"...)
		}
		return b, ok
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendValue(b, e, typed); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			if typed && !utf8.ValidString(k) {
				return b, false
			}
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			var ok bool
			if b, ok = appendValue(b, x[k], typed); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendFloat formats like encoding/json: the shortest representation, in
// exponent form only for very small or large magnitudes.
func appendFloat(b []byte, f float64) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, false
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9, as encoding/json does
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

const hexDigits = "0123456789abcdef"

// appendString quotes s as encoding/json does with HTML escaping off.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
