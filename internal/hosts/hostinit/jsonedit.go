package hostinit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// jsonDoc is an existing (or new) JSON/JSONC file being edited in place: its
// syntax tree keeps every comment and every byte of whitespace, so a member
// tausik does not own is written back exactly as it was read.
type jsonDoc struct {
	root   hujson.Value
	indent string // one level of indentation, as the file uses it
	rel    string // the file as messages name it
}

// ordered is a JSON object whose members are written in a fixed order (Go
// maps would be sorted), so generated files read as the docs show them.
type ordered []member

type member struct {
	k string
	v any
}

// MarshalJSON writes the members in order.
func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.k)
		v, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

var hujsonLine = regexp.MustCompile(`line (\d+)`)

// parseJSONDoc parses b. A strict file (the host reads plain JSON) must be
// plain JSON; a JSONC file may hold comments and trailing commas. An empty
// or missing file is an empty object.
func parseJSONDoc(rel string, b []byte, jsonc bool) (*jsonDoc, error) {
	d := &jsonDoc{rel: rel, indent: detectIndent(b)}
	if len(bytes.TrimSpace(b)) == 0 {
		d.root = hujson.Value{Value: &hujson.Object{}}
		return d, nil
	}
	if !jsonc {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			line := 0
			var se *json.SyntaxError
			if errors.As(err, &se) {
				line = 1 + bytes.Count(b[:min(int(se.Offset), len(b))], []byte("\n"))
			}
			return nil, fmt.Errorf("%w: %s:%d: %v (this host reads plain JSON)", ErrMalformed, rel, line, err)
		}
	}
	v, err := hujson.Parse(b)
	if err != nil {
		line := 0
		if m := hujsonLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		return nil, fmt.Errorf("%w: %s:%d: %v", ErrMalformed, rel, line, strings.TrimPrefix(err.Error(), "hujson: "))
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, fmt.Errorf("%w: %s:%d: want a JSON object at the top", ErrMalformed, rel, lineOf(b, v.StartOffset))
	}
	d.root = v
	return d, nil
}

// lineOf is the 1-based line of byte offset n in b.
func lineOf(b []byte, n int) int {
	return 1 + bytes.Count(b[:min(n, len(b))], []byte("\n"))
}

// detectIndent returns the indentation of the first indented line of b, or
// two spaces.
func detectIndent(b []byte) string {
	for _, line := range strings.Split(string(b), "\n")[1:] {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed != "" && len(trimmed) < len(line) {
			return line[:len(line)-len(trimmed)]
		}
	}
	return "  "
}

// bytes renders the document; a new document ends with a newline.
func (d *jsonDoc) bytes() []byte {
	out := d.root.Pack()
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return out
}

// node is a value in the tree together with its depth and its path, so an
// inserted value is indented like its neighbours and an error names the key.
type node struct {
	v     *hujson.Value
	depth int
	path  string
	// inline says the composite holding v is written on one line, so an
	// empty v filled by init is written on one line too.
	inline bool
}

func (d *jsonDoc) top() node { return node{v: &d.root, path: ""} }

func (n node) object() (*hujson.Object, bool) {
	o, ok := n.v.Value.(*hujson.Object)
	return o, ok
}

func (n node) array() (*hujson.Array, bool) {
	a, ok := n.v.Value.(*hujson.Array)
	return a, ok
}

func (n node) child(key string) string {
	if n.path == "" {
		return key
	}
	return n.path + "." + key
}

// get returns the member key of object n.
func (n node) get(key string) (node, bool) {
	o, _ := n.object()
	if o == nil {
		return node{}, false
	}
	for i := range o.Members {
		if name, ok := o.Members[i].Name.Value.(hujson.Literal); ok && name.String() == key {
			return node{v: &o.Members[i].Value, depth: n.depth + 1, path: n.child(key), inline: !multiline(n)}, true
		}
	}
	return node{}, false
}

