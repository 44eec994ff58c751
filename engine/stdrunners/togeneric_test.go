package stdrunners_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners/hosts"
	"github.com/tausik/tausik/runners/renar"
	"github.com/tausik/tausik/runners/stacks"
)

// namespaceData are the types runners put in namespaces (and their parts),
// but Documents, whose parsed documents keep their floats (a round trip
// would turn 1.0 into 1). Content and Files give a nil list as an empty one,
// as the canonical encoder writes it (fill makes theirs non-nil).
var namespaceData = []any{
	facts.ToolCommand{}, facts.ProtectedTarget{}, facts.Command{}, facts.Diagnostic{}, facts.TestReport{},
	facts.Content{}, facts.Files{}, facts.Request{}, facts.Git{}, facts.Go{},
	facts.Imports{}, facts.MCPSurface{}, facts.PushFacts{}, facts.Python{}, facts.RootRun{}, facts.Surface{},
	facts.Tool{}, facts.Task{}, facts.TaskFacts{}, facts.Backstop{}, facts.SessionFacts{}, facts.VerifyFacts{},
	stacks.Facts{}, renar.Facts{}, hosts.Facts{},
}

// TestToGenericMatchesJSON fills every namespace type at random (strings
// that are not UTF-8 or hold HTML, negative and huge numbers, nil and
// empty collections, set and unset optional fields) and checks that
// ToGeneric gives exactly what a JSON round trip does, the reference every
// policy's input is defined by.
func TestToGenericMatchesJSON(t *testing.T) {
	for _, v := range namespaceData {
		typ := reflect.TypeOf(v)
		r := rand.New(rand.NewPCG(1, uint64(len(typ.Name()))))
		for i := range 300 {
			x := reflect.New(typ).Elem()
			_, emptyForNil := v.(facts.Plainer)
			fill(r, x, 0, emptyForNil && typ != reflect.TypeFor[facts.Python]() && typ != reflect.TypeFor[facts.Surface]())
			got, err := facts.ToGeneric(x.Interface())
			if err != nil {
				t.Fatalf("%s #%d: %v", typ, i, err)
			}
			b, err := json.Marshal(x.Interface())
			if err != nil {
				t.Fatal(err)
			}
			want, err := facts.DecodeGeneric(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s #%d:\nToGeneric  %#v\nround trip %#v\nvalue %s", typ, i, got, want, b)
			}
		}
	}
}

var texts = []string{"", "a", "src/a.py", "x\xffy", "<b>&amp;</b>", "\xe2\x82", "日本", "\u2028"}

// fill sets v to a random value of its type.
func fill(r *rand.Rand, v reflect.Value, depth int, nonNil bool) {
	if !v.CanSet() {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.String:
		v.SetString(texts[r.IntN(len(texts))])
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := []int64{0, 1, -7, 1 << 40, -1 << 62}[r.IntN(5)]
		if v.OverflowInt(n) {
			n = 3
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n := []uint64{0, 5, 1<<64 - 1}[r.IntN(3)]
		if v.OverflowUint(n) {
			n = 9
		}
		v.SetUint(n)
	case reflect.Float32, reflect.Float64:
		v.SetFloat([]float64{0, 1.5, 2, -3e21, 1e-7}[r.IntN(5)])
	case reflect.Pointer:
		if r.IntN(3) > 0 && depth < 4 {
			p := reflect.New(v.Type().Elem())
			fill(r, p.Elem(), depth+1, nonNil)
			v.Set(p)
		}
	case reflect.Slice:
		switch k := r.IntN(4); {
		case (k == 0 || depth >= 4) && !nonNil:
			// nil
		default:
			n := max(k-1, 0)
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range s.Len() {
				fill(r, s.Index(i), depth+1, nonNil)
			}
			v.Set(s)
		}
	case reflect.Map:
		if r.IntN(4) == 0 || depth >= 4 {
			return
		}
		m := reflect.MakeMap(v.Type())
		for i := range r.IntN(3) {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(r, k, depth+1, nonNil)
			if k.Kind() == reflect.String {
				k.SetString(fmt.Sprintf("k%d%s", i, k.String()))
			}
			fill(r, e, depth+1, nonNil)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(r, v.Field(i), depth+1, nonNil)
			}
		}
	case reflect.Interface:
		if r.IntN(2) == 0 && depth < 4 {
			v.Set(reflect.ValueOf([]any{map[string]any{"a": texts[r.IntN(len(texts))]}, int64(4), 2.5, nil}[r.IntN(4)]))
		}
	}
}
