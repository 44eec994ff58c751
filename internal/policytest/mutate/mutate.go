// Package mutate makes mutants of a gate's policy: one small edit at a time
// on its syntax tree (OPA's AST for Rego, cel-go's for CEL), each a whole new
// policy source. Which edits exist is a registry of operators, as in
// go-mutesting or Stryker; running fixtures against the mutants is the policy
// harness's job (internal/policytest).
package mutate

import (
	"errors"
	"strings"
)

// Mutant is one edited policy.
type Mutant struct {
	// Operator is the registry name of the edit (see Operators).
	Operator string `json:"operator"`
	// Line is the line of the policy file the edit is on (1-based).
	Line int `json:"line"`
	// Original and Mutated are the edited expression (or rule) before and
	// after, on one line each, as a report shows them and mutants.yaml
	// names them.
	Original string `json:"original"`
	Mutated  string `json:"mutant"`
	// Source is the whole mutated policy file.
	Source []byte `json:"-"`
}

// Operator is one kind of edit, with what it checks a fixture pins down.
type Operator struct {
	Name string
	Doc  string
}

// The operator registry. Each language implements the operators that make
// sense in it; the names are shared so reports read the same.
const (
	OpRelational = "relational"
	OpEquality   = "equality"
	OpNumber     = "number"
	OpNegate     = "negate"
	OpDrop       = "drop"
	OpRemoveRule = "remove_rule"
	OpQuantifier = "quantifier"
	OpString     = "string"
)

var registry = []Operator{
	{OpRelational, "a bound loosened or tightened: < ↔ <=, > ↔ >="},
	{OpEquality, "an equality flipped: == ↔ !="},
	{OpNumber, "a numeric constant in a comparison moved by one, up and down"},
	{OpNegate, "a condition negated (Rego `not`, CEL `!`), or its negation removed"},
	{OpDrop, "one expression dropped: a Rego body expression becomes `true`, a CEL && / || keeps one side, a CEL filter() keeps every element"},
	{OpRemoveRule, "a whole Rego rule, or a CEL violations / could_not_run / not_applicable entry, removed"},
	{OpQuantifier, "a quantifier swapped: Rego some ↔ every, CEL all() ↔ exists()"},
	{OpString, "a string literal compared with == / != (or <, >) changed"},
}

// Operators returns the registry, in the order reports list them.
func Operators() []Operator { return append([]Operator(nil), registry...) }

// ErrSyntax marks a policy source the mutator cannot parse (the engine
// would refuse it too).
var ErrSyntax = errors.New("policy does not parse")

// Language names, as gate.yaml spells them.
const (
	LangRego = "rego"
	LangCEL  = "cel"
)

// Generate returns every mutant of src, a policy in lang, in source order.
// A source that does not parse is ErrSyntax; an unknown language too.
func Generate(lang, file string, src []byte) ([]Mutant, error) {
	switch lang {
	case LangRego:
		return regoMutants(file, src)
	case LangCEL:
		return celMutants(src)
	}
	return nil, errors.Join(ErrSyntax, errors.New("unknown policy language "+lang))
}

// oneLine collapses whitespace so a multi-line expression reads on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