// objectAt returns member key of n, which must be an object, creating an
// empty one when absent.
func (d *jsonDoc) objectAt(n node, key string) (node, error) {
	if c, ok := n.get(key); ok {
		if _, isObj := c.object(); !isObj {
			return node{}, d.wrongType(c, "an object")
		}
		return c, nil
	}
	return d.set(n, key, ordered{})
}

// arrayAt returns member key of n, which must be an array, creating an empty
// one when absent.
func (d *jsonDoc) arrayAt(n node, key string) (node, error) {
	if c, ok := n.get(key); ok {
		if _, isArr := c.array(); !isArr {
			return node{}, d.wrongType(c, "an array")
		}
		return c, nil
	}
	return d.set(n, key, []any{})
}

func (d *jsonDoc) wrongType(n node, want string) error {
	return fmt.Errorf("%w: %s: %s: want %s", ErrMalformed, d.rel, n.path, want)
}

// set makes member key of object n equal to val. An equal value (compared
// as JSON data, so its formatting and comments stay) is left as it is; a
// different one is replaced in place; a missing one is appended.
func (d *jsonDoc) set(n node, key string, val any) (node, error) {
	o, _ := n.object()
	if c, ok := n.get(key); ok {
		d.replace(c, val)
		return c, nil
	}
	name := hujson.Value{BeforeExtra: d.lead(n, len(o.Members)), Value: hujson.String(key)}
	v := d.encodeFor(n, val)
	v.BeforeExtra, v.AfterExtra = hujson.Extra(" "), nil
	trailing := len(o.Members) > 0 && o.Members[len(o.Members)-1].Value.AfterExtra != nil
	o.Members = append(o.Members, hujson.ObjectMember{Name: name, Value: v})
	if trailing {
		o.Members[len(o.Members)-1].Value.AfterExtra = hujson.Extra{}
	}
	d.closeEmpty(n, &o.AfterExtra, len(o.Members) == 1)
	return node{v: &o.Members[len(o.Members)-1].Value, depth: n.depth + 1, path: n.child(key), inline: !multiline(n)}, nil
}

// replace makes n equal to val, unless it already is (as data).
func (d *jsonDoc) replace(n node, val any) {
	if sameJSON(n.v, val) {
		return
	}
	if !bytes.ContainsAny(hujson.Value{Value: n.v.Value}.Pack(), "\n") {
		raw, _ := json.Marshal(val)
		nv, _ := hujson.Parse(raw)
		spaceOut(&nv)
		n.v.Value = nv.Value
		return
	}
	nv := d.encode(val, n.depth)
	n.v.Value = nv.Value
}

// appendElem appends val to array n.
func (d *jsonDoc) appendElem(n node, val any) {
	a, _ := n.array()
	v := d.encodeFor(n, val)
	v.BeforeExtra, v.AfterExtra = d.lead(n, len(a.Elements)), nil
	trailing := len(a.Elements) > 0 && a.Elements[len(a.Elements)-1].AfterExtra != nil
	a.Elements = append(a.Elements, v)
	if trailing {
		a.Elements[len(a.Elements)-1].AfterExtra = hujson.Extra{}
	}
	d.closeEmpty(n, &a.AfterExtra, len(a.Elements) == 1)
}

// removeElem removes element i of array n, keeping the file's choice of a
// trailing comma.
func removeElem(n node, i int) {
	a, _ := n.array()
	trailing := a.Elements[len(a.Elements)-1].AfterExtra != nil
	a.Elements = append(a.Elements[:i], a.Elements[i+1:]...)
	if len(a.Elements) > 0 {
		last := &a.Elements[len(a.Elements)-1]
		switch {
		case !trailing && len(last.AfterExtra) == 0:
			last.AfterExtra = nil
		case trailing && last.AfterExtra == nil:
			last.AfterExtra = hujson.Extra{}
		}
	}
}

// lead is the whitespace before a new member or element of composite n at
// index i: a fresh line at the child's depth, or a space where the
// composite is written on one line.
func (d *jsonDoc) lead(n node, i int) hujson.Extra {
	switch {
	case !multiline(n) && i == 0:
		return hujson.Extra{}
	case !multiline(n):
		return hujson.Extra(" ")
	}
	return hujson.Extra("\n" + strings.Repeat(d.indent, n.depth+1))
}

