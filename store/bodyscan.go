package store

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// scanBody is the quick pass's body reader: one validating walk over the
// bytes that picks out the mirrored fields, instead of building a parsed
// document. It only ever says "this is a canonical decision body and these
// are its fields"; on anything else it says false and the caller takes the
// exact path (parseMirror), so it must be at least as strict as
// encoding/json and fastjson and agree with both wherever it says true. A
// fuzz test holds it to that.

// bodyFields are the fields of a decision body the row's columns mirror.
// Strings are the raw bytes between the quotes (they never hold a backslash:
// the scanner refuses an escaped mirror string), sub-slices of the body.
type bodyFields struct {
	id, time, requester, gitHead, trigger, task []byte // decision_id, time, requester, git_head, request.trigger, request.task
	exitCode                                    int64
	blocked                                     bool
	gates                                       []bodyGate // the body's gates list, in order
}

// bodyGate is one entry of a body's gates list.
type bodyGate struct {
	name, outcome, severity []byte
	blocks                  bool
}

// scanMaxDepth bounds nesting: canonical decision bodies nest five deep,
// and a bound keeps a hostile body from exhausting the stack.
const scanMaxDepth = 64

const (
	swarOnes = 0x0101010101010101
	swarHigh = 0x8080808080808080
)

// The mirrored fields of each object scanBody reads into, one bit each, so
// that a missing one is seen at the object's end.
const (
	seenBlocked = 1 << iota
	seenID
	seenExit
	seenGates
	seenGitHead
	seenRequest
	seenRequester
	seenTime
	seenTop = 1<<iota - 1
)

const (
	seenTrigger = 1 << iota
	seenTask
	seenRequestAll = 1<<iota - 1
)

const (
	seenGateBlocks = 1 << iota
	seenGateName
	seenGateOutcome
	seenGateSeverity
	seenGateAll = 1<<iota - 1
)

// The field names of bodyMirror at each level. encoding/json matches a key
// to a field case-insensitively (bytes.EqualFold, so "Time" or "requeſter"
// fill a field too), where fastjson and this scanner match exactly: a key
// that folds to one of these without being it is refused.
var (
	topNames     = [...]string{"blocked", "decision_id", "exit_code", "gates", "git_head", "request", "requester", "time"}
	requestNames = [...]string{"task", "trigger"}
	gateNames    = [...]string{"blocks", "name", "outcome", "severity"}
)

// scanBody fills f (reusing its slices) and reports whether body is a
// canonical decision body carrying every mirrored field.
func scanBody(body []byte, f *bodyFields) bool {
	*f = bodyFields{gates: f.gates[:0]}
	b := body
	if len(b) < 2 || b[0] != '{' {
		return false
	}
	seen := 0
	i, p := 1, prevKey{s: -1}
	for {
		j, w := scanKey(b, i, &p)
		if j < 0 {
			return false
		}
		switch {
		case w == kwBlocked:
			j, f.blocked = scanBool(b, j)
			seen |= seenBlocked
		case w == kwDecisionID && p.is(b, "decision_id"):
			j, f.id = mirrorString(b, j)
			seen |= seenID
		case w == kwExitCode && p.is(b, "exit_code"):
			j, f.exitCode = scanInt(b, j)
			seen |= seenExit
		case w == kwGates:
			j = scanGates(b, j, f)
			seen |= seenGates
		case w == kwGitHead && p.is(b, "git_head"):
			j, f.gitHead = mirrorString(b, j)
			seen |= seenGitHead
		case w == kwRequest:
			j = scanRequest(b, j, f)
			seen |= seenRequest
		case w == kwRequester && p.is(b, "requester"):
			j, f.requester = mirrorString(b, j)
			seen |= seenRequester
		case w == kwTime:
			j, f.time = mirrorString(b, j)
			seen |= seenTime
		default:
			if p.odd() && foldsToName(b[p.s:p.e], topNames[:]) {
				return false
			}
			j = skipValue(b, j, 1)
		}
		if j < 0 || j >= len(b) {
			return false
		}
		if b[j] == ',' {
			i = j + 1
			continue
		}
		return b[j] == '}' && j+1 == len(b) && seen == seenTop
	}
}

