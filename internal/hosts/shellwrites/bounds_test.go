package shellwrites

import (
	"strings"
	"testing"
	"time"
)

// worstCases are inputs at or past each bound: the analysis must stop at
// the bound with one Unknown naming it, or finish under it.
var worstCases = map[string]string{
	"touch src/{a,../other/q}{1..3000}":                             reasonBrace,
	"touch x" + strings.Repeat("{,}", 40):                           reasonBrace,
	"touch " + strings.Repeat("{a,b}", 11):                          reasonBrace,
	"touch {1..1000} {1..1000} {1..1000} {1..1000} {1..1000}":       reasonWords,
	"echo " + strings.Repeat("$(", 300) + strings.Repeat(")", 300):  reasonNesting,
	"touch x" + strings.Repeat(" y", maxCommandBytes/2):             reasonSize,
	"touch {1..9223372036854775807}":                                reasonBrace,
	"touch {-9223372036854775808..9223372036854775807..4294967296}": reasonBrace,
}

func TestBoundsMakeOneUnknown(t *testing.T) {
	for cmd, reason := range worstCases {
		r := Shell(cmd)
		if len(r.Writes) != 0 || len(r.Unknown) != 1 || r.Unknown[0].Reason != reason || len(r.Unknown[0].Text) > 210 {
			t.Errorf("%.60s: %d writes, unknown %+v; want only %q", cmd, len(r.Writes), r.Unknown, reason)
		}
	}
}

// TestDeadline: a clock past the deadline stops the walk with one Unknown;
// the clock is injected, so the test does not depend on the machine's speed.
func TestDeadline(t *testing.T) {
	start := time.Unix(0, 0)
	calls := 0
	clock := func() time.Time {
		calls++
		if calls == 1 {
			return start
		}
		return start.Add(time.Second)
	}
	r := ShellIn(strings.Repeat("touch a; ", 200), Options{now: clock})
	if len(r.Writes) != 0 || len(r.Unknown) != 1 || r.Unknown[0].Reason != reasonTime {
		t.Errorf("%+v", r)
	}
	// Under the bound the same command is judged in full.
	if r := Shell(strings.Repeat("touch a; ", 200)); len(r.Writes) != 1 || len(r.Unknown) != 0 {
		t.Errorf("%+v", r)
	}
}

// BenchmarkShellWorst measures the inputs closest to each bound the
// analysis still finishes (4,000 brace-expanded words, a 1 MiB here-document,
// 199 nested substitutions, 8 nested sh -c strings, 2,000 sed w commands)
// and one just past a bound.
func BenchmarkShellWorst(b *testing.B) {
	for name, cmd := range worstBench() {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Shell(cmd)
			}
		})
	}
}

// worstBench lists the inputs closest to each bound.
func worstBench() map[string]string {
	nested := "touch {1..500}"
	for range 7 {
		nested = "bash -c " + shellQuote(nested)
	}
	return map[string]string{
		"words":   "touch " + strings.Repeat("{1..1000} ", 4) + strings.Repeat("x ", 90),
		"nesting": "echo " + strings.Repeat("$(", 199) + strings.Repeat(")", 199),
		"size":    "cat > a <<'EOF'\n" + strings.Repeat("x", maxCommandBytes-40) + "\nEOF",
		"shc":     nested,
		"seds":    "sed -n " + strings.Repeat("-e 's/a/b/w other/x' ", 2000) + "f",
		"past":    "touch " + strings.Repeat("{,}", 60),
	}
}
