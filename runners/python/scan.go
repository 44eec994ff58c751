package python

import (
	"math"
	"slices"

	"github.com/tausik/tausik/facts"
)

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
		s.lx.reset(text)
		s.lx.tokenize()
		err = s.lx.err
	}
	if err == nil {
		s.p.reset(text, s.lx.tokens())
		s.p.parseFile()
		err = s.p.err
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

// Scan returns the facts of one file's bytes using a fresh Scanner.
func Scan(path string, src []byte) facts.PythonFile {
	return NewScanner().Scan(path, src)
}
