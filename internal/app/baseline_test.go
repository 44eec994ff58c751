package app

import (
	"slices"
	"testing"

	"github.com/tausik/tausik/engine/baseline"
)

// A forced rewrite names the entries it adds or raises (the debt a person
// accepts), not the ones it keeps or lowers.
func TestForceReportsRaisedEntries(t *testing.T) {
	en := func(key string, q int) baseline.Entry {
		return baseline.Entry{Gate: "filesize", Rule: "too_long", File: key, Key: key, Quantity: q}
	}
	old := &baseline.File{Entries: []baseline.Entry{en("a.py", 600), en("b.py", 700), en("c.py", 800), en("gone.py", 900)}}
	found := map[baseline.Fingerprint]baseline.Entry{}
	for _, e := range []baseline.Entry{en("a.py", 650), en("b.py", 700), en("c.py", 750), en("new.py", 510)} {
		found[e.Fingerprint()] = e
	}
	added, lowered, dropped, raised := diff(old, found)
	want := []string{"filesize/too_long a.py: 600 to 650", "filesize/too_long new.py: 510"}
	if added != 1 || lowered != 1 || dropped != 1 || !slices.Equal(raised, want) {
		t.Fatalf("added %d lowered %d dropped %d raised %q; want 1 1 1 %q", added, lowered, dropped, raised, want)
	}
}
