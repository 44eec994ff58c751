package app

import "testing"

// TestClosest names a typo's gate, a prefix's gate, and nothing for a name
// that is no near miss of any gate.
func TestClosest(t *testing.T) {
	known := []string{"filesize", "go_test", "go_vet", "layers", "ruff", "tdd_order"}
	for name, want := range map[string]string{
		"filesiz": "filesize", "fielsize": "filesize", "go_tset": "go_test", "layer": "layers", "rufff": "ruff",
		"file": "filesize", "zzzzzzzzzz": "", "x": "", "": "",
	} {
		if got := closest(name, known); got != want {
			t.Errorf("closest(%q) = %q, want %q", name, got, want)
		}
	}
	if d := editDistance("kitten", "sitting"); d != 3 {
		t.Errorf("editDistance(kitten, sitting) = %d, want 3", d)
	}
}
