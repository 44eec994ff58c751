// Package baseline is the findings a project accepted when it adopted
// tausik (tausik/baseline.json): the file, read strictly with a line for
// every error, the fingerprint that names a violation across commits, and
// the rules that let a held violation pass while it does not grow.
package baseline

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/tausik/tausik/engine/policy"
)

// Baseline rules (docs/baseline.md): a violation is named by its
// fingerprint (gate, rule, file, key); a policy gives the key (a file's
// path, "path:Class") and the quantity that may not grow (lines, public
// members), and for every other violation the key is its message with the
// numbers taken out and the quantity is how many violations share the
// fingerprint. A fingerprint the baseline holds at or above its quantity
// does not block; a new one, or one that grew, does.

// RuleStale is the rule of the violation the engine adds to a gate
// whose stale_baseline param is "block", for each of its baseline entries
// that shrank or vanished.
const RuleStale = "baseline_entry_stale"

// growMark starts the note the engine appends to a violation that grew past
// its baseline entry; stripped first, so a verdict reused from the log is
// never noted twice.
const growMark = "; grew from "

// State marks a violation the baseline holds and that did not grow.
const State = "baselined"

// quantityUnits names each gate's quantity in messages.
var quantityUnits = map[string]string{"filesize": "lines", "class_surface": "public members"}

func quantityUnit(gate string) string {
	if u, ok := quantityUnits[gate]; ok {
		return u
	}
	return "findings"
}

