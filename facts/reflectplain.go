package facts

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// plainOf converts v to what a JSON round trip through DecodeGeneric gives
// back, walking it with reflect instead of encoding and parsing text: a hook
// converts the request, task and tool namespaces on every call. It follows
// encoding/json's rules for the shapes facts use (exported fields, json tag
// names, "-", omitempty; pointers, interfaces, slices, arrays,
// string-keyed maps, numbers as int64 where their JSON text is an integer)
// and hands anything else back to the round trip: a type with its own
// MarshalJSON or MarshalText, []byte, an embedded struct, the "string" and
// "omitzero" tag options, a map with other keys, floats. ok is false when v cannot be
// converted at all (what json.Marshal would refuse).
func plainOf(v reflect.Value) (any, bool) { return plainAt(v, 0) }

// maxPlainDepth is how deep plainAt walks before it hands the rest to the
// round trip (which refuses a cycle).
const maxPlainDepth = 64

func plainAt(v reflect.Value, depth int) (any, bool) {
	if !v.IsValid() {
		return nil, true
	}
	t := v.Type()
	if depth > maxPlainDepth || marshals(t) {
		return viaJSON(v)
	}
	depth++
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, true
		}
		return plainAt(v.Elem(), depth)
	case reflect.Bool:
		return v.Bool(), true
	case reflect.String:
		return jsonText(v.String()), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if u := v.Uint(); u <= 1<<63-1 {
			return int64(u), true
		}
		return viaJSON(v)
	case reflect.Slice:
		if v.IsNil() {
			return nil, true
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return viaJSON(v) // base64 text
		}
		return plainList(v, depth)
	case reflect.Array:
		return plainList(v, depth)
	case reflect.Map:
		if t.Key().Kind() != reflect.String || t.Key() != reflect.TypeFor[string]() {
			return viaJSON(v)
		}
		if v.IsNil() {
			return nil, true
		}
		out := make(map[string]any, v.Len())
		for it := v.MapRange(); it.Next(); {
			k := it.Key().String()
			if !utf8.ValidString(k) {
				return viaJSON(v) // keys that coerce alike: the round trip keeps the last in key order
			}
			e, ok := plainAt(it.Value(), depth)
			if !ok {
				return nil, false
			}
			out[k] = e
		}
		return out, true
	case reflect.Struct:
		return plainStruct(v, depth)
	default:
		return viaJSON(v)
	}
}

func plainList(v reflect.Value, depth int) (any, bool) {
	out := make([]any, v.Len())
	for i := range out {
		e, ok := plainAt(v.Index(i), depth)
		if !ok {
			return nil, false
		}
		out[i] = e
	}
	return out, true
}

func plainStruct(v reflect.Value, depth int) (any, bool) {
	fields, ok := structFields(v.Type())
	if !ok {
		return viaJSON(v)
	}
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		fv := v.Field(f.index)
		if f.omitEmpty && emptyValue(fv) {
			continue
		}
		e, ok := plainAt(fv, depth)
		if !ok {
			return nil, false
		}
		out[f.name] = e
	}
	return out, true
}

// plainField is a struct field as encoding/json writes it.
type plainField struct {
	name      string
	index     int
	omitEmpty bool
}

// structShape is how plainOf writes a struct type: its fields, or the
// round trip.
type structShape struct {
	fields    []plainField
	roundTrip bool
}

// shapes caches structFields by type.
var shapes sync.Map

// structFields lists t's fields as encoding/json writes them; false when
// t has a shape plainOf leaves to the round trip.
func structFields(t reflect.Type) ([]plainField, bool) {
	if c, ok := shapes.Load(t); ok {
		sh := c.(structShape)
		return sh.fields, !sh.roundTrip
	}
	var sh structShape
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if sf.Anonymous || strings.Contains(tag, ",string") || strings.Contains(tag, ",omitzero") {
			sh = structShape{roundTrip: true}
			break
		}
		if !sf.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" || !validTagName(name) {
			name = sf.Name
		}
		f := plainField{name: name, index: i}
		for _, o := range strings.Split(opts, ",") {
			f.omitEmpty = f.omitEmpty || o == "omitempty"
		}
		if slices.ContainsFunc(sh.fields, func(g plainField) bool { return g.name == f.name }) {
			sh = structShape{roundTrip: true} // encoding/json's rules for a name used twice
			break
		}
		sh.fields = append(sh.fields, f)
	}
	shapes.Store(t, sh)
	return sh.fields, !sh.roundTrip
}

// validTagName reports whether encoding/json takes name from a tag (else
// it uses the Go field's name).
func validTagName(name string) bool {
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case unicode.IsLetter(c), unicode.IsDigit(c):
		default:
			return false
		}
	}
	return true
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// marshals reports whether t (or a pointer to it) encodes itself.
func marshals(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(jsonMarshaler) || t.Implements(textMarshaler) || pt.Implements(jsonMarshaler) || pt.Implements(textMarshaler)
}

// emptyValue is encoding/json's omitempty test.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// viaJSON converts v the slow way, through JSON text.
func viaJSON(v reflect.Value) (any, bool) {
	x := v.Interface()
	if v.CanAddr() {
		x = v.Addr().Interface() // as encoding/json would, a pointer method of a field counts
	}
	b, err := json.Marshal(x)
	if err != nil {
		return nil, false
	}
	g, err := DecodeGeneric(b)
	return g, err == nil
}
