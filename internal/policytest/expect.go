package policytest

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/internal/yamlread"
)

// Expectation is what a case must come out as: its outcome, and what a user
// of the verdict (`--format json`) sees of its violations and reasons. Each
// of the three lists such a user reads takes the same three forms in
// case.yaml: the plain key names items that must appear, not_<key> items that
// must not, and <key>_exact the whole list in any order (docs/mutation.md).
type Expectation struct {
	Outcome    string
	Violations int // exact count; -1 = not checked
	// Messages are the messages the verdict shows: each violation's, or each
	// reason's. Has and Not match substrings (of a reason's code too), Exact
	// whole messages.
	Messages Match
	// Rules are the violations' rule fields ("" for a violation without one).
	Rules Match
	// Reasons are the reasons' codes.
	Reasons Match
}

// Match is what a case expects of one list of the verdict.
type Match struct {
	Has []string // each must appear
	Not []string // none may appear
	// Exact, when Pinned, is the whole list, in any order, each item as
	// often as it occurs; an empty Exact pins an empty list.
	Exact  []string
	Pinned bool
}

// expectLists are the plain keys of the verdict's lists; not_<key> and
// <key>_exact follow from them.
var expectLists = []string{"messages", "rules", "reasons"}

// parseExpect reads a case's expect: mapping. It refuses an unknown key, a
// value of the wrong type, an empty substring, a string no policy can give
// as a reason code, and expectations that contradict each other or the
// outcome (a case that could never pass), each with its line.
func parseExpect(r yamlread.Reader, n *yaml.Node) Expectation {
	keys := []string{"outcome", "violations"}
	for _, k := range expectLists {
		keys = append(keys, k, "not_"+k, k+"_exact")
	}
	ef := r.Fields(n, "expect", keys...)
	r.Require(n, ef, "expect", "outcome")
	x := Expectation{Violations: -1, Outcome: r.Str(ef["outcome"], "expect.outcome")}
	if ef["outcome"] != nil && !slices.Contains([]string{engine.Passed, engine.Failed, engine.NotApplicable, engine.CouldNotRun}, x.Outcome) {
		r.D.Add(r.File, ef["outcome"].Line, "expect.outcome %q is not PASSED, FAILED, NOT_APPLICABLE or COULD_NOT_RUN", x.Outcome)
	}
	if ef["violations"] != nil {
		if x.Violations = r.Int(ef["violations"], "expect.violations"); x.Violations < 0 {
			r.D.Add(r.File, ef["violations"].Line, "expect.violations must be 0 or more, got %d", x.Violations)
		}
	}
	x.Messages = parseMatch(r, ef, "messages", func(key, s string) string {
		if s == "" && key != "messages_exact" {
			return "an empty string is part of every message, so it says nothing"
		}
		return ""
	})
	x.Rules = parseMatch(r, ef, "rules", func(string, string) string { return "" })
	x.Reasons = parseMatch(r, ef, "reasons", func(_, s string) string {
		if !policy.ValidReasonCode(s) {
			return fmt.Sprintf("%q is not a reason code a policy can give (lowercase letters, digits and _, optionally :detail)", s)
		}
		return ""
	})
	x.consistent(r, ef)
	return x
}

// parseMatch reads key, not_<key> and <key>_exact; bad names why an item
// cannot be expected ("" when it can).
func parseMatch(r yamlread.Reader, ef map[string]*yaml.Node, key string, bad func(key, item string) string) Match {
	read := func(k string) []string {
		items := r.Strs(ef[k], "expect."+k)
		for i, s := range items {
			// An item that is not a string has been refused already.
			if e := ef[k].Content[i]; e.Kind == yaml.ScalarNode && e.Tag != "!!null" {
				if why := bad(k, s); why != "" {
					r.D.Add(r.File, e.Line, "expect.%s[%d]: %s", k, i, why)
				}
			}
		}
		return items
	}
	return Match{Has: read(key), Not: read("not_" + key), Exact: read(key + "_exact"), Pinned: ef[key+"_exact"] != nil}
}

