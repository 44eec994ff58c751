package gate

import (
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/diag"
)

// facts_at narrows the namespaces a gate reads at one of its triggers; a
// trigger the gate does not have, or a namespace facts does not name, is an
// error at its line.
func TestFactsAt(t *testing.T) {
	known := func(ns string) bool { return ns == "files" || ns == "git" }
	d := &diag.Diagnostics{Kind: diag.ErrBundle}
	y := strings.Replace(gateYAML("big", "rego", "facts_at:\n  pre-write: [files]"), "triggers: [commit]", "triggers: [commit, pre-write]", 1)
	m := parseMeta("gate.yaml", "big", []byte(strings.Replace(y, "facts: [files]", "facts: [files, git]", 1)), known, d)
	if len(d.Items) > 0 {
		t.Fatalf("a valid facts_at: %v", d.Items)
	}
	if got := m.NeedsAt("pre-write"); !slices.Equal(got, []string{"files"}) {
		t.Errorf("NeedsAt(pre-write) = %v", got)
	}
	if got := m.NeedsAt("commit"); !slices.Equal(got, []string{"files", "git"}) {
		t.Errorf("NeedsAt(commit) = %v", got)
	}
	for _, c := range []struct{ extra, want string }{
		{"facts_at:\n  pre-write: []", `facts_at: "pre-write" is not one of the gate's triggers`},
		{"facts_at:\n  commit: [git]", `facts_at.commit: "git" is not a namespace facts names`},
		{"facts_at: [commit]", "facts_at must be a mapping"},
	} {
		d := &diag.Diagnostics{Kind: diag.ErrBundle}
		parseMeta("gate.yaml", "big", []byte(gateYAML("big", "rego", c.extra)), known, d)
		if len(d.Items) != 1 || !strings.Contains(d.Items[0].Msg, c.want) || d.Items[0].Line == 0 {
			t.Errorf("%q: %+v, want one error at a line saying %q", c.extra, d.Items, c.want)
		}
	}
}
