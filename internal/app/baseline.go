package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/tausik/tausik/engine/baseline"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/atomicfile"
)

// BaselineMode says what `tausik baseline` may do to an existing baseline.
type BaselineMode int

const (
	// BaselineCreate records a baseline where there is none, and refuses to
	// overwrite one.
	BaselineCreate BaselineMode = iota
	// BaselineUpdate only lowers the existing baseline: it drops the
	// entries that vanished and lowers those that shrank, never adds one or
	// raises one.
	BaselineUpdate
	// BaselineForce rewrites the baseline from today's findings, new debt
	// included: a person accepting it.
	BaselineForce
)

// baselineTriggers are the moments whose blocking gates a baseline holds:
// a commit and the close of a task.
var baselineTriggers = []string{"commit", engine.TriggerTaskDone}

// BaselineReport is what RecordBaseline did.
type BaselineReport struct {
	// Path is the baseline file, relative to the project root.
	Path string `json:"path"`
	// Commit is the git HEAD the findings were taken at ("" outside git).
	Commit string `json:"commit"`
	// Entries is how many entries the written file holds.
	Entries int `json:"entries"`
	// Added, Lowered and Dropped count the changes to the previous file
	// (all of Entries are Added when there was none).
	Added   int `json:"added"`
	Lowered int `json:"lowered"`
	Dropped int `json:"dropped"`
	// Unchanged reports that the file's bytes stayed as they were.
	Unchanged bool `json:"unchanged"`
	// NotRecorded names the blocking gates that could not run, so nothing
	// of theirs is in the baseline (they keep blocking).
	NotRecorded []string `json:"not_recorded"`
	// Refused counts, for an update, the findings it did not add (new
	// debt or growth: a person accepts it with BaselineForce).
	Refused int `json:"refused"`
	// Raised lists, for a rewrite over an existing file, the entries it
	// added or raised (the debt a person accepted), sorted: "FINGERPRINT:
	// N" for a new one, "FINGERPRINT: A to B" for a raised one.
	Raised []string `json:"raised"`
}

// RecordBaseline evaluates the enabled blocking gates of the scoped phase
// (the code-shape gates: filesize, class_surface, linters…) at the commit
// and task-done triggers over the whole tree of e's project, and writes
// their findings to tausik/baseline.json as mode allows. A person's
// command: the caller refuses an agent requester first.
func RecordBaseline(ctx context.Context, e *engine.Engine, mode BaselineMode, requester string) (*BaselineReport, error) {
	old, err := baseline.Load(e.Root())
	if err != nil {
		return nil, err
	}
	switch {
	case mode == BaselineCreate && old != nil:
		return nil, fmt.Errorf("%s: %w; `tausik baseline --update` lowers it, `tausik baseline --force` rewrites it (accepting new debt)", baseline.Path, diag.ErrExists)
	case mode == BaselineUpdate && old == nil:
		return nil, fmt.Errorf("%w: %s does not exist, so there is nothing to update; record one with `tausik baseline`", diag.ErrUsage, baseline.Path)
	}
	rep := &BaselineReport{Path: baseline.Path, NotRecorded: []string{}, Raised: []string{}}
	found := map[baseline.Fingerprint]baseline.Entry{}
	ran := map[string]bool{}
	for _, trig := range baselineTriggers {
		dec, err := e.Evaluate(ctx, engine.Request{Trigger: trig, Requester: requester})
		if err != nil {
			return nil, err
		}
		rep.Commit = dec.GitHead
		keep := func(v *engine.Verdict) bool {
			g, ok := e.Gate(v.Name)
			if !ok || g.Phase != "scoped" || v.Severity != gate.SeverityBlock {
				return false
			}
			if v.Outcome != engine.Passed && v.Outcome != engine.Failed {
				if v.Outcome == engine.CouldNotRun && !slices.Contains(rep.NotRecorded, v.Name) {
					rep.NotRecorded = append(rep.NotRecorded, v.Name)
				}
				return false
			}
			ran[v.Name] = true
			return true
		}
		for _, en := range findings(dec, dec.GitHead, keep) {
			if prev, ok := found[en.Fingerprint()]; !ok || en.Quantity > prev.Quantity {
				found[en.Fingerprint()] = en
			}
		}
	}
	slices.Sort(rep.NotRecorded)
	next := &baseline.File{}
	if mode == BaselineUpdate {
		next.Entries = lower(old, found, ran, rep)
	} else {
		for _, en := range found {
			next.Entries = append(next.Entries, en)
		}
		rep.Added = len(found)
		if old != nil {
			rep.Added, rep.Lowered, rep.Dropped, rep.Raised = diff(old, found)
		}
	}
	rep.Entries = len(next.Entries)
	return rep, write(e.Root(), next, rep)
}

