package engine

import (
	"slices"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/runners"
)

// attribute marks StateElsewhere the violations of dec that the change req
// is about did not cause (docs/new-code.md). A request is about a change
// when it names its files: explicit paths, --changed-since, a task's
// declared files, a tool call's targets (scope.Request.Explicit); its
// changed files are then scope.Request.Files, resolved against the root,
// deleted files and both sides of a rename included where the request
// listed them. A whole-tree request judges everything.
func (e *Engine) attribute(_ Request, scope *runners.Scope, dec *Decision) {
	if !scope.Request.Explicit {
		return
	}
	changed := scope.Request.Files // sorted, without duplicates (scope)
	touched := func(p string) bool {
		_, ok := slices.BinarySearch(changed, p)
		return ok
	}
	for i := range dec.Gates {
		v := &dec.Gates[i]
		g, ok := e.byName[v.Name]
		if !ok || g.Attribution != gate.AttributionFile {
			continue
		}
		for j := range v.Violations {
			x := &v.Violations[j]
			if x.File == "" || touched(x.File) || slices.ContainsFunc(x.Sources, touched) {
				continue
			}
			x.State = StateElsewhere
		}
	}
}
