package engine

import (
	"slices"

	"github.com/tausik/tausik/runners"
)

// What a gate's violations are attributed to (gate.yaml attribution:).
const (
	// AttributionNone: every violation of the gate is the request's, about
	// a change or not (a workflow gate, a tool's verdict on the files it
	// was given, a gate already scoped to the request's files).
	AttributionNone = "none"
	// AttributionFile: the gate measures the whole tree, and under a change
	// a violation is the change's when its file or one of its sources is
	// among the changed files; one without a file always is.
	AttributionFile = "file"
)

var attributions = []string{AttributionNone, AttributionFile}

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
		if !ok || g.Attribution != AttributionFile {
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
