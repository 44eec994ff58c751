package quickverify

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"
	"unicode/utf8"
)

// Every pass over the log recomputes every row's chain hash from the row as
// stored: a hash column is only ever compared with the hash recomputed from
// the row's body, columns and prev_hash, never trusted, so that an edited
// hash (the last row's and the chain head included) is a break even when its
// successor was edited to link to it.
//
// chainHash builds the preimage with encoding/json, which at about 90 µs a
// row would make `log verify` over 100,000 decisions take seconds. RowHasher
// writes the same bytes by hand for what decision rows hold — strings of
// printable ASCII and valid UTF-8 — and says when it cannot (a control
// character, invalid UTF-8, U+2028 or U+2029, which encoding/json escapes),
// so the caller hashes that row with chainHash. TestRowHasherIsChainHash
// holds the two to the same bytes.

// RowFields is one decision row as the passes read it: its columns as text,
// the gates column already checked to be the canonical list (whose text is
// the preimage's gates value, byte for byte).
type RowFields struct {
	Seq, ExitCode                                               int64
	Blocked                                                     bool
	ID, Time, Trigger, Task, Requester, GitHead, Body, PrevHash []byte
	Gates                                                       []byte
}

// RowHasher recomputes chain hashes; its buffers are reused.
type RowHasher struct {
	buf []byte
	sha hash.Hash
	sum [sha256.Size]byte
	hex [2 * sha256.Size]byte
}

// hash returns the lower-case hex chain hash of r (valid until the next
// call), or false when r holds a string this writer does not encode.
func (h *RowHasher) Hash(r *RowFields) ([]byte, bool) {
	b := append(h.buf[:0], `{"blocked":`...)
	b = strconv.AppendBool(b, r.Blocked)
	ok := true
	str := func(key string, v []byte) {
		b = append(b, key...)
		if ok {
			b, ok = appendJSONString(b, v)
		}
	}
	str(`,"body":`, r.Body)
	b = append(b, `,"exit_code":`...)
	b = strconv.AppendInt(b, r.ExitCode, 10)
	b = append(append(b, `,"gates":`...), r.Gates...)
	str(`,"git_head":`, r.GitHead)
	str(`,"id":`, r.ID)
	str(`,"prev_hash":`, r.PrevHash)
	str(`,"requester":`, r.Requester)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, r.Seq, 10)
	str(`,"task":`, r.Task)
	str(`,"time":`, r.Time)
	str(`,"trigger":`, r.Trigger)
	b = append(b, '}')
	h.buf = b
	if !ok {
		return nil, false
	}
	if h.sha == nil {
		h.sha = sha256.New()
	}
	h.sha.Reset()
	h.sha.Write(b)
	h.sha.Sum(h.sum[:0])
	hex.Encode(h.hex[:], h.sum[:])
	return h.hex[:], true
}

// plainByte marks the ASCII bytes encoding/json copies into a string as they
// are (no HTML escaping): printable ones but the quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s as encoding/json writes it, or returns false
// for a string holding a control character, invalid UTF-8, U+2028 or
// U+2029.
func appendJSONString(b, s []byte) ([]byte, bool) {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plainByte[c] {
			i++
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b = append(append(b, s[start:i]...), '\\', c)
			i++
			start = i
		case c < 0x20:
			return b, false
		default:
			r, n := utf8.DecodeRune(s[i:])
			if (r == utf8.RuneError && n == 1) || r == '\u2028' || r == '\u2029' {
				return b, false
			}
			i += n
		}
	}
	return append(append(b, s[start:]...), '"'), true
}

// IsChainHash reports whether s is spelt as every chain hash is: 64
// lower-case hex digits.
func IsChainHash(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