// consistent refuses expectations no verdict can meet: an item both
// expected and forbidden, an exact list without an expected item or with a
// forbidden one, rules, reasons or messages on an outcome that shows none,
// and an exact list whose length is not the violation count.
func (x Expectation) consistent(r yamlread.Reader, ef map[string]*yaml.Node) {
	at := func(key string, format string, args ...any) {
		r.D.Add(r.File, ef[key].Line, "expect.%s: "+format+", so the case could never pass", append([]any{key}, args...)...)
	}
	part := func(s, of string) bool { return strings.Contains(of, s) }
	for _, l := range []struct {
		key   string
		m     Match
		match func(item, shown string) bool // an expected item meets a shown one
	}{{"messages", x.Messages, part}, {"rules", x.Rules, eq}, {"reasons", x.Reasons, eq}} {
		for _, n := range l.m.Not {
			if h := slices.IndexFunc(l.m.Has, func(h string) bool { return l.match(n, h) }); h >= 0 {
				at("not_"+l.key, "%q is also expected (%s %q)", n, l.key, l.m.Has[h])
			}
			if l.m.Pinned && slices.ContainsFunc(l.m.Exact, func(e string) bool { return l.match(n, e) }) {
				at("not_"+l.key, "%q is in %s_exact", n, l.key)
			}
		}
		// A message may be met by a reason's code, which messages_exact
		// does not list, so only rules and reasons are held to their exact list.
		if l.key != "messages" && l.m.Pinned {
			for _, h := range l.m.Has {
				if !slices.Contains(l.m.Exact, h) {
					at(l.key, "%q is not in %s_exact", h, l.key)
				}
			}
		}
	}
	failed := x.Outcome == engine.Failed
	switch {
	case ef["outcome"] == nil || failed: // a FAILED verdict may show any violations
	case x.Violations > 0:
		at("violations", "only a FAILED verdict shows violations, this one is %s", x.Outcome)
	case len(x.Rules.Has) > 0 || len(x.Rules.Exact) > 0 || len(x.Rules.Not) > 0:
		at(firstSet(ef, "rules", "rules_exact", "not_rules"), "only a FAILED verdict shows violations, this one is %s", x.Outcome)
	}
	// A not_ key where the verdict can show nothing could never fail.
	if (failed || x.Outcome == engine.Passed) && (len(x.Reasons.Has) > 0 || len(x.Reasons.Exact) > 0 || len(x.Reasons.Not) > 0) {
		at(firstSet(ef, "reasons", "reasons_exact", "not_reasons"), "a %s verdict shows no reasons", x.Outcome)
	}
	if x.Outcome == engine.Passed && (len(x.Messages.Has) > 0 || len(x.Messages.Exact) > 0 || len(x.Messages.Not) > 0) {
		at(firstSet(ef, "messages", "messages_exact", "not_messages"), "a PASSED verdict shows no messages")
	}
	if x.Violations >= 0 && ef["violations"] != nil {
		if x.Rules.Pinned && len(x.Rules.Exact) != x.Violations {
			at("rules_exact", "%d rule(s) for %d violation(s)", len(x.Rules.Exact), x.Violations)
		}
		if failed && x.Messages.Pinned && len(x.Messages.Exact) != x.Violations {
			at("messages_exact", "%d message(s) for %d violation(s)", len(x.Messages.Exact), x.Violations)
		}
	}
}

func eq(a, b string) bool { return a == b }

// firstSet returns the first of keys that ef has.
func firstSet(ef map[string]*yaml.Node, keys ...string) string {
	for _, k := range keys {
		if ef[k] != nil {
			return k
		}
	}
	return keys[len(keys)-1]
}

// check compares a verdict with the expectation and lists what differs.
func (x Expectation) check(v engine.Verdict) []string {
	var out []string
	// A violation the baseline holds is not a failure: a case counts and
	// matches the violations judged.
	v.Violations = v.Judged()
	sum := summarize(v)
	if v.Outcome != x.Outcome {
		out = append(out, fmt.Sprintf("outcome %s, want %s%s", v.Outcome, x.Outcome, sum))
	}
	if x.Violations >= 0 && len(v.Violations) != x.Violations {
		out = append(out, fmt.Sprintf("%d violation(s), want %d%s", len(v.Violations), x.Violations, sum))
	}
	var msgs, rules, codes []string
	for _, vi := range v.Violations {
		msgs, rules = append(msgs, vi.Msg), append(rules, vi.Rule)
	}
	for _, r := range v.Reasons {
		msgs, codes = append(msgs, r.Msg), append(codes, r.Code)
	}
	out = x.Messages.check(out, "messages", "violation or reason mentions", msgs, func(s string) bool { return mentions(v, s) }, sum)
	out = x.Rules.check(out, "rules", "violation has rule", rules, func(s string) bool { return slices.Contains(rules, s) }, sum)
	return x.Reasons.check(out, "reasons", "reason has code", codes, func(s string) bool { return slices.Contains(codes, s) }, sum)
}

// check appends to out what of m the verdict's list shown does not meet;
// appears tells whether an item is in it, what says so in words.
func (m Match) check(out []string, key, what string, shown []string, appears func(string) bool, sum string) []string {
	for _, s := range m.Has {
		if !appears(s) {
			out = append(out, fmt.Sprintf("no %s %q%s", what, s, sum))
		}
	}
	for _, s := range m.Not {
		if appears(s) {
			out = append(out, fmt.Sprintf("a %s %q, which not_%s forbids%s", what, s, key, sum))
		}
	}
	if m.Pinned {
		if missing, extra := multisetDiff(shown, m.Exact); len(missing)+len(extra) > 0 {
			out = append(out, fmt.Sprintf("%s_exact: missing %s, unexpected %s", key, quoted(missing), quoted(extra)))
		}
	}
	return out
}

// multisetDiff returns the items of want that got lacks and the items of got
// that want lacks, each as often as it is short.
func multisetDiff(got, want []string) (missing, extra []string) {
	left := map[string]int{}
	for _, w := range want {
		left[w]++
	}
	for _, g := range got {
		if left[g] > 0 {
			left[g]--
		} else {
			extra = append(extra, g)
		}
	}
	for _, w := range want {
		if left[w] > 0 {
			left[w]--
			missing = append(missing, w)
		}
	}
	return missing, extra
}

func quoted(items []string) string {
	if len(items) == 0 {
		return "nothing"
	}
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func mentions(v engine.Verdict, s string) bool {
	for _, vi := range v.Violations {
		if strings.Contains(vi.Msg, s) {
			return true
		}
	}
	for _, r := range v.Reasons {
		if strings.Contains(r.Msg, s) || strings.Contains(r.Code, s) {
			return true
		}
	}
	return false
}

// summarize shows what a verdict said, for a failed expectation.
func summarize(v engine.Verdict) string {
	var parts []string
	for i, vi := range v.Violations {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(v.Violations)-3))
			break
		}
		parts = append(parts, vi.Msg)
	}
	for _, r := range v.Reasons {
		parts = append(parts, strings.TrimSpace(r.Code+" "+r.Msg))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (got: " + strings.Join(parts, "; ") + ")"
}
