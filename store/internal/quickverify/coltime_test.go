package quickverify

import (
	"testing"

	"github.com/tausik/tausik/store/internal/sqldb"
)

// columnTimeByParse is appendColumnTime without its short cut.
func columnTimeByParse(s string) (string, bool) {
	t, err := sqldb.ParseTime(s)
	if err != nil {
		return "", false
	}
	return t.UTC().Format(sqldb.TimeLayout), true
}

// TestColumnTimeShortCut holds appendColumnTime's short cut for UTC times
// to the parse it skips, on the edges of every field.
func TestColumnTimeShortCut(t *testing.T) {
	for _, s := range []string{
		"2026-01-01T00:00:00.004Z", "2026-12-31T23:59:59.999999999Z", "2026-01-01T00:00:00.1Z",
		"2024-02-29T12:00:00.5Z", "2025-02-29T12:00:00.5Z", "2000-02-29T00:00:00.5Z", "1900-02-29T00:00:00.5Z",
		"2026-04-31T00:00:00.5Z", "2026-00-10T00:00:00.5Z", "2026-13-10T00:00:00.5Z", "2026-01-00T00:00:00.5Z",
		"2026-01-32T00:00:00.5Z", "2026-01-01T24:00:00.5Z", "2026-01-01T00:60:00.5Z", "2026-01-01T00:00:60.5Z",
		"2026-01-01T00:00:00.1234567890Z", "2026-01-01T00:00:00,5Z", "2026-01-01T00:00:00.5z", "2026-01-01T00:00:00Z",
		"2026-01-01T00:00:00.5+00:00", "2026-01-01T00:00:00.x5Z", "0000-01-01T00:00:00.5Z", "2026-01-01t00:00:00.5Z",
		"2026-01-01T00:00:00.000000000Z", "２０２６-01-01T00:00:00.5Z",
	} {
		got, gotOK := AppendColumnTime(nil, s)
		want, wantOK := columnTimeByParse(s)
		if gotOK != wantOK || string(got) != want {
			t.Errorf("%q: got %q %v, the parse gives %q %v", s, got, gotOK, want, wantOK)
		}
	}
	if !utcFixable("2024-02-29T12:00:00.5Z") {
		t.Error("the short cut does not take a time append writes")
	}
}

// FuzzColumnTime holds the short cut to the parse on any input.
func FuzzColumnTime(f *testing.F) {
	f.Add("2026-01-01T00:00:00.004Z")
	f.Add("2024-02-29T23:59:59.123456789Z")
	f.Fuzz(func(t *testing.T, s string) {
		got, gotOK := AppendColumnTime(nil, s)
		want, wantOK := columnTimeByParse(s)
		if gotOK != wantOK || string(got) != want {
			t.Fatalf("%q: got %q %v, the parse gives %q %v", s, got, gotOK, want, wantOK)
		}
	})
}