// lower is the update: each old entry stays, is lowered to what was found
// now, or is dropped when its gate ran and found nothing of it. What was
// found and has no entry, or grew past its entry, is counted as refused.
func lower(old *baseline.File, found map[baseline.Fingerprint]baseline.Entry, ran map[string]bool, rep *BaselineReport) []baseline.Entry {
	var out []baseline.Entry
	kept := map[baseline.Fingerprint]bool{}
	for _, en := range old.Entries {
		now, ok := found[en.Fingerprint()]
		kept[en.Fingerprint()] = true
		switch {
		case !ok && ran[en.Gate]:
			rep.Dropped++
			continue
		case ok && now.Quantity < en.Quantity:
			en.Quantity, en.Commit = now.Quantity, now.Commit
			rep.Lowered++
		case ok && now.Quantity > en.Quantity:
			rep.Refused++
		}
		out = append(out, en)
	}
	for fp := range found {
		if !kept[fp] {
			rep.Refused++
		}
	}
	return out
}

// diff counts how a rewrite changes old, and names the entries it adds or
// raises.
func diff(old *baseline.File, found map[baseline.Fingerprint]baseline.Entry) (added, lowered, dropped int, raised []string) {
	had := map[baseline.Fingerprint]int{}
	raised = []string{}
	for _, en := range old.Entries {
		had[en.Fingerprint()] = en.Quantity
		now, ok := found[en.Fingerprint()]
		switch {
		case !ok:
			dropped++
		case now.Quantity < en.Quantity:
			lowered++
		case now.Quantity > en.Quantity:
			raised = append(raised, fmt.Sprintf("%s: %d to %d", en.Fingerprint(), en.Quantity, now.Quantity))
		}
	}
	for fp, en := range found {
		if _, ok := had[fp]; !ok {
			added++
			raised = append(raised, fmt.Sprintf("%s: %d", fp, en.Quantity))
		}
	}
	slices.Sort(raised)
	return added, lowered, dropped, raised
}

// write stores bl as root's baseline file, atomically, unless its bytes
// are already there.
func write(root string, bl *baseline.File, rep *BaselineReport) error {
	b, err := bl.Encode()
	if err != nil {
		return err
	}
	path := filepath.Join(root, filepath.FromSlash(baseline.Path))
	if cur, err := os.ReadFile(path); err == nil && string(cur) == string(b) {
		rep.Unchanged = true
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", baseline.Path, err)
	}
	if err := atomicfile.Write(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", baseline.Path, err)
	}
	return nil
}

// findings returns the baseline entries the violations of dec's gates
// would make, for the gates keep selects: what `tausik baseline` records.
// Every violation counts, whatever state the engine gave it.
func findings(dec *engine.Decision, commit string, keep func(*engine.Verdict) bool) []baseline.Entry {
	var out []baseline.Entry
	for i := range dec.Gates {
		if v := &dec.Gates[i]; keep(v) {
			out = append(out, baseline.Entries(v.Name, v.Violations, commit)...)
		}
	}
	baseline.Sort(out)
	return out
}
