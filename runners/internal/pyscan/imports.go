package pyscan

import "github.com/tausik/tausik/facts"

// RawImport is one import statement's module as written, before it is
// resolved against the file's package and the repository's modules (which
// the imports runner does).
type RawImport struct {
	Line int `json:"line"` // the line of the statement's first keyword
	// Level is the number of leading dots of a from-import (0: absolute).
	Level int `json:"level"`
	// Module is the dotted name after the dots; "" for "from . import x".
	Module string `json:"module"`
	// From marks "from M import names"; Names are the names it imports,
	// "*" for a star import, without their "as" aliases.
	From  bool     `json:"from"`
	Names []string `json:"names"`
	// As is the name "import a.b as c" binds ("c"), "" without "as";
	// Aliases, for a from-import, the "as" name of each of Names ("" for
	// none), or nil when none has one.
	As      string   `json:"as,omitempty"`
	Aliases []string `json:"aliases,omitempty"`
}

// Imports returns the import statements of one file in source order,
// wherever they stand (module level, inside functions, classes or blocks),
// or, when the file does not parse, the error Scan would report and no
// imports. It reads the same tokens the class scanner does, so strings,
// comments and line continuations are never mistaken for imports.
func (s *Scanner) Imports(src []byte) ([]RawImport, *facts.PythonError) {
	if f := s.Scan("", src); !f.Parsed {
		return nil, f.Error
	}
	return s.imports(), nil
}

// imports reads the import statements of the file Scan just parsed, from
// the statements the parser found opening with import or from: in a file
// that parses, no other "from" (yield from, raise ... from) opens one. The
// pass over every token this replaces was 7% of a ScanNames.
func (s *Scanner) imports() []RawImport {
	toks := s.p.toks
	out := []RawImport{}
	for _, k := range s.p.imports {
		t := toks[k]
		if t.sub == kwImport {
			out = s.plainImport(toks, int(k)+1, int(t.line), out)
		} else {
			out = s.fromImport(toks, int(k)+1, int(t.line), out)
		}
	}
	return out
}

// dotted reads a dotted name at k and returns it and the index after it.
func (s *Scanner) dotted(toks []token, k int) (string, int) {
	name := ""
	for k < len(toks) && toks[k].kind == tkName && !isHard(toks[k].sub) {
		name += s.p.ident(toks[k])
		k++
		if k+1 < len(toks) && toks[k].kind == tkOp && toks[k].sub == opDot && toks[k+1].kind == tkName && !isHard(toks[k+1].sub) {
			name += "."
			k++
			continue
		}
		break
	}
	return name, k
}

// plainImport reads "a.b [as c], d" after "import".
func (s *Scanner) plainImport(toks []token, k, line int, out []RawImport) []RawImport {
	for k < len(toks) {
		name, next := s.dotted(toks, k)
		if name == "" {
			return out
		}
		imp := RawImport{Line: line, Module: name}
		k = next
		if k < len(toks) && toks[k].kind == tkName && toks[k].sub == kwAs {
			if k+1 < len(toks) && toks[k+1].kind == tkName {
				imp.As = s.p.ident(toks[k+1])
			}
			k += 2
		}
		out = append(out, imp)
		if k >= len(toks) || toks[k].kind != tkOp || toks[k].sub != opComma {
			return out
		}
		k++
	}
	return out
}

// fromImport reads "[dots] [a.b] import (names | (names) | *)" after "from".
func (s *Scanner) fromImport(toks []token, k, line int, out []RawImport) []RawImport {
	imp := RawImport{Line: line, From: true, Names: []string{}}
	for ; k < len(toks) && toks[k].kind == tkOp; k++ {
		switch toks[k].sub {
		case opDot:
			imp.Level++
		case opEllipsis:
			imp.Level += 3
		default:
			return out
		}
	}
	imp.Module, k = s.dotted(toks, k)
	if k >= len(toks) || toks[k].kind != tkName || toks[k].sub != kwImport || imp.Level == 0 && imp.Module == "" {
		return out // not an import CPython would accept: no module is named
	}
	for k++; k < len(toks); k++ {
		t := toks[k]
		switch {
		case t.kind == tkOp && t.sub == opStar:
			imp.Names = append(imp.Names, "*")
		case t.kind == tkOp && (t.sub == opLPar || t.sub == opComma):
		case t.kind == tkName && t.sub == kwAs:
			k++ // the alias
			if k < len(toks) && toks[k].kind == tkName && len(imp.Names) > 0 {
				if imp.Aliases == nil {
					imp.Aliases = make([]string, len(imp.Names))
				}
				imp.Aliases[len(imp.Names)-1] = s.p.ident(toks[k])
			}
		case t.kind == tkName:
			imp.Names = append(imp.Names, s.p.ident(t))
			if imp.Aliases != nil {
				imp.Aliases = append(imp.Aliases, "")
			}
		default: // ')', the end of the statement
			return appendFrom(out, imp)
		}
	}
	return appendFrom(out, imp)
}

// appendFrom appends a from-import that names at least one name.
func appendFrom(out []RawImport, imp RawImport) []RawImport {
	if len(imp.Names) == 0 {
		return out
	}
	return append(out, imp)
}

// Names is what resolving a file's class bases through its imports needs:
// its import statements (with their "as" names) and each class's bases as
// written, dotted.
type Names struct {
	Imports []RawImport `json:"imports"`
	// Bases holds, for each class of the file's facts in order, its bases
	// as written: "unittest.TestCase" where the facts keep "TestCase".
	Bases [][]string `json:"bases"`
	// Flags holds, for each class in the same order, what its statement
	// says beyond its facts.
	Flags []ClassFlags `json:"flags"`
}

// ClassFlags marks what a class statement is beyond its facts: what
// class_surface leaves unjudged by default.
type ClassFlags uint8

// The class flags.
const (
	// TypeChecking: the statement lies in the body of an
	// "if TYPE_CHECKING:" (or "if typing.TYPE_CHECKING:", any dotted name
	// ending in it), wherever that if stands: the class exists only for a
	// type checker.
	TypeChecking ClassFlags = 1 << iota
	// Protocol: a base is Protocol, a dotted name ending in it
	// (typing.Protocol), or either subscripted (Protocol[T]).
	Protocol
)

// ScanNames scans one file as Scan does and also returns its Names (empty
// when the file does not parse), reading the source once.
func (s *Scanner) ScanNames(path string, src []byte) (facts.PythonFile, Names) {
	f := s.Scan(path, src)
	n := Names{Imports: []RawImport{}, Bases: [][]string{}, Flags: []ClassFlags{}}
	if !f.Parsed {
		return f, n
	}
	n.Imports = s.imports()
	for _, c := range s.p.classes {
		n.Bases = append(n.Bases, append([]string{}, c.dotted...))
		n.Flags = append(n.Flags, c.flags)
	}
	return f, n
}
