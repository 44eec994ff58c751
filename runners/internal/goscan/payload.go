package goscan

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tausik/tausik/facts"
)

// quickDecode reads a cache payload written by encodeFacts (json.Marshal of
// a GoFile: its fields in declaration order, map keys sorted) without
// reflection, which made decoding 7,711 payloads the largest cost of a
// warm gather. It accepts only that exact form; anything else, a string
// with an escape it does not read included, is false, and decodeFacts
// asks encoding/json instead, so the result is always what json.Unmarshal
// gives or nothing.
func quickDecode(s string) (f facts.GoFile, ok bool) {
	if !utf8.ValidString(s) {
		return f, false // encoding/json would replace the bad bytes
	}
	d := jdec{s: s}
	var msg string
	var line int
	ok = d.lit(`{"path":`) && d.str(&f.Path) && d.lit(`,"package":`) && d.str(&f.Package) &&
		d.lit(`,"import_path":`) && d.str(&f.ImportPath) && d.lit(`,"parsed":`) && d.boolean(&f.Parsed) && d.lit(`,"error":`)
	if !ok {
		return f, false
	}
	if !d.lit("null") {
		if !d.lit(`{"line":`) || !d.int(&line) || !d.lit(`,"msg":`) || !d.str(&msg) || !d.lit("}") {
			return f, false
		}
		f.Error = &facts.GoError{Line: line, Msg: msg}
	}
	if !d.lit(`,"imports":{`) {
		return f, false
	}
	f.Imports = map[string]string{}
	for first := true; !d.lit("}"); first = false {
		var k, v string
		if !first && !d.lit(",") || !d.str(&k) || !d.lit(":") || !d.str(&v) {
			return f, false
		}
		f.Imports[k] = v
	}
	if !d.lit(`,"structs":[`) {
		return f, false
	}
	f.Structs = []facts.GoStruct{}
	for first := true; !d.lit("]"); first = false {
		var st facts.GoStruct
		if !first && !d.lit(",") || !d.lit(`{"name":`) || !d.str(&st.Name) || !d.lit(`,"line":`) || !d.int(&st.Line) ||
			!d.lit(`,"fields":`) || !d.strs(&st.Fields) || !d.lit(`,"bases":`) || !d.strs(&st.Bases) || !d.lit("}") {
			return f, false
		}
		f.Structs = append(f.Structs, st)
	}
	if !d.lit(`,"methods":[`) {
		return f, false
	}
	f.Methods = []facts.GoMethod{}
	for first := true; !d.lit("]"); first = false {
		var m facts.GoMethod
		if !first && !d.lit(",") || !d.lit(`{"recv":`) || !d.str(&m.Recv) || !d.lit(`,"name":`) || !d.str(&m.Name) ||
			!d.lit(`,"line":`) || !d.int(&m.Line) || !d.lit("}") {
			return f, false
		}
		f.Methods = append(f.Methods, m)
	}
	return f, d.lit("}") && d.off == len(s)
}

// jdec walks a JSON text from the front.
type jdec struct {
	s   string
	off int
}

// lit consumes t when the text continues with it.
func (d *jdec) lit(t string) bool {
	if strings.HasPrefix(d.s[d.off:], t) {
		d.off += len(t)
		return true
	}
	return false
}

// str reads a string with no escape and no control character; one with a
// backslash is read by encoding/json.
func (d *jdec) str(out *string) bool {
	if !d.lit(`"`) {
		return false
	}
	start := d.off
	for d.off < len(d.s) {
		c := d.s[d.off]
		switch {
		case c == '"':
			*out = d.s[start:d.off]
			d.off++
			return true
		case c == '\\':
			end := strings.IndexByte(d.s[d.off:], '"') // a first guess; json says whether it is the end
			for end >= 0 {
				var v string
				if json.Unmarshal([]byte(d.s[start-1:d.off+end+1]), &v) == nil {
					*out = v
					d.off += end + 1
					return true
				}
				next := strings.IndexByte(d.s[d.off+end+1:], '"')
				if next < 0 {
					return false
				}
				end += next + 1
			}
			return false
		case c < 0x20:
			return false
		}
		d.off++
	}
	return false
}

// strs reads a list of strings; [] is an empty, non-nil list.
func (d *jdec) strs(out *[]string) bool {
	if !d.lit("[") {
		return false
	}
	*out = []string{}
	for first := true; !d.lit("]"); first = false {
		var v string
		if !first && !d.lit(",") || !d.str(&v) {
			return false
		}
		*out = append(*out, v)
	}
	return true
}

// int reads a non-negative decimal integer without leading zeros.
func (d *jdec) int(out *int) bool {
	start := d.off
	for d.off < len(d.s) && d.s[d.off] >= '0' && d.s[d.off] <= '9' {
		d.off++
	}
	if d.off == start || d.off-start > 9 || d.s[start] == '0' && d.off-start > 1 {
		return false
	}
	n, err := strconv.Atoi(d.s[start:d.off])
	*out = n
	return err == nil
}

func (d *jdec) boolean(out *bool) bool {
	if d.lit("true") {
		*out = true
		return true
	}
	*out = false
	return d.lit("false")
}
