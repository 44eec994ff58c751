package quickverify

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// ScanBody is the quick pass's body reader: one validating walk, no document
// built. False sends the caller to the exact path (parseMirror), so it is at
// least as strict as encoding/json and fastjson and agrees with both
// wherever it says true (a differential fuzz test holds it to that).

// BodyFields are the fields of a decision body the row's columns mirror.
// Strings are the raw bytes between the quotes (they never hold a backslash:
// the scanner refuses an escaped mirror string), sub-slices of the body.
type BodyFields struct {
	ID, Time, Requester, GitHead, Trigger, Task []byte // decision_id, time, requester, git_head, request.trigger, request.task
	ExitCode                                    int64
	Blocked                                     bool
	Gates                                       []BodyGate // the body's gates list, in order
}

// BodyGate is one entry of a body's gates list.
type BodyGate struct {
	Name, Outcome, Severity []byte
	Blocks                  bool
}

// scanMaxDepth bounds nesting (decision bodies nest five deep) so that no
// body can exhaust the stack.
const scanMaxDepth = 64

// swarOnes and swarHigh are 0x01 and 0x80 in every byte of a word.
const swarOnes, swarHigh = 0x0101010101010101, 0x8080808080808080

// The objects scanFields reads: those with mirrored fields and any other.
const (
	objTop = iota
	objRequest
	objGate
	objOther
)

// mirrorNames are bodyMirror's field names in each object. encoding/json
// matches keys to fields by bytes.EqualFold ("Time", "requeſter" fill one
// too), fastjson and ScanBody exactly: a key folding to one is refused.
var mirrorNames = [...][]string{
	objTop:     {"blocked", "decision_id", "exit_code", "gates", "git_head", "request", "requester", "time"},
	objRequest: {"task", "trigger"},
	objGate:    {"blocks", "name", "outcome", "severity"},
	objOther:   {},
}

// ScanBody fills f (reusing its slices) and reports whether body is a
// canonical decision body carrying every mirrored field.
func ScanBody(body []byte, f *BodyFields) bool {
	*f = BodyFields{Gates: f.Gates[:0]}
	return scanFields(body, 0, 1, objTop, f, nil) == len(body)
}

// scanFields validates the object at i (depth, keys strictly increasing),
// reads obj's mirrored fields into f (g: a gate's) and returns the end or -1.
func scanFields(b []byte, i, depth, obj int, f *BodyFields, g *BodyGate) int {
	if depth > scanMaxDepth || i+1 >= len(b) || b[i] != '{' {
		return -1
	}
	if obj == objOther && b[i+1] == '}' {
		return i + 2
	}
	seen, p := 0, prevKey{s: -1}
	i++
	for {
		var j int
		if j = scanKey(b, i, &p); j < 0 {
			return -1
		}
		j, known := readMirrored(b, j, obj, p, f, g) // keys are sorted, so each is read once
		switch {
		case known:
			seen++
		case obj != objOther && p.odd() && foldsToName(b[p.s:p.e], mirrorNames[obj]):
			return -1
		default:
			j = skipValue(b, j, depth)
		}
		if j < 0 || j >= len(b) {
			return -1
		}
		if b[j] == ',' {
			i = j + 1
			continue
		}
		if b[j] != '}' || seen != len(mirrorNames[obj]) {
			return -1
		}
		return j + 1
	}
}

// skipArray validates the array at i, at depth; with f, it is the gates
// list and each entry a gate read into f.Gates.
func skipArray(b []byte, i, depth int, f *BodyFields) int {
	if depth > scanMaxDepth || i+1 >= len(b) || b[i] != '[' {
		return -1
	}
	if i++; b[i] == ']' {
		return i + 1
	}
	for {
		if f == nil {
			i = skipValue(b, i, depth)
		} else {
			var g BodyGate
			if i = scanFields(b, i, depth+1, objGate, f, &g); i >= 0 {
				f.Gates = append(f.Gates, g)
			}
		}
		if i < 0 || i >= len(b) {
			return -1
		}
		switch b[i] {
		case ',':
			i++
		case ']':
			return i + 1
		default:
			return -1
		}
	}
}

// A key's word is its first eight bytes, big-endian, zero past its end: a
// key holds no zero byte (raw control bytes are refused), so the word of a
// key under eight bytes is the key, and words order keys as bytes do.
var (
	kwBlocked, kwDecisionID, kwExitCode = keyWord("blocked"), keyWord("decision_id"), keyWord("exit_code")
	kwGates, kwGitHead, kwRequest       = keyWord("gates"), keyWord("git_head"), keyWord("request")
	kwRequester, kwTime                 = keyWord("requester"), keyWord("time")
	kwTask, kwTrigger                   = keyWord("task"), keyWord("trigger")
	kwBlocks, kwName                    = keyWord("blocks"), keyWord("name")
	kwOutcome, kwSeverity               = keyWord("outcome"), keyWord("severity")
)

