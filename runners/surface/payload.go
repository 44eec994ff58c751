package surface

import (
	"strconv"
	"strings"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/internal/pyscan"
)

// The cached form of a pyFile: a flat run of fields, each string written as
// its byte length, ':' and its bytes, each number (list length, line,
// flag) as decimal and ';', a nil list as "-;". Decoding 1,790 of these
// with encoding/json was the largest part of a warm gather on the Python
// standard library; this form needs no escaping, so any bytes round-trip,
// and is read by slicing.

// encodePy writes f in the cached form.
func encodePy(f pyFile) string {
	var e penc
	e.str(f.File.Path)
	e.flag(f.File.Parsed)
	e.flag(f.File.Error != nil)
	if f.File.Error != nil {
		e.num(f.File.Error.Line)
		e.str(f.File.Error.Msg)
	}
	if e.list(f.File.Classes == nil, len(f.File.Classes)) {
		for _, c := range f.File.Classes {
			e.str(c.Name)
			e.num(c.Line)
			e.strs(c.Bases)
			e.strs(c.Public)
		}
	}
	if e.list(f.Names.Imports == nil, len(f.Names.Imports)) {
		for _, im := range f.Names.Imports {
			e.num(im.Line)
			e.num(im.Level)
			e.str(im.Module)
			e.flag(im.From)
			e.strs(im.Names)
			e.str(im.As)
			e.strs(im.Aliases)
		}
	}
	if e.list(f.Names.Bases == nil, len(f.Names.Bases)) {
		for _, b := range f.Names.Bases {
			e.strs(b)
		}
	}
	if e.list(f.Names.Flags == nil, len(f.Names.Flags)) {
		for _, fl := range f.Names.Flags {
			e.num(int(fl))
		}
	}
	return e.b.String()
}

// decodePy reads what encodePy wrote; false for any other text.
func decodePy(s string) (f pyFile, ok bool) {
	// Every string is written after a ':', so the file's lists of strings
	// fit in one array of as many: one allocation, not one a list (they
	// were ~40% of decoding the standard library's 1,790 entries).
	d := pdec{s: s, pool: make([]string, 0, strings.Count(s, ":"))}
	var hasErr bool
	if !d.str(&f.File.Path) || !d.flag(&f.File.Parsed) || !d.flag(&hasErr) {
		return f, false
	}
	if hasErr {
		f.File.Error = &facts.PythonError{}
		if !d.num(&f.File.Error.Line) || !d.str(&f.File.Error.Msg) {
			return f, false
		}
	}
	n, isNil := d.list()
	if n < 0 {
		return f, false
	}
	if !isNil {
		f.File.Classes = make([]facts.PythonClass, n)
	}
	for i := range n {
		c := &f.File.Classes[i]
		if !d.str(&c.Name) || !d.num(&c.Line) || !d.strs(&c.Bases) || !d.strs(&c.Public) {
			return f, false
		}
	}
	if n, isNil = d.list(); n < 0 {
		return f, false
	}
	if !isNil {
		f.Names.Imports = make([]pyscan.RawImport, n)
	}
	for i := range n {
		im := &f.Names.Imports[i]
		if !d.num(&im.Line) || !d.num(&im.Level) || !d.str(&im.Module) || !d.flag(&im.From) ||
			!d.strs(&im.Names) || !d.str(&im.As) || !d.strs(&im.Aliases) {
			return f, false
		}
	}
	if n, isNil = d.list(); n < 0 {
		return f, false
	}
	if !isNil {
		f.Names.Bases = make([][]string, n)
	}
	for i := range n {
		if !d.strs(&f.Names.Bases[i]) {
			return f, false
		}
	}
	if n, isNil = d.list(); n < 0 {
		return f, false
	}
	if !isNil {
		f.Names.Flags = make([]pyscan.ClassFlags, n)
	}
	for i := range n {
		var fl int
		if !d.num(&fl) || fl > int(pyscan.TypeChecking|pyscan.Protocol) {
			return f, false
		}
		f.Names.Flags[i] = pyscan.ClassFlags(fl)
	}
	return f, d.off == len(s)
}

// penc builds the cached form.
type penc struct{ b strings.Builder }

func (e *penc) num(n int) {
	e.b.WriteString(strconv.Itoa(n))
	e.b.WriteByte(';')
}

func (e *penc) flag(v bool) { e.num(b2i(v)) }

func (e *penc) str(s string) {
	e.b.WriteString(strconv.Itoa(len(s)))
	e.b.WriteByte(':')
	e.b.WriteString(s)
}

// list writes a list's length ("-" when nil) and reports whether its
// elements follow.
func (e *penc) list(isNil bool, n int) bool {
	if isNil {
		e.b.WriteString("-;")
		return false
	}
	e.num(n)
	return true
}

func (e *penc) strs(l []string) {
	if e.list(l == nil, len(l)) {
		for _, s := range l {
			e.str(s)
		}
	}
}

// pdec reads the cached form from the front.
type pdec struct {
	s    string
	off  int
	pool []string // strs cuts its lists from it, while it lasts
}

// digits reads a decimal number without sign or leading zero, ended by end.
func (d *pdec) digits(end byte) (int, bool) {
	i := strings.IndexByte(d.s[d.off:], end)
	if i <= 0 || i > 9 || d.s[d.off] == '0' && i > 1 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(d.s[d.off : d.off+i]) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	d.off += i + 1
	return n, true
}

func (d *pdec) num(out *int) bool {
	n, ok := d.digits(';')
	*out = n
	return ok
}

func (d *pdec) flag(out *bool) bool {
	n, ok := d.digits(';')
	*out = n == 1
	return ok && n <= 1
}

func (d *pdec) str(out *string) bool {
	n, ok := d.digits(':')
	if !ok || n > len(d.s)-d.off {
		return false
	}
	*out = d.s[d.off : d.off+n]
	d.off += n
	return true
}

// list reads a list's length: -1 when the text is not one, isNil for "-".
// A length beyond what the rest of the text could hold is refused, so a
// damaged payload cannot make decodePy allocate much.
func (d *pdec) list() (n int, isNil bool) {
	if strings.HasPrefix(d.s[d.off:], "-;") {
		d.off += 2
		return 0, true
	}
	n, ok := d.digits(';')
	if !ok || n > len(d.s)-d.off {
		return -1, false
	}
	return n, false
}

func (d *pdec) strs(out *[]string) bool {
	n, isNil := d.list()
	if n < 0 {
		return false
	}
	if isNil {
		*out = nil
		return true
	}
	if n <= cap(d.pool)-len(d.pool) {
		k := len(d.pool)
		d.pool = d.pool[:k+n]
		*out = d.pool[k : k+n : k+n]
	} else {
		*out = make([]string, n)
	}
	for i := range n {
		if !d.str(&(*out)[i]) {
			return false
		}
	}
	return true
}
