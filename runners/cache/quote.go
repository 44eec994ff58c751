package cache

import (
	"encoding/json"
	"unicode/utf8"
)

// A row's text goes into its JSON string with an escape of its own, not
// JSON's. The runners' payloads are JSON, with a quote every few bytes:
// unescaping them with encoding/json, after the store's own validity pass,
// cost ~100 ms over a GOROOT-sized row, and even a two-byte escape per quote
// left a branch per quote that the CPU mispredicts. So a quote is one byte,
// DEL (0x7f, which JSON takes as it is), read back by a table lookup; the
// rarer bytes JSON would escape (backslash, control bytes) and DEL itself
// take pad, U+0080 (a C1 control no source text holds), and a code byte:
// 'b' for a backslash, 'd' for DEL, 'p' for a pad in the text, c+0x30 (a
// digit or capital) for a control byte c. A row is then its text between
// two quotes, valid JSON that the store checks with a scan, read back in one
// pass; and every text has one spelling (FuzzQuote).

// padLead and padTail are the UTF-8 bytes of pad, U+0080; del stands for a
// quote.
const (
	padLead = 0xc2
	padTail = 0x80
	del     = 0x7f
)

var (
	// decoded maps each byte of a row's text to the byte it stands for,
	// escapes aside; stops marks the bytes decoding must look at: pad's
	// first byte and those that JSON refuses as they are.
	decoded, stops = func() (d [256]byte, s [256]bool) {
		for c := range 256 {
			d[c] = byte(c)
			s[c] = c < 0x20 || c == '"' || c == '\\' || c == padLead
		}
		d[del] = '"'
		return d, s
	}()
	// escapes marks the bytes quote must look at: those with a pad escape
	// and pad's first byte.
	escapes = func() (e [256]bool) {
		for c := range 256 {
			e[c] = c < 0x20 || c == '\\' || c == del || c == padLead
		}
		return e
	}()
)

// quote returns the JSON string holding text, which is UTF-8 (the escape
// keeps it so).
func quote(text string) json.RawMessage {
	out := append(make([]byte, 0, len(text)+len(text)/64+2), '"')
	return append(appendEscaped(out, []byte(text)), '"')
}

// appendEscaped appends the escaped text to out.
func appendEscaped(out, text []byte) []byte {
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '"':
			out = append(out, del)
		case !escapes[c]:
			out = append(out, c)
		case c == padLead && (i+1 == len(text) || text[i+1] != padTail):
			out = append(out, c) // another Latin-1 letter
		case c == padLead:
			out = append(out, padLead, padTail, 'p')
			i++
		case c == '\\':
			out = append(out, padLead, padTail, 'b')
		case c == del:
			out = append(out, padLead, padTail, 'd')
		default: // a control byte
			out = append(out, padLead, padTail, c+0x30)
		}
	}
	return out
}

// unquote returns the text that quote wrote as raw, as bytes that nothing
// else holds; ok is false for any
// other value: not a string, a string with a JSON escape or a byte JSON
// refuses, an escape quote never writes, or text that is not UTF-8.
func unquote(raw []byte) ([]byte, bool) {
	n := len(raw)
	if n < 2 || raw[0] != '"' || raw[n-1] != '"' {
		return nil, false
	}
	in := raw[1 : n-1]
	if !utf8.Valid(in) {
		return nil, false
	}
	out := make([]byte, len(in))
	j := 0
	for i := 0; i < len(in); i++ {
		c := in[i]
		out[j] = decoded[c]
		j++
		if !stops[c] {
			continue
		}
		if c != padLead {
			return nil, false
		}
		if i+1 == len(in) || in[i+1] != padTail {
			continue // another Latin-1 letter
		}
		if i+2 == len(in) {
			return nil, false
		}
		switch e := in[i+2]; {
		case e == 'p':
			out[j] = padTail // after the padLead already written
			j++
		case e == 'b':
			out[j-1] = '\\'
		case e == 'd':
			out[j-1] = del
		case e >= 0x30 && e < 0x50:
			out[j-1] = e - 0x30
		default:
			return nil, false
		}
		i += 2
	}
	return out[:j], true
}