// scanRequest reads the request object at i, depth 2.
func scanRequest(b []byte, i int, f *bodyFields) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	seen := 0
	i, p := i+1, prevKey{s: -1}
	for {
		j, w := scanKey(b, i, &p)
		if j < 0 {
			return -1
		}
		switch {
		case w == kwTask:
			j, f.task = mirrorString(b, j)
			seen |= seenTask
		case w == kwTrigger:
			j, f.trigger = mirrorString(b, j)
			seen |= seenTrigger
		default:
			if p.odd() && foldsToName(b[p.s:p.e], requestNames[:]) {
				return -1
			}
			j = skipValue(b, j, 2)
		}
		if j < 0 || j >= len(b) {
			return -1
		}
		if b[j] == ',' {
			i = j + 1
			continue
		}
		if b[j] != '}' || seen != seenRequestAll {
			return -1
		}
		return j + 1
	}
}

// scanGates reads the gates array at i (depth 2), each entry an object at
// depth 3 with every mirrored gate field.
func scanGates(b []byte, i int, f *bodyFields) int {
	if i+1 >= len(b) || b[i] != '[' {
		return -1
	}
	i++
	if b[i] == ']' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '{' {
			return -1
		}
		var g bodyGate
		seen := 0
		i++
		p := prevKey{s: -1}
		for {
			j, w := scanKey(b, i, &p)
			if j < 0 {
				return -1
			}
			switch {
			case w == kwBlocks:
				j, g.blocks = scanBool(b, j)
				seen |= seenGateBlocks
			case w == kwName:
				j, g.name = mirrorString(b, j)
				seen |= seenGateName
			case w == kwOutcome:
				j, g.outcome = mirrorString(b, j)
				seen |= seenGateOutcome
			case w == kwSeverity && p.is(b, "severity"):
				j, g.severity = mirrorString(b, j)
				seen |= seenGateSeverity
			default:
				if p.odd() && foldsToName(b[p.s:p.e], gateNames[:]) {
					return -1
				}
				j = skipValue(b, j, 3)
			}
			if j < 0 || j >= len(b) {
				return -1
			}
			i = j + 1
			if b[j] == ',' {
				continue
			}
			if b[j] != '}' || seen != seenGateAll {
				return -1
			}
			break
		}
		f.gates = append(f.gates, g)
		if i >= len(b) {
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

// Keys are told apart by their first eight bytes, big-endian, the bytes
// past a shorter key's end zero: a key holds no zero byte (a raw control
// byte is refused), so the word of a key under eight bytes is the key, and
// words order keys as bytes do wherever they differ.
var (
	kwBlocked    = keyWord("blocked")
	kwDecisionID = keyWord("decision_id")
	kwExitCode   = keyWord("exit_code")
	kwGates      = keyWord("gates")
	kwGitHead    = keyWord("git_head")
	kwRequest    = keyWord("request")
	kwRequester  = keyWord("requester")
	kwTime       = keyWord("time")
	kwTask       = keyWord("task")
	kwTrigger    = keyWord("trigger")
	kwBlocks     = keyWord("blocks")
	kwName       = keyWord("name")
	kwOutcome    = keyWord("outcome")
	kwSeverity   = keyWord("severity")
)

func keyWord(s string) uint64 {
	var w [8]byte
	copy(w[:], s)
	return binary.BigEndian.Uint64(w[:])
}

// prevKey is the key scanKey read last in an object: its bounds and word
// (s < 0 before the first), and its bytes as loaded, v and u, to tell
// whether it could fold to another key (see odd).
type prevKey struct {
	s, e int
	w    uint64
	v, u uint64
}

// is reports whether the key is name, for names of eight bytes or more
// (whose word does not tell their length).
func (p *prevKey) is(b []byte, name string) bool {
	return string(b[p.s:p.e]) == name
}

// odd reports whether the key holds an upper-case or non-ASCII byte, which
// only a key can that folds to another: a key scanKey reads the slow way
// counts as odd.
func (p *prevKey) odd() bool {
	return upperMask(p.v)|upperMask(p.u) != 0
}

// scanKey reads `"key":` at i, the key strictly after the object's previous
// one p, which it then becomes. It returns the index after the colon (< 0
// when it is not such a key) and the key's word. A key under sixteen bytes
// from '#' up, the common case, is read with one or two loads.
func scanKey(b []byte, i int, p *prevKey) (next int, w uint64) {
	if i >= len(b) || b[i] != '"' {
		return -1, 0
	}
	ks := i + 1
	if ks+16 <= len(b) {
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
		if ke := ks + n; n >= 0 && ke+1 < len(b) && b[ke+1] == ':' {
			w = bits.ReverseBytes64(v)
			if p.s >= 0 && (p.w > w || p.w == w && bytes.Compare(b[p.s:p.e], b[ks:ke]) >= 0) {
				return -1, 0
			}
			// Field by field: a composite literal is built on the stack
			// and copied in halves, which stalls on its own stores.
			p.s, p.e, p.w, p.v, p.u = ks, ke, w, v, u
			return ke + 2, w
		}
	}
	ke, escaped := scanString(b, ks)
	if ke < 0 || escaped || ke+1 >= len(b) || b[ke+1] != ':' {
		return -1, 0
	}
	w = prefixWord(b, ks, ke)
	if p.s >= 0 && (p.w > w || p.w == w && bytes.Compare(b[p.s:p.e], b[ks:ke]) >= 0) {
		return -1, 0
	}
	p.s, p.e, p.w, p.v, p.u = ks, ke, w, 'A', 0
	return ke + 2, w
}

// upperMask has bit 7 set in each byte of v from 'A' to 'Z', for v whose
// bytes are all ASCII: b+0x3F reaches bit 7 from 'A' up, b+0x25 from '['
// up, and neither carries into the next byte.
func upperMask(v uint64) uint64 {
	return (v + 0x3F*swarOnes) &^ (v + 0x25*swarOnes) & swarHigh
}

// prefixWord is the word of key b[ks:ke].
func prefixWord(b []byte, ks, ke int) uint64 {
	var w uint64
	for j := range 8 {
		w <<= 8
		if ks+j < ke {
			w |= uint64(b[ks+j])
		}
	}
	return w
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
	if i >= len(b) || b[i] != '"' {
		return -1, nil
	}
	end := shortString(b, i+1)
	if end < 0 {
		var escaped bool
		if end, escaped = scanString(b, i+1); end < 0 || escaped {
			return -1, nil
		}
	}
	return end + 1, b[i+1 : end]
}

// scanBool reads true or false at i.
func scanBool(b []byte, i int) (int, bool) {
	if bytes.HasPrefix(b[min(i, len(b)):], []byte("true")) {
		return i + 4, true
	}
	if bytes.HasPrefix(b[min(i, len(b)):], []byte("false")) {
		return i + 5, false
	}
	return -1, false
}

// scanInt reads an integer literal -?(0|[1-9][0-9]*) at i that fits int64.
func scanInt(b []byte, i int) (int, int64) {
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	if i >= len(b) || b[i] < '0' || b[i] > '9' {
		return -1, 0
	}
	if b[i] == '0' {
		i++
	} else {
		var u uint64
		for ; i < len(b) && '0' <= b[i] && b[i] <= '9'; i++ {
			if u > (1<<63)/10 {
				return -1, 0
			}
			u = u*10 + uint64(b[i]-'0')
			if u > 1<<63 {
				return -1, 0
			}
		}
		if !neg && u == 1<<63 {
			return -1, 0
		}
		if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
			return -1, 0
		}
		if neg {
			return i, -int64(u)
		}
		return i, int64(u)
	}
	if i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E' || '0' <= b[i] && b[i] <= '9') {
		return -1, 0
	}
	return i, 0
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
		return skipObject(b, i, depth+1)
	case '[':
		return skipArray(b, i, depth+1)
	case 't':
		if bytes.HasPrefix(b[i:], []byte("true")) {
			return i + 4
		}
	case 'f':
		if bytes.HasPrefix(b[i:], []byte("false")) {
			return i + 5
		}
	case 'n':
		if bytes.HasPrefix(b[i:], []byte("null")) {
			return i + 4
		}
	default:
		return scanNumber(b, i)
	}
	return -1
}