func keyWord[T string | []byte](s T) uint64 {
	var w [8]byte
	copy(w[:], s)
	return binary.BigEndian.Uint64(w[:])
}

// prevKey is the key scanKey read last in an object: bounds, word (s < 0
// before the first) and its bytes as loaded, v and u, for odd.
type prevKey struct {
	s, e    int
	w, v, u uint64
}

// odd reports whether the key may fold to another: it has an upper-case or
// non-ASCII byte, or scanKey read it the slow way.
func (p prevKey) odd() bool {
	return upperMask(p.v)|upperMask(p.u) != 0
}

// scanKey reads `"key":` at i, strictly after the object's previous key p,
// which it then becomes, and returns the index after the colon (< 0: no
// such key). The common key, under sixteen bytes from '#' up, takes one or
// two loads.
func scanKey(b []byte, i int, p *prevKey) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	ks := i + 1
	if ks+16 > len(b) {
		return scanKeySlow(b, ks, p)
	}
	v, u, n := binary.LittleEndian.Uint64(b[ks:]), uint64(0), -1
	if m := stopMask(v) | v&swarHigh; m != 0 {
		if t := bits.TrailingZeros64(m) &^ 7; byte(v>>t) == '"' {
			n, v = t>>3, v&(1<<t-1)
		}
	} else {
		u = binary.LittleEndian.Uint64(b[ks+8:])
		if m := stopMask(u) | u&swarHigh; m != 0 {
			if t := bits.TrailingZeros64(m) &^ 7; byte(u>>t) == '"' {
				n, u = 8+t>>3, u&(1<<t-1)
			}
		}
	}
	ke := ks + n
	if n < 0 || ke+1 >= len(b) || b[ke+1] != ':' {
		return scanKeySlow(b, ks, p)
	}
	w := bits.ReverseBytes64(v)
	if p.s >= 0 && (p.w > w || p.w == w && bytes.Compare(b[p.s:p.e], b[ks:ke]) >= 0) {
		return -1
	}
	// Field by field: a literal is built on the stack and copied, a stall.
	p.s, p.e, p.w, p.v, p.u = ks, ke, w, v, u
	return ke + 2
}

// scanKeySlow is scanKey for any other key, which counts as odd.
func scanKeySlow(b []byte, ks int, p *prevKey) int {
	ke, escaped := scanString(b, ks)
	if ke < 0 || escaped || ke+1 >= len(b) || b[ke+1] != ':' {
		return -1
	}
	w := keyWord(b[ks:ke])
	if p.s >= 0 && (p.w > w || p.w == w && bytes.Compare(b[p.s:p.e], b[ks:ke]) >= 0) {
		return -1
	}
	p.s, p.e, p.w, p.v, p.u = ks, ke, w, 'A', 0
	return ke + 2
}

// upperMask has bit 7 set in each byte of ASCII v from 'A' to 'Z': b+0x3F
// reaches bit 7 from 'A' up, b+0x25 from '[' up, neither carries.
func upperMask(v uint64) uint64 {
	return (v + 0x3F*swarOnes) &^ (v + 0x25*swarOnes) & swarHigh
}

// foldsToName reports whether key would fill one of the fields names in
// encoding/json without being its exact name.
func foldsToName(key []byte, names []string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) && string(key) != n {
			return true
		}
	}
	return false
}

// mirrorString reads a string at i that holds no escape, returning the
// index after it and its contents.
func mirrorString(b []byte, i int) (int, []byte) {
	if i < len(b) && b[i] == '"' {
		if end := shortString(b, i+1); end >= 0 {
			return end + 1, b[i+1 : end]
		}
		if end, escaped := scanString(b, i+1); end >= 0 && !escaped {
			return end + 1, b[i+1 : end]
		}
	}
	return -1, nil
}

// scanBool reads true or false at i.
func scanBool(b []byte, i int) (int, bool) {
	switch n := literal(b, i); {
	case n == 4 && b[i] == 't':
		return i + 4, true
	case n == 5:
		return i + 5, false
	}
	return -1, false
}

// literal returns the length of the true, false or null at i, or 0.
func literal(b []byte, i int) int {
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
			return len(lit)
		}
	}
	return 0
}

