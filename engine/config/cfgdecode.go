package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/diag"
)

// cfgObject decodes one object of a tier's config file into a Go struct,
// so that every section checks its keys and their JSON types in one place
// and every problem names the file, the line and the key path.
//
// The struct's fields carry the key in a `cfg:"key"` tag and may carry
// `want:"…"` (what a wrong value is told it should be) and, for a map,
// `elem:"…"` (what each of its values should be). An unknown key is told
// the known ones in the struct's order, but for those tagged `known:"-"`. A field is a string,
// int64, bool, []string, map[string]string, map[string]any (an object whose
// values another function types, such as a gate's params) or any. Values the JSON types
// allow but the section does not (an empty list, an unknown trigger) are
// the caller's to check after decoding.
type cfgObject struct {
	t    *File
	path []string // the object's key path in the file
	d    *diag.Diagnostics
}

// key is the dotted key path of k in the object ("" = the object itself).
func (c cfgObject) key(k string) string {
	if k == "" {
		return strings.Join(c.path, ".")
	}
	return strings.Join(append(slices.Clone(c.path), k), ".")
}

// bad records a problem with member k ("" = the object itself).
func (c cfgObject) bad(k, format string, args ...any) {
	parts := slices.Clone(c.path)
	if k != "" {
		parts = append(parts, k)
	}
	c.d.Add(c.t.display, c.t.doc.Line(parts...), "%s: %s", c.key(k), fmt.Sprintf(format, args...))
}

// decode reads v into dst, a pointer to a tagged struct. want describes the
// object for a v that is not one. It returns the keys v has, each true when
// its value decoded (false: its wrong type is reported), and ok false when v
// is not an object or a key is unknown or of the wrong type.
func (c cfgObject) decode(v any, dst any, want string) (present map[string]bool, ok bool) {
	o, isObj := v.(map[string]any)
	if !isObj {
		c.bad("", "want %s, got %s", want, diag.Describe(v))
		return nil, false
	}
	rv := reflect.ValueOf(dst).Elem()
	rt := rv.Type()
	fields := map[string]int{}
	var known []string
	for i := 0; i < rt.NumField(); i++ {
		if k := rt.Field(i).Tag.Get("cfg"); k != "" {
			fields[k] = i
			if rt.Field(i).Tag.Get("known") != "-" {
				known = append(known, k)
			}
		}
	}
	n0 := len(c.d.Items)
	present = map[string]bool{}
	for _, k := range sortedKeys(o) {
		i, isKnown := fields[k]
		if !isKnown {
			c.bad(k, "unknown key (known: %s)", strings.Join(known, ", "))
			continue
		}
		n := len(c.d.Items)
		c.field(k, o[k], rv.Field(i), rt.Field(i).Tag)
		present[k] = len(c.d.Items) == n
	}
	return present, len(c.d.Items) == n0
}

// field decodes member k's value v into f, a field of the type its tag
// describes.
func (c cfgObject) field(k string, v any, f reflect.Value, tag reflect.StructTag) {
	want := func(def string) string {
		if w := tag.Get("want"); w != "" {
			return w
		}
		return def
	}
	switch f.Interface().(type) {
	case string:
		s, ok := v.(string)
		if !ok {
			c.bad(k, "want %s, got %s", want("a string"), diag.Describe(v))
			return
		}
		f.SetString(s)
	case int64:
		n, ok := v.(int64)
		if !ok {
			c.bad(k, "want %s, got %s", want("an integer"), diag.Describe(v))
			return
		}
		f.SetInt(n)
	case bool:
		b, ok := v.(bool)
		if !ok {
			c.bad(k, "want %s, got %s", want("true or false"), diag.Describe(v))
			return
		}
		f.SetBool(b)
	case []string:
		list, ok := v.([]any)
		out := make([]string, 0, len(list))
		for _, e := range list {
			s, isStr := e.(string)
			ok = ok && isStr
			out = append(out, s)
		}
		if !ok {
			c.bad(k, "want %s, got %s", want("a list of strings"), diag.Describe(v))
			return
		}
		f.Set(reflect.ValueOf(out))
	case map[string]string:
		c.strMap(k, v, f, want("an object of strings"), tag.Get("elem"))
	case map[string]any:
		m, ok := v.(map[string]any)
		if !ok {
			c.bad(k, "want %s, got %s", want("an object"), diag.Describe(v))
			return
		}
		f.Set(reflect.ValueOf(m))
	default:
		f.Set(reflect.ValueOf(&v).Elem())
	}
}

// strMap decodes an object of strings; elem describes each value.
func (c cfgObject) strMap(k string, v any, f reflect.Value, want, elem string) {
	m, ok := v.(map[string]any)
	if !ok {
		c.bad(k, "want %s, got %s", want, diag.Describe(v))
		return
	}
	if elem == "" {
		elem = "a string"
	}
	out := make(map[string]string, len(m))
	for _, name := range sortedKeys(m) {
		s, isStr := m[name].(string)
		if !isStr {
			c.bad(k, "%s: want %s, got %s", name, elem, diag.Describe(m[name]))
			continue
		}
		out[name] = s
	}
	f.Set(reflect.ValueOf(out))
}