// multiline reports whether composite n spreads its members over lines; an
// empty composite follows the one it sits in.
func multiline(n node) bool {
	if o, ok := n.object(); ok && len(o.Members) > 0 {
		return bytes.Contains(o.Members[0].Name.BeforeExtra, []byte("\n"))
	}
	if a, ok := n.array(); ok && len(a.Elements) > 0 {
		return bytes.Contains(a.Elements[0].BeforeExtra, []byte("\n"))
	}
	return !n.inline
}

// closeEmpty puts the closing brace of a composite that was empty on its
// own line.
func (d *jsonDoc) closeEmpty(n node, after *hujson.Extra, wasEmpty bool) {
	if wasEmpty && multiline(n) && !bytes.Contains(*after, []byte("\n")) {
		*after = hujson.Extra("\n" + strings.Repeat(d.indent, n.depth))
	}
}

// encodeFor renders val as a new child of composite n: on one line where n
// is written on one line, else indented for the child's depth.
func (d *jsonDoc) encodeFor(n node, val any) hujson.Value {
	if multiline(n) {
		return d.encode(val, n.depth+1)
	}
	raw, _ := json.Marshal(val)
	v, _ := hujson.Parse(raw)
	spaceOut(&v)
	return v
}

// spaceOut puts one space after each colon and comma of a compact value,
// as one-line JSON is usually written.
func spaceOut(v *hujson.Value) {
	switch c := v.Value.(type) {
	case *hujson.Object:
		for i := range c.Members {
			if i > 0 {
				c.Members[i].Name.BeforeExtra = hujson.Extra(" ")
			}
			c.Members[i].Value.BeforeExtra = hujson.Extra(" ")
			spaceOut(&c.Members[i].Value)
		}
	case *hujson.Array:
		for i := range c.Elements {
			if i > 0 {
				c.Elements[i].BeforeExtra = hujson.Extra(" ")
			}
			spaceOut(&c.Elements[i])
		}
	}
}

// encode renders val as a tree indented for depth.
func (d *jsonDoc) encode(val any, depth int) hujson.Value {
	raw, err := json.Marshal(val)
	if err != nil {
		panic(fmt.Sprintf("hostinit: encode %T: %v", val, err)) // values are built here, never from input
	}
	var b bytes.Buffer
	_ = json.Indent(&b, raw, strings.Repeat(d.indent, depth), d.indent)
	v, err := hujson.Parse(b.Bytes())
	if err != nil {
		panic(fmt.Sprintf("hostinit: reparse: %v", err))
	}
	return v
}

// sameJSON reports whether v holds the same data as val.
func sameJSON(v *hujson.Value, val any) bool {
	c := v.Clone()
	c.Standardize()
	var a, b any
	if json.Unmarshal(c.Pack(), &a) != nil {
		return false
	}
	raw, _ := json.Marshal(val)
	_ = json.Unmarshal(raw, &b)
	return reflect.DeepEqual(a, b)
}

// addStrings makes the array at path (created with its objects when
// absent) hold each of values, appending those it lacks.
func (d *jsonDoc) addStrings(path []string, values []string) error {
	n := d.top()
	for _, k := range path[:len(path)-1] {
		var err error
		if n, err = d.objectAt(n, k); err != nil {
			return err
		}
	}
	list, err := d.arrayAt(n, path[len(path)-1])
	if err != nil {
		return err
	}
	have, _ := decode(list).([]any)
	for _, v := range values {
		if !slices.Contains(have, any(v)) {
			d.appendElem(list, v)
			have = append(have, v)
		}
	}
	return nil
}

// decode returns n's data as plain Go values.
func decode(n node) any {
	c := n.v.Clone()
	c.Standardize()
	var out any
	_ = json.Unmarshal(c.Pack(), &out)
	return out
}
