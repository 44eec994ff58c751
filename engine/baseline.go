package engine

import (
	"cmp"
	"context"
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

// RuleBaselineStale is the rule of the violation the engine adds to a gate
// whose stale_baseline param is "block", for each of its baseline entries
// that shrank or vanished.
const RuleBaselineStale = "baseline_entry_stale"

// growMark starts the note the engine appends to a violation that grew past
// its baseline entry; stripped first, so a verdict reused from the log is
// never noted twice.
const growMark = "; grew from "

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

// fingerprintOf names violation v of gate.
func fingerprintOf(gate string, v policy.Violation) Fingerprint {
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

// groups splits v's violations (but those the engine added) by fingerprint,
// in the order they first appear. A group's quantity is the largest
// quantity its policy gave, or, when it gave none, how many it holds.
func groups(v *Verdict) []*group {
	byFP := map[Fingerprint]*group{}
	var out []*group
	fps := fingerprints(v)
	for i, x := range v.Violations {
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

// fingerprints names each violation of v. Measured violations (a policy's
// key and a quantity) that share a fingerprint are distinct things under
// one name (two classes Meta in one file): by line, the first keeps the
// key and the next are KEY#2, KEY#3, so neither hides the other's growth
// under a shared maximum.
func fingerprints(v *Verdict) []Fingerprint {
	fps := make([]Fingerprint, len(v.Violations))
	same := map[Fingerprint][]int{}
	var order []Fingerprint
	for i, x := range v.Violations {
		fps[i] = fingerprintOf(v.Name, x)
		if x.Key != "" && x.Quantity > 0 {
			if same[fps[i]] == nil {
				order = append(order, fps[i])
			}
			same[fps[i]] = append(same[fps[i]], i)
		}
	}
	for _, fp := range order {
		idx := same[fp]
		slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(v.Violations[a].Line, v.Violations[b].Line) })
		for n, i := range idx[1:] {
			fps[i].Key = fmt.Sprintf("%s#%d", fp.Key, n+2)
		}
	}
	return fps
}

// Findings returns the baseline entries the violations of dec's gates
// would make, for the gates keep selects: what `tausik baseline` records.
// Every violation counts, whatever state the engine gave it.
func Findings(dec *Decision, commit string, keep func(*Verdict) bool) []BaselineEntry {
	var out []BaselineEntry
	for i := range dec.Gates {
		v := &dec.Gates[i]
		if !keep(v) {
			continue
		}
		for _, g := range groups(v) {
			if g.fp.Rule == RuleBaselineStale {
				continue
			}
			out = append(out, BaselineEntry{Gate: g.fp.Gate, Rule: g.fp.Rule, File: g.fp.File, Key: g.fp.Key, Quantity: g.quantity, Commit: commit})
		}
	}
	slices.SortFunc(out, BaselineEntry.less)
	return out
}

// applyBaseline marks StateBaselined the violations of dec the project's
// baseline holds, notes on the ones that grew how much, and reports the
// entries that shrank or vanished: a warning on the decision naming the
// command that lowers them, or, for a gate whose stale_baseline param is
// "block", a violation of that gate. A baseline file that cannot be
// trusted is an ErrConfig error naming file:line.
func (e *Engine) applyBaseline(_ context.Context, dec *Decision) error {
	bl, err := LoadBaseline(e.root)
	if err != nil || bl == nil {
		return err
	}
	stale := holdBaseline(bl, dec, func(gate string) string {
		if eff, ok := e.eff[gate]; ok {
			if s, ok := eff.Params["stale_baseline"].(string); ok {
				return s
			}
		}
		return "warn"
	})
	dec.Warnings = append(dec.Warnings, stale...)
	return nil
}

// holdBaseline applies bl to dec (see applyBaseline) and returns the
// warnings on stale entries; staleMode gives a gate's stale_baseline.
func holdBaseline(bl *Baseline, dec *Decision, staleMode func(string) string) []string {
	entries := make(map[Fingerprint]BaselineEntry, len(bl.Entries))
	for _, en := range bl.Entries {
		entries[en.Fingerprint()] = en
	}
	seen := map[Fingerprint]int{}
	ran := map[string]int{}
	for i := range dec.Gates {
		v := &dec.Gates[i]
		v.Violations = slices.DeleteFunc(v.Violations, func(x policy.Violation) bool { return x.Rule == RuleBaselineStale })
		if v.Outcome != Passed && v.Outcome != Failed {
			continue
		}
		ran[v.Name] = i
		for _, g := range groups(v) {
			en, ok := entries[g.fp]
			seen[g.fp] = g.quantity
			for _, j := range g.idx {
				x := &v.Violations[j]
				x.Msg = baseMsg(x.Msg)
				switch {
				case x.State != "" || !ok:
				case g.quantity <= en.Quantity:
					x.State = StateBaselined
				default:
					x.Msg += fmt.Sprintf("%s%d to %d %s (baseline %s in %s%s)", growMark, en.Quantity, g.quantity, quantityUnit(v.Name), g.fp, BaselineFile, at(en.Commit))
				}
			}
		}
	}
	var warnings []string
	for _, en := range bl.Entries {
		i, ok := ran[en.Gate]
		if !ok || (dec.Request.Explicit && !slices.Contains(dec.Request.Files, en.File)) {
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
		msg := fmt.Sprintf("baseline %s %s: run `tausik baseline --update` to lower %s so it cannot grow back", en.Fingerprint(), what, BaselineFile)
		if staleMode(en.Gate) != "block" {
			warnings = append(warnings, msg)
			continue
		}
		v := &dec.Gates[i]
		v.Violations = append(v.Violations, policy.Violation{Msg: msg, File: en.File, Rule: RuleBaselineStale, Key: en.Key})
		v.Outcome = Failed
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

// SettleWithBaseline judges verdict v of a gate evaluated on its own (a
// fixture's) against baseline bl as an evaluation would: the request's
// files and explicit flag say which entries could have shrunk, params give
// stale_baseline. It returns the warnings on stale entries.
func SettleWithBaseline(bl *Baseline, v *Verdict, files []string, explicit bool, params map[string]any) []string {
	v.unsettle()
	dec := &Decision{Gates: []Verdict{*v}, Request: RequestRecord{Files: files, Explicit: explicit}}
	warnings := holdBaseline(bl, dec, func(string) string {
		if s, ok := params["stale_baseline"].(string); ok {
			return s
		}
		return "warn"
	})
	*v = dec.Gates[0]
	v.settle()
	return warnings
}