// numberRE matches the numbers a default fingerprint leaves out: counts,
// and line and column references ("a.py:12:4"), but not digits inside a
// word (a rule code such as E501).
var numberRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b\d+(\.\d+)?\b`) })

// baseMsg is v's message as its policy wrote it.
func baseMsg(msg string) string {
	if i := strings.Index(msg, growMark); i >= 0 {
		return msg[:i]
	}
	return msg
}

// FingerprintOf names violation v of gate as the baseline holds it (gate,
// rule, file, and the policy's key or the message without its numbers), so
// that other outputs can track a finding across commits by the same
// identity.
func FingerprintOf(gate string, v policy.Violation) Fingerprint {
	key := v.Key
	if key == "" {
		key = numberRE().ReplaceAllString(baseMsg(v.Msg), "#")
	}
	return Fingerprint{Gate: gate, Rule: v.Rule, File: v.File, Key: key}
}

// group is the violations of one verdict sharing a fingerprint.
type group struct {
	fp       Fingerprint
	idx      []int
	quantity int
}

// groups splits a verdict's violations vs (but those the engine added) by fingerprint,
// in the order they first appear. A group's quantity is the largest
// quantity its policy gave, or, when it gave none, how many it holds.
func groups(gate string, vs []policy.Violation) []*group {
	byFP := map[Fingerprint]*group{}
	var out []*group
	fps := fingerprints(gate, vs)
	for i, x := range vs {
		fp := fps[i]
		g := byFP[fp]
		if g == nil {
			g = &group{fp: fp}
			byFP[fp] = g
			out = append(out, g)
		}
		g.idx = append(g.idx, i)
		g.quantity = max(g.quantity, x.Quantity)
	}
	for _, g := range out {
		if g.quantity == 0 {
			g.quantity = len(g.idx)
		}
	}
	return out
}

// fingerprints names each violation vs of gate. Measured violations (a policy's
// key and a quantity) that share a fingerprint are distinct things under
// one name (two classes Meta in one file): by line, the first keeps the
// key and the next are KEY#2, KEY#3, so neither hides the other's growth
// under a shared maximum.
func fingerprints(gate string, vs []policy.Violation) []Fingerprint {
	fps := make([]Fingerprint, len(vs))
	same := map[Fingerprint][]int{}
	var order []Fingerprint
	for i, x := range vs {
		fps[i] = FingerprintOf(gate, x)
		if x.Key != "" && x.Quantity > 0 {
			if same[fps[i]] == nil {
				order = append(order, fps[i])
			}
			same[fps[i]] = append(same[fps[i]], i)
		}
	}
	for _, fp := range order {
		idx := same[fp]
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(vs[a].Line, vs[b].Line) })
		for n, i := range idx[1:] {
			fps[i].Key = fmt.Sprintf("%s#%d", fp.Key, n+2)
		}
	}
	return fps
}

// Entries returns the baseline entries gate's violations vs would make,
// taken at commit: what `tausik baseline` records. Every violation counts,
// whatever state it has; the ones the baseline itself added do not.
func Entries(gate string, vs []policy.Violation, commit string) []Entry {
	var out []Entry
	for _, g := range groups(gate, vs) {
		if g.fp.Rule == RuleStale {
			continue
		}
		out = append(out, Entry{Gate: g.fp.Gate, Rule: g.fp.Rule, File: g.fp.File, Key: g.fp.Key, Quantity: g.quantity, Commit: commit})
	}
	return out
}

// Sort orders entries by fingerprint, as a baseline file keeps them.
func Sort(entries []Entry) { slices.SortFunc(entries, Entry.less) }

// Verdict is one gate's result as Hold reads and marks it: the violations
// its policy found, whether the gate ran (passed or failed), and Failed,
// which Hold sets when a stale entry fails the gate.
type Verdict struct {
	Gate       string
	Ran        bool
	Violations []policy.Violation
	Failed     bool
}

// Hold marks State the violations of vs that bl holds, notes on the ones
// that grew how much, and reports the entries that shrank or vanished: a
// warning naming the command that lowers them, or, for a gate whose
// stale_baseline (staleMode) is "block", a violation that fails the gate.
// explicit says the request named its files, so only their entries could
// have shrunk. It returns the warnings.
func Hold(bl *File, vs []*Verdict, files []string, explicit bool, staleMode func(string) string) []string {
	entries := make(map[Fingerprint]Entry, len(bl.Entries))
	for _, en := range bl.Entries {
		entries[en.Fingerprint()] = en
	}
	seen := map[Fingerprint]int{}
	ran := map[string]*Verdict{}
	for _, v := range vs {
		v.Violations = slices.DeleteFunc(v.Violations, func(x policy.Violation) bool { return x.Rule == RuleStale })
		if !v.Ran {
			continue
		}
		ran[v.Gate] = v
		for _, g := range groups(v.Gate, v.Violations) {
			en, ok := entries[g.fp]
			seen[g.fp] = g.quantity
			for _, j := range g.idx {
				x := &v.Violations[j]
				x.Msg = baseMsg(x.Msg)
				switch {
				case x.State != "" || !ok:
				case g.quantity <= en.Quantity:
					x.State = State
				default:
					x.Msg += fmt.Sprintf("%s%d to %d %s (baseline %s in %s%s)", growMark, en.Quantity, g.quantity, quantityUnit(v.Gate), g.fp, Path, at(en.Commit))
				}
			}
		}
	}
	var warnings []string
	for _, en := range bl.Entries {
		v, ok := ran[en.Gate]
		if !ok || (explicit && !slices.Contains(files, en.File)) {
			continue // not judged here: nothing says it shrank
		}
		now, found := seen[en.Fingerprint()]
		if found && now >= en.Quantity {
			continue
		}
		what := fmt.Sprintf("shrank from %d to %d %s", en.Quantity, now, quantityUnit(en.Gate))
		if !found {
			what = "is gone"
		}
		msg := fmt.Sprintf("baseline %s %s: run `tausik baseline --update` to lower %s so it cannot grow back", en.Fingerprint(), what, Path)
		if staleMode(en.Gate) != "block" {
			warnings = append(warnings, msg)
			continue
		}
		v.Violations = append(v.Violations, policy.Violation{Msg: msg, File: en.File, Rule: RuleStale, Key: en.Key})
		v.Failed = true
	}
	return warnings
}

// at names the commit a baseline entry was taken at.
func at(commit string) string {
	if commit == "" {
		return ""
	}
	return ", taken at " + commit[:min(len(commit), 12)]
}
