package policytest

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/policytest/mutate"
	"github.com/tausik/tausik/internal/yamlread"
)

// equivalentDecl is one entry of a bundle's mutants.yaml: a mutant that no
// input can tell from the policy, declared with why, like an excuse.
//
//	equivalent:
//	  - line: 12
//	    mutant: 'count(xs) >= 1'
//	    reason: count is never negative, so > 0 and >= 1 are the same bound
type equivalentDecl struct {
	line   int    // the policy line the mutant is on
	mutant string // its mutated text, as a report shows it
	reason string
	file   string // mutants.yaml, as shown in messages
	at     int    // the declaration's line in mutants.yaml
}

// loadEquivalents reads g's mutants.yaml; problems go to rep.
func loadEquivalents(g *gate.Gate, rep *GateMutation) []equivalentDecl {
	raw, err := fs.ReadFile(g.FS(), gate.FileMutants)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	file := path.Join(g.Dir, gate.FileMutants)
	if err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %v", file, err))
		return nil
	}
	d := &diag.Diagnostics{Kind: diag.ErrBundle}
	decls := parseEquivalents(file, raw, d)
	for _, it := range d.Items {
		rep.Problems = append(rep.Problems, it.String())
	}
	return decls
}

// parseEquivalents reads a mutants.yaml; every problem goes to d.
func parseEquivalents(file string, raw []byte, d *diag.Diagnostics) []equivalentDecl {
	r := yamlread.Reader{File: file, D: d}
	root := r.Parse(raw)
	if root == nil {
		return nil
	}
	f := r.Fields(root, "mutants.yaml", "equivalent")
	r.Require(root, f, "mutants.yaml", "equivalent")
	n := f["equivalent"]
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.Add(file, n.Line, "equivalent: want a list of {line, mutant, reason}")
		return nil
	}
	var out []equivalentDecl
	for i, item := range n.Content {
		what := fmt.Sprintf("equivalent[%d]", i)
		ef := r.Fields(item, what, "line", "mutant", "reason")
		r.Require(item, ef, what, "line", "mutant", "reason")
		dec := equivalentDecl{file: file, at: item.Line, line: r.Int(ef["line"], what+".line"),
			mutant: r.Str(ef["mutant"], what+".mutant"), reason: r.Str(ef["reason"], what+".reason")}
		if ef["reason"] != nil && len(strings.TrimSpace(dec.reason)) < minExcuseLen {
			d.Add(file, ef["reason"].Line, "%s.reason must explain in more than 20 characters why no input can tell the mutant apart", what)
		}
		out = append(out, dec)
	}
	return out
}

// matchDecl returns the index of the declaration naming m, or -1.
func matchDecl(decls []equivalentDecl, m mutate.Mutant) int {
	for i, d := range decls {
		if d.line == m.Line && strings.Join(strings.Fields(d.mutant), " ") == m.Mutated {
			return i
		}
	}
	return -1
}
