package sqldb

import (
	"crypto/rand"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

// GenesisHash is the chain head of an empty log, the prev_hash of its first
// row (the schema's first migration writes it).
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// TimeLayout is how every time column is written: UTC, RFC 3339 with a fixed
// nine-digit fraction, so that comparing the text compares the instants
// (RFC3339Nano trims trailing zeros, which breaks text order).
const TimeLayout = "2006-01-02T15:04:05.000000000Z"

// FormatTime writes t as every time column holds it (TimeLayout).
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// ParseTime reads a time column (or a body's time) back.
func ParseTime(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

var idGen struct {
	sync.Mutex
	entropy *ulid.MonotonicEntropy
}

// NewID returns a new ULID for t: sortable by time, unique across processes
// (80 random bits from crypto/rand) and strictly increasing within this
// process for equal milliseconds, so decision ids never collide in a burst.
func NewID(t time.Time) string {
	idGen.Lock()
	defer idGen.Unlock()
	if idGen.entropy == nil {
		idGen.entropy = ulid.Monotonic(rand.Reader, 0)
	}
	id, err := ulid.New(ulid.Timestamp(t), idGen.entropy)
	if err != nil {
		// Monotonic overflow within one millisecond, or t outside the ULID
		// range: fall back to fresh randomness at the current time.
		idGen.entropy = ulid.Monotonic(rand.Reader, 0)
		id, err = ulid.New(ulid.Timestamp(time.Now()), rand.Reader)
		if err != nil {
			id = ulid.Make()
		}
	}
	return id.String()
}

// ValidID reports whether s is a canonical (upper-case, 26-character) ULID.
func ValidID(s string) bool {
	id, err := ulid.ParseStrict(s)
	return err == nil && id.String() == s
}
