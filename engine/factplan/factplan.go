// Package factplan tells the fact runners what the gates of an evaluation
// ask of them before they gather: the files the gates' globs name, the
// options a configurable runner reads from a gate's params, and afterwards
// each gate's own view of a namespace several gates share.
package factplan

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/content"
	"github.com/tausik/tausik/runners/toolcall"
)

// GlobNamespaces are the namespaces whose files a gate names by glob.
var GlobNamespaces = []string{gate.NamespaceContent, gate.NamespaceDocuments}

// SetGlobs tells the runners of the glob namespaces which files the gates
// want: the union of their globs, and the largest size cap they ask for.
func SetGlobs(s *runners.Scope, gates []*gate.Gate) {
	s.Globs, s.ToolGlobs, s.MaxBytes = map[string][]string{}, map[string][]string{}, map[string]int64{}
	for _, g := range gates {
		for _, ns := range GlobNamespaces {
			if slices.Contains(g.Facts, toolcall.Namespace) {
				s.ToolGlobs[ns] = append(s.ToolGlobs[ns], g.Globs(ns)...)
				continue
			}
			s.Globs[ns] = append(s.Globs[ns], g.Globs(ns)...)
		}
		if len(g.Content) > 0 {
			s.MaxBytes[gate.NamespaceContent] = max(s.MaxBytes[gate.NamespaceContent], g.ContentMaxBytes)
			if g.ContentMaxBytes == 0 {
				s.MaxBytes[gate.NamespaceContent] = max(s.MaxBytes[gate.NamespaceContent], content.DefaultMaxBytes)
			}
		}
	}
	for _, m := range []map[string][]string{s.Globs, s.ToolGlobs} {
		for ns, globs := range m {
			slices.Sort(globs)
			m[ns] = slices.Compact(globs)
		}
	}
}

// GateViews returns g's own part of each glob namespace it reads: the files
// its globs match, so that a gate never judges files another gate asked
// for. A namespace that is not ok is shared as it is.
func GateViews(g *gate.Gate, doc *facts.Document) map[string]facts.Namespace {
	var views map[string]facts.Namespace
	for _, ns := range GlobNamespaces {
		globs := g.Globs(ns)
		got, ok := doc.Namespaces[ns]
		if len(globs) == 0 || !ok || got.Status != facts.StatusOK {
			continue
		}
		pf, ok := got.Data.(facts.PathFilter)
		if !ok {
			continue
		}
		limit := int64(0)
		if ns == gate.NamespaceContent {
			// Another gate may have raised the runner's cap: this one keeps its own.
			limit = g.ContentMaxBytes
			if limit == 0 {
				limit = content.DefaultMaxBytes
			}
		}
		if views == nil {
			views = map[string]facts.Namespace{}
		}
		views[ns] = facts.OK(pf.FilterPaths(func(p string) bool { return runners.MatchAny(globs, p) }, limit))
	}
	return views
}

// SetOptions hands each Configurable runner of reg the options it reads from
// the resolved params of the first gate of gates that reads its namespace
// (gates are in evaluation order). A later gate reading it under other
// options is not judged on those facts: see ParamsConflict.
func SetOptions(s *runners.Scope, reg *runners.Registry, gates []*gate.Gate, params func(*gate.Gate) map[string]any) {
	s.Options = map[string]any{}
	for _, g := range gates {
		for _, ns := range g.Facts {
			if _, done := s.Options[ns]; done {
				continue
			}
			if r, ok := configurable(reg, ns); ok {
				s.Options[ns] = r.Options(params(g))
			}
		}
	}
}

// configurable returns the runner of ns in reg when it takes options.
func configurable(reg *runners.Registry, ns string) (runners.Configurable, bool) {
	r, ok := reg.Get(ns)
	if !ok {
		return nil, false
	}
	c, ok := r.(runners.Configurable)
	return c, ok
}

// ParamsConflict returns, for a gate reading a Configurable runner's
// namespace with params that give other options than those its facts were
// gathered with (a team's copy of class_surface with its own roots or cap,
// say), the reason it cannot be judged in this evaluation; nil when it can.
// Judging it on the other gate's facts would be judging the wrong classes,
// so it does not run and its verdict is never reused: evaluated alone
// (--gate) it is gathered for its own params.
func ParamsConflict(s *runners.Scope, reg *runners.Registry, g *gate.Gate, params map[string]any) *policy.Reason {
	for _, ns := range g.Facts {
		given, ok := s.Options[ns]
		r, conf := configurable(reg, ns)
		if !ok || !conf || reflect.DeepEqual(given, r.Options(params)) {
			continue
		}
		return &policy.Reason{Code: ns + "_params_conflict", Msg: fmt.Sprintf(
			"the %s facts of this evaluation follow another gate's params (its %s runner reads them otherwise); evaluate %s on its own (--gate %s)",
			ns, ns, g.Name, g.Name)}
	}
	return nil
}
