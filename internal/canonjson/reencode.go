package canonjson

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// maxDepth bounds the nesting Reencode follows; deeper documents take the
// slow path, which has encoding/json's own limit.
const maxDepth = 200

// Reencode returns the bytes Marshal gives for the JSON object raw decodes
// to (with json.Decoder.UseNumber: numbers kept as written), without
// building it: it copies what is already canonical and sorts each object's
// members. ok is false for anything it does not handle itself — input that
// is not one JSON object (maybe with surrounding whitespace), invalid or
// ambiguous (duplicate keys, a string that is not UTF-8), or nested deeper
// than maxDepth — so the caller decodes and marshals instead; whatever it
// accepts, it encodes exactly as that would (TestReencodeMatchesMarshal,
// FuzzReencode); CHANGELOG.md (the warm path of class_surface) has what it saves.
func Reencode(raw []byte) (out []byte, ok bool) {
	r := reencoder{in: raw, out: make([]byte, 0, len(raw))}
	r.space()
	if r.pos >= len(r.in) || r.in[r.pos] != '{' || !r.value(0) {
		return nil, false
	}
	if r.space(); r.pos != len(r.in) {
		return nil, false
	}
	return r.out, true
}

// asciiPlain[c]: c is printable ASCII other than '"' and '\\', its own
// encoding inside a string.
var asciiPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

type reencoder struct {
	in, out []byte
	pos     int
	tmp     []byte   // an object's members while they are sorted
	ms      []member // the members of the objects being read, innermost last
}

// member is one encoded "key":value of an object, at out[start:end].
type member struct {
	key        string
	start, end int
}

func (r *reencoder) space() {
	for r.pos < len(r.in) {
		switch r.in[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// value encodes the value at pos onto out.
func (r *reencoder) value(depth int) bool {
	if r.pos >= len(r.in) || depth > maxDepth {
		return false
	}
	switch c := r.in[r.pos]; {
	case c == '{':
		return r.object(depth)
	case c == '[':
		return r.array(depth)
	case c == '"':
		_, ok := r.str(false)
		return ok
	case c == '-' || c >= '0' && c <= '9':
		return r.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if bytes.HasPrefix(r.in[r.pos:], []byte(lit)) {
			r.pos += len(lit)
			r.out = append(r.out, lit...)
			return true
		}
	}
	return false
}

func (r *reencoder) object(depth int) bool {
	r.pos++ // {
	objStart := len(r.out)
	r.out = append(r.out, '{')
	base := len(r.ms)
	defer func() { r.ms = r.ms[:base] }()
	sorted := true
	for first := true; ; first = false {
		if r.space(); first && r.take('}') {
			return true
		}
		if r.pos >= len(r.in) || r.in[r.pos] != '"' {
			return false
		}
		start := len(r.out)
		key, ok := r.str(true)
		if !ok || !r.take(':') {
			return false
		}
		r.space()
		if !r.value(depth + 1) {
			return false
		}
		if n := len(r.ms); n > base && key <= r.ms[n-1].key {
			sorted = false
		}
		r.ms = append(r.ms, member{key, start, len(r.out)})
		if !r.take(',') {
			return r.take('}') && (sorted || r.sortMembers(objStart, r.ms[base:]))
		}
	}
}

// take copies c when it is the next byte after white space, and reports
// whether it was.
func (r *reencoder) take(c byte) bool {
	if r.space(); r.pos < len(r.in) && r.in[r.pos] == c {
		r.pos++
		r.out = append(r.out, c)
		return true
	}
	return false
}

// sortMembers rewrites the object at out[objStart:] with its members in
// key order; a key given twice (which decoding would settle, the last one
// winning) is refused.
func (r *reencoder) sortMembers(objStart int, ms []member) bool {
	slices.SortStableFunc(ms, func(a, b member) int {
		switch {
		case a.key < b.key:
			return -1
		case a.key > b.key:
			return 1
		}
		return 0
	})
	for i := 1; i < len(ms); i++ {
		if ms[i].key == ms[i-1].key {
			return false
		}
	}
	r.tmp = append(r.tmp[:0], r.out[objStart:]...)
	r.out = append(r.out[:objStart], '{')
	for i, m := range ms {
		if i > 0 {
			r.out = append(r.out, ',')
		}
		r.out = append(r.out, r.tmp[m.start-objStart:m.end-objStart]...)
	}
	r.out = append(r.out, '}')
	return true
}

func (r *reencoder) array(depth int) bool {
	r.pos++ // [
	r.out = append(r.out, '[')
	for first := true; ; first = false {
		if r.space(); first && r.take(']') {
			return true
		}
		if !r.value(depth + 1) {
			return false
		}
		if !r.take(',') {
			return r.take(']')
		}
	}
}

// str encodes the string at pos and, for a key, returns it decoded. A string of valid
// UTF-8 with no escape, control character, U+2028 or U+2029 is its own
// encoding; any other goes through encoding/json both ways.
func (r *reencoder) str(key bool) (string, bool) {
	start := r.pos
	plain := true
	i := start + 1
	for ; i < len(r.in); i++ {
		for i < len(r.in) && asciiPlain[r.in[i]] {
			i++
		}
		if i >= len(r.in) {
			break
		}
		c := r.in[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			i++ // the escaped byte cannot end the string
			continue
		}
		if c < 0x20 {
			return "", false
		}
		if c >= 0x80 {
			rn, size := utf8.DecodeRune(r.in[i:])
			if rn == utf8.RuneError && size <= 1 {
				return "", false
			}
			if rn == '\u2028' || rn == '\u2029' {
				plain = false
			}
			i += size - 1
		}
	}
	if i >= len(r.in) {
		return "", false
	}
	tok := r.in[start : i+1]
	r.pos = i + 1
	if plain {
		r.out = append(r.out, tok...)
		if !key {
			return "", true
		}
		return string(tok[1 : len(tok)-1]), true
	}
	var s string
	if json.Unmarshal(tok, &s) != nil { // Unmarshal makes invalid bytes U+FFFD, so s is UTF-8
		return "", false
	}
	enc, _ := Marshal(s) // a string always encodes
	r.out = append(r.out, enc...)
	return s, true
}

// number copies a number literal of JSON's grammar, as json.Number keeps it.
func (r *reencoder) number() bool {
	in, i := r.in, r.pos
	digits := func() int {
		n := 0
		for i < len(in) && in[i] >= '0' && in[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if in[i] == '-' {
		i++
	}
	switch {
	case i < len(in) && in[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(in) && in[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(in) && (in[i] == 'e' || in[i] == 'E') {
		i++
		if i < len(in) && (in[i] == '+' || in[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	r.out = append(r.out, in[r.pos:i]...)
	r.pos = i
	return true
}
