package config

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/pathpat"
	"github.com/tausik/tausik/runners"
)

// paths decodes a tier's value of the paths param p: an object of pattern
// → reason, each pattern in the language of docs/paths.md and each reason
// written; or, read with a warning, the list of strings the param was
// before, turned into the patterns that mean what its items meant. ok is
// false when the value is malformed (reported).
func (a *applier) paths(p gate.Param, v any) (map[string]any, bool) {
	at := []string{"params", p.Name}
	if list, isList := v.([]any); isList && p.Legacy != "" {
		out := map[string]any{}
		var shown []string
		for i, e := range list {
			s, isStr := e.(string)
			if !isStr {
				a.bad(at, "item %d: want a string, got %s", i, diag.Describe(e))
				return nil, false
			}
			for _, pat := range pathpat.FromLegacy(p.Legacy, s) {
				out[pat] = fmt.Sprintf("no reason written (the old list shape, %s)", a.t.display)
				shown = append(shown, fmt.Sprintf("%q: \"<why>\"", pat))
			}
		}
		a.warnings = append(a.warnings, fmt.Sprintf("%s:%d: %s: a list is the old shape, read as {%s}; write that object, each pattern with the reason it is left out (docs/paths.md)",
			a.t.display, a.t.doc.Line(append([]string{"gates", a.g.Name}, at...)...), a.key(at...), strings.Join(shown, ", ")))
		v = out
	}
	m, err := gate.CoercePaths(v)
	if err != nil {
		a.bad(at, "%v", err)
		return nil, false
	}
	obj := m.(map[string]any)
	ok := true
	for _, k := range sortedKeys(obj) {
		where := append(slices.Clone(at), k)
		if _, err := pathpat.Compile(k); err != nil {
			a.bad(where, "%v", err)
			ok = false
		} else if strings.TrimSpace(obj[k].(string)) == "" {
			a.bad(where, "no written reason; say why these paths are left out")
			ok = false
		}
	}
	return obj, ok
}

// notePaths records where each pattern a tier added to a paths param was
// written, for the loophole check (CheckLoopholes) and its messages.
func (a *applier) notePaths(p gate.Param, added map[string]any) {
	if a.eff.from == nil {
		a.eff.from = map[string]map[string]string{}
	}
	if a.eff.from[p.Name] == nil {
		a.eff.from[p.Name] = map[string]string{}
	}
	for k := range added {
		line := a.t.doc.Line("gates", a.g.Name, "params", p.Name, k)
		a.eff.from[p.Name][k] = fmt.Sprintf("%s:%d", a.t.display, line)
	}
}

// CheckLoopholes judges every pattern a tier added to a paths param against
// the repository's files (files, repo-relative): one that, with the gate's
// default patterns, leaves out every file the gate judges would switch the
// gate off without saying so, and is refused — taken out of the effective
// params before any runner or policy sees them, and reported like a refused
// weakening; one that matches no file at all is reported as a likely
// mistake. judged tells which files the gate judges (its extensions).
func CheckLoopholes(g *gate.Gate, eff *Effective, files []string, judged func(string) bool) []string {
	var out []string
	for _, p := range g.Params {
		if p.Type != gate.TypePaths || len(eff.from[p.Name]) == 0 {
			continue
		}
		cur, _ := eff.Params[p.Name].(map[string]any)
		var kept pathpat.Set // the patterns no tier added: the gate's own
		for _, k := range sortedKeys(cur) {
			if _, added := eff.from[p.Name][k]; added {
				continue
			}
			if c, err := pathpat.Compile(k); err == nil {
				kept = append(kept, c)
			}
		}
		var candidates []string
		for _, f := range files {
			if judged(f) && !kept.Match(f) {
				candidates = append(candidates, f)
			}
		}
		next := maps.Clone(cur)
		for _, k := range sortedKeys(eff.from[p.Name]) {
			c, err := pathpat.Compile(k)
			if _, still := cur[k]; err != nil || !still {
				continue
			}
			at, key := eff.from[p.Name][k], "gates."+g.Name+".params."+p.Name
			switch {
			case len(candidates) > 0 && !slices.ContainsFunc(candidates, func(f string) bool { return !c.Match(f) }):
				delete(next, k)
				out = append(out, fmt.Sprintf("%s: %s: %q refused: it matches every file the gate judges (%d), which would switch the gate off; to switch it off, set enabled: false in the user or managed tier",
					at, key, k, len(candidates)))
			case !slices.ContainsFunc(files, c.Match):
				out = append(out, fmt.Sprintf("%s: %s: %q matches no file%s", at, key, k, didYouMean(k)))
			}
		}
		out = append(out, refuseUnion(g.Name, p.Name, eff.from[p.Name], next, candidates)...)
		eff.Params[p.Name] = next
	}
	return out
}