// skipObject validates the object at i, at depth, keys strictly increasing.
func skipObject(b []byte, i, depth int) int {
	if depth > scanMaxDepth || i+1 >= len(b) {
		return -1
	}
	i++
	if b[i] == '}' {
		return i + 1
	}
	p := prevKey{s: -1}
	for {
		j, _ := scanKey(b, i, &p)
		if j < 0 {
			return -1
		}
		if j = skipValue(b, j, depth); j < 0 || j >= len(b) {
			return -1
		}
		switch b[j] {
		case ',':
			i = j + 1
		case '}':
			return j + 1
		default:
			return -1
		}
	}
}

// skipArray validates the array at i, at depth.
func skipArray(b []byte, i, depth int) int {
	if depth > scanMaxDepth || i+1 >= len(b) {
		return -1
	}
	i++
	if b[i] == ']' {
		return i + 1
	}
	for {
		if i = skipValue(b, i, depth); i < 0 || i >= len(b) {
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

// scanNumber validates a number per RFC 8259 at i and returns the index
// after it, or -1.
func scanNumber(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return -1
	case b[i] == '0':
		i++
	case '1' <= b[i] && b[i] <= '9':
		i = skipDigits(b, i+1)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		d := i + 1
		if i = skipDigits(b, d); i == d {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		d := i
		if i = skipDigits(b, d); i == d {
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

// scanString validates the string whose contents start at i and returns
// the index of its closing quote (-1 when it is not a valid string) and
// whether it holds an escape. Contents are skipped eight bytes at a time
// up to the next quote, backslash or control byte; UTF-8 is validated only
// when a byte at or above 0x80 was seen.
func scanString(b []byte, i int) (int, bool) {
	start := i
	var high uint64
	escaped := false
	for {
		for i+8 <= len(b) {
			v := binary.LittleEndian.Uint64(b[i:])
			if m := specialMask(v); m != 0 {
				t := bits.TrailingZeros64(m) &^ 7
				high |= v & (1<<t - 1)
				i += t >> 3
				break
			}
			high |= v
			i += 8
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

// specialMask has bit 7 set in the lowest byte of v (little-endian) that
// is '"', '\\' or below 0x20, and maybe in bytes above it. The classic
// has-zero-byte test ((x - 0x01…) &^ x & 0x80…) is exact on the lowest
// match, which is the only one used.
func specialMask(v uint64) uint64 {
	q := v ^ (swarOnes * '"')
	s := v ^ (swarOnes * '\\')
	return (((q - swarOnes) &^ q) | ((s - swarOnes) &^ s) | ((v - swarOnes*0x20) &^ v)) & swarHigh
}

// stopMask is a cheaper specialMask for a first look: bit 7 in the lowest
// byte below 0x23 or equal to '\\' (a space or '!' is a false stop, which
// the caller leaves to scanString).
func stopMask(v uint64) uint64 {
	s := v ^ (swarOnes * '\\')
	return (((v - swarOnes*0x23) &^ v) | ((s - swarOnes) &^ s)) & swarHigh
}

// shortString returns the index of the closing quote of the string whose
// contents start at i when they are under eight ASCII bytes from '#' up
// other than '\\', and -1 otherwise (then scanString decides). It is small enough
// to be inlined into the loops that read most values.
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