// scanInt reads an integer literal -?(0|[1-9][0-9]*) at i that fits int64.
func scanInt(b []byte, i int) (int, int64) {
	end := scanNumber(b, i)
	if end < 0 {
		return -1, 0
	}
	lit, neg := b[i:end], b[i] == '-'
	if neg {
		lit = lit[1:]
	}
	if len(lit) > 19 { // 19 digits never overflow a uint64
		return -1, 0
	}
	var u uint64
	for _, c := range lit {
		if c < '0' || c > '9' { // a fraction or an exponent
			return -1, 0
		}
		u = u*10 + uint64(c-'0')
	}
	if u > 1<<63 || !neg && u == 1<<63 {
		return -1, 0
	}
	if neg {
		return end, -int64(u)
	}
	return end, int64(u)
}

// skipValue validates the value at i inside a container at depth and
// returns the index after it, or -1.
func skipValue(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		end := shortString(b, i+1)
		if end < 0 {
			if end, _ = scanString(b, i+1); end < 0 {
				return -1
			}
		}
		return end + 1
	case '{':
		return scanFields(b, i, depth+1, objOther, nil, nil)
	case '[':
		return skipArray(b, i, depth+1, nil)
	case 't', 'f', 'n':
		if n := literal(b, i); n > 0 {
			return i + n
		}
	default:
		return scanNumber(b, i)
	}
	return -1
}

// scanNumber validates a number per RFC 8259 at i and returns the index
// after it, or -1.
func scanNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	d := i
	if i = skipDigits(b, i); i == d || b[d] == '0' && i > d+1 { // no digit, or a leading zero
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if d, i = i+1, skipDigits(b, i+1); i == d {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		if i++; i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if d, i = i, skipDigits(b, i); i == d {
			return -1
		}
	}
	return i
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// scanString validates the string whose contents start at i and returns its
// closing quote's index (-1: not a valid string) and whether it holds an
// escape. It skips eight bytes at a time to the next quote, backslash or
// control byte, and validates UTF-8 only when a byte ≥ 0x80 was seen.
func scanString(b []byte, i int) (int, bool) {
	start := i
	var high uint64
	escaped := false
	for {
		for i+8 <= len(b) {
			v := binary.LittleEndian.Uint64(b[i:])
			m := stopMask(v)
			if m == 0 {
				high, i = high|v, i+8
				continue
			}
			t := bits.TrailingZeros64(m) &^ 7
			high, i = high|v&(1<<t-1), i+t>>3
			if c := b[i]; c != ' ' && c != '!' {
				break
			}
			i++
		}
		for ; i < len(b); i++ { // the last few bytes; none when a word stopped
			if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
				break
			}
			high |= uint64(b[i])
		}
		if i >= len(b) {
			return -1, false
		}
		switch b[i] {
		case '"':
			if high&swarHigh != 0 && !utf8.Valid(b[start:i]) {
				return -1, false
			}
			return i, escaped
		case '\\':
			escaped = true
			if i = skipEscape(b, i); i < 0 {
				return -1, false
			}
		default: // a raw control byte
			return -1, false
		}
	}
}

// stopMask has bit 7 set in the lowest byte of v (little-endian) that is
// below 0x23 or '\\', and maybe in bytes above it: the has-zero-byte test
// ((x - 0x01…) &^ x & 0x80…) is exact on the lowest match, the only one
// used. A space or '!' is a false stop, a quote or control byte a real one.
func stopMask(v uint64) uint64 {
	s := v ^ (swarOnes * '\\')
	return (((v - swarOnes*0x23) &^ v) | ((s - swarOnes) &^ s)) & swarHigh
}

// shortString is scanString's inlined first look: the closing quote of
// contents under eight ASCII bytes from '#' up but '\\', else -1.
func shortString(b []byte, i int) int {
	if i+8 > len(b) {
		return -1
	}
	v := binary.LittleEndian.Uint64(b[i:])
	m := stopMask(v) | v&swarHigh
	t := bits.TrailingZeros64(m) // bit 7 of the stop byte
	if m == 0 || byte(v>>(t&^7)) != '"' {
		return -1
	}
	return i + t>>3
}

// skipEscape validates the escape at b[j] == '\\' and returns the index
// after it, or -1.
func skipEscape(b []byte, j int) int {
	if j+1 >= len(b) {
		return -1
	}
	switch b[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return j + 2
	case 'u':
		if j+6 > len(b) {
			return -1
		}
		for _, c := range b[j+2 : j+6] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return -1
			}
		}
		return j + 6
	}
	return -1
}