// refuseUnion refuses, from next, the added patterns that together leave
// out every judged file (candidates) though none does alone (src/ and
// tests/ in a project with no other Python): a loophole split in two is
// still a loophole. from maps each added pattern to where it was written.
func refuseUnion(gate, param string, from map[string]string, next map[string]any, candidates []string) []string {
	var union pathpat.Set
	var keys []string
	for _, k := range sortedKeys(from) {
		c, err := pathpat.Compile(k)
		if _, still := next[k]; err != nil || !still || !slices.ContainsFunc(candidates, c.Match) {
			continue
		}
		union, keys = append(union, c), append(keys, k)
	}
	if len(keys) < 2 || slices.ContainsFunc(candidates, func(f string) bool { return !union.Match(f) }) {
		return nil
	}
	var out []string
	for _, k := range keys {
		delete(next, k)
		out = append(out, fmt.Sprintf("%s: %s: %q refused: with %s it matches every file the gate judges (%d), which would switch the gate off; to switch it off, set enabled: false in the user or managed tier",
			from[k], "gates."+gate+".params."+param, k, quoteOthers(keys, k), len(candidates)))
	}
	return out
}

// quoteOthers lists keys other than k, quoted and joined.
func quoteOthers(keys []string, k string) string {
	var q []string
	for _, o := range keys {
		if o != k {
			q = append(q, strconv.Quote(o))
		}
	}
	return strings.Join(q, " and ")
}

// didYouMean suggests the pattern a root-anchored one was likely meant to be.
func didYouMean(k string) string {
	if strings.HasPrefix(k, "**/") || !strings.Contains(strings.TrimSuffix(k, "/"), "/") && !strings.HasSuffix(k, "/") {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", "**/"+strings.TrimPrefix(k, "/"))
}

// RefuseLoopholes runs CheckLoopholes over every gate whose paths params a
// tier added to, listing the files under root once, and only then: a
// config that adds no pattern costs nothing. The engine runs it when it
// opens, before the command runners are built from the params (a command
// gate's exclusions are applied by its runner), and against the whole tree
// rather than one request's files, so a pattern that leaves out the one
// file a hook asks about is not mistaken for one that leaves out
// everything. judgedBy tells which files a gate judges.
func RefuseLoopholes(ctx context.Context, root string, gates []*gate.Gate, eff map[string]*Effective,
	judgedBy func(*gate.Gate, map[string]any) func(string) bool) ([]string, error) {
	var files, warnings []string
	listed := false
	for _, g := range gates {
		e := eff[g.Name]
		if e == nil || len(e.from) == 0 {
			continue
		}
		if !listed {
			var err error
			if files, err = runners.ListFiles(ctx, root); err != nil {
				d := &diag.Diagnostics{Kind: diag.ErrConfig}
				d.Add(root, 0, "list the repository's files to check the config's path patterns: %v", err)
				return nil, d
			}
			listed = true
		}
		warnings = append(warnings, CheckLoopholes(g, e, files, judgedBy(g, e.Params))...)
	}
	return warnings, nil
}
