package policy

import (
	"maps"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/types"

	"github.com/tausik/tausik/engine/regoshard"
	"github.com/tausik/tausik/internal/pathpat"
)

// regoPathMatch is tausik.path_match(pattern, path): the path pattern
// language of docs/paths.md (package pathpat), so that a Rego policy
// matches config patterns exactly as the engine and the runners do. An
// invalid pattern matches nothing.
var regoPathMatch = &ast.Builtin{Name: "tausik.path_match", Decl: types.NewFunction(types.Args(types.S, types.S), types.B)}

// regoBuiltins are the declarations of every builtin tausik adds.
func regoBuiltins() map[string]*ast.Builtin {
	out := maps.Clone(regoshard.Decls())
	out[regoPathMatch.Name] = regoPathMatch
	return out
}

// pathMatchFunction implements regoPathMatch for a prepared query.
func pathMatchFunction() func(*rego.Rego) {
	f := &rego.Function{Name: regoPathMatch.Name, Decl: regoPathMatch.Decl, Memoize: true}
	return rego.Function2(f, func(_ rego.BuiltinContext, p, s *ast.Term) (*ast.Term, error) {
		ps, ok1 := p.Value.(ast.String)
		ss, ok2 := s.Value.(ast.String)
		return ast.InternedTerm(ok1 && ok2 && pathpat.Match(string(ps), string(ss))), nil
	})
}
