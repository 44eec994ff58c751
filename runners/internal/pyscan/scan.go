// Package pyscan is the Python source scanner the source runners share (the
// python runner's class facts, the imports runner's import statements,
// class_surface's names): a pure-Go tokenizer and statement scanner that
// follows CPython's, never importing or running the code.
//
// For every file CPython's ast.parse accepts, the facts equal what a script
// walking its ast reports (testdata/python/classfacts.py is that script and
// the tests compare the two over a whole Python installation). A file
// CPython rejects in its tokenizer (bad encoding, invalid character,
// unterminated string, unbalanced brackets, inconsistent indentation) is
// reported unparseable with the line; so are files breaking the statement
// structure or holding token sequences no grammar accepts (Python 2's print
// "x"). Deeper grammar errors inside expressions (x = = 1) go unnoticed.
// Syntax up to Python 3.14 is understood: PEP 695 type parameters and type
// aliases, PEP 701 f-strings, PEP 750 t-strings, match statements.
package pyscan

import (
	"math"
	"slices"

	"github.com/tausik/tausik/facts"
)

// Version is the version of what the scanner gives a file's bytes (Scan's
// facts, ScanNames' names, Imports): a runner that caches them keys its
// entries on it. Bump it whenever that could change; the python runner's
// TestVersionGuardsCachedFacts notices such a change.
const Version = "1"

// Scanner extracts class facts from Python source without importing or
// running it. It keeps its buffers between files, so scanning many files
// with one Scanner allocates little; it is not safe for concurrent use (use
// one per goroutine).
type Scanner struct {
	lx  lexer
	p   parser
	buf []byte
}

// NewScanner returns a Scanner with empty buffers.
func NewScanner() *Scanner { return &Scanner{} }

// Scan returns the facts of one file from its bytes, exactly as CPython's
// ast.parse would see them: a BOM and a PEP 263 coding cookie are honoured,
// and a file CPython would reject comes back with Parsed false, an Error
// with the line, and no classes. path is only copied into the result.
func (s *Scanner) Scan(path string, src []byte) facts.PythonFile {
	f := facts.PythonFile{Path: path, Classes: []facts.PythonClass{}}
	if len(src) >= math.MaxInt32 {
		f.Error = &facts.PythonError{Line: 1, Msg: "file too large to scan"}
		return f
	}
	text, buf, err := decodeSource(src, s.buf)
	s.buf = buf
	if err == nil {
		err = s.parse(text)
	}
	if err != nil {
		f.Error = &facts.PythonError{Line: int(max(err.line, 1)), Msg: err.msg}
		return f
	}
	f.Parsed = true
	for _, c := range s.p.classes {
		slices.Sort(c.public)
		f.Classes = append(f.Classes, facts.PythonClass{
			Name:   c.name,
			Line:   int(c.line),
			Bases:  c.bases,
			Public: slices.Compact(c.public),
		})
	}
	return f
}

// parse tokenises and parses decoded source and returns the error CPython
// would report, or nil. CPython reports a tokenizer error anywhere in the
// file before any grammar error, except the lazy ones (see
// syntaxError.lazy); of the grammar errors and the errors in literals
// (lexer.later) it reports the first.
func (s *Scanner) parse(text []byte) *syntaxError {
	lx := &s.lx
	lx.reset(text)
	lx.tokenize()
	lexErr := lx.err
	if lexErr != nil && !lexErr.lazy {
		return lexErr
	}
	if lexErr != nil {
		// Parse what came before the error as if the input ended there.
		lx.emit(tkNewline, 0, 0, lexErr.at, lx.pos, lx.pos)
		lx.emit(tkEOF, 0, 0, lexErr.at, lx.pos, lx.pos)
	}
	s.p.reset(text, lx.tokens())
	s.p.parseFile()
	first := s.p.err
	if later := lx.later; later != nil && (first == nil || later.line <= first.line) {
		first = later
	}
	switch {
	case lexErr == nil:
		return first
	case first == nil || first.line >= lexErr.at:
		return lexErr // the parser got as far as the error
	case lexErr.paren > 0 && lexErr.paren < first.line:
		return &syntaxError{line: lexErr.paren, msg: lexErr.parenMsg}
	}
	return first
}

// Scan returns the facts of one file's bytes using a fresh Scanner.
func Scan(path string, src []byte) facts.PythonFile {
	return NewScanner().Scan(path, src)
}
