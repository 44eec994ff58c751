package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Argument kinds a tool may take. The set is small on purpose: every kind
// has one JSON Schema rendering and one validation rule, both here.
const (
	kindString  = "string"
	kindStrings = "strings" // array of strings
	kindInteger = "integer"
	kindBoolean = "boolean"
)

// arg is one tool argument. The input schema and the strict argument check
// are both derived from the same []arg, so they cannot disagree.
type arg struct {
	name     string
	kind     string
	desc     string
	required bool
	enum     []string // allowed values of a string (or of each item of strings)
	min, max int      // integer bounds when max > 0
}

// inputSchema renders args as a JSON Schema object with properties in the
// order given, additionalProperties false, and required in order.
func inputSchema(args []arg) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var required []string
	for i, a := range args {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s:{", quote(a.name))
		switch a.kind {
		case kindStrings:
			b.WriteString(`"type":"array","items":{"type":"string"`)
			writeEnum(&b, a.enum)
			b.WriteString(`}`)
		case kindInteger:
			b.WriteString(`"type":"integer"`)
			if a.max > 0 {
				fmt.Fprintf(&b, `,"minimum":%d,"maximum":%d`, a.min, a.max)
			}
		default:
			fmt.Fprintf(&b, `"type":%s`, quote(a.kind))
			writeEnum(&b, a.enum)
		}
		fmt.Fprintf(&b, `,"description":%s}`, quote(a.desc))
		if a.required {
			required = append(required, quote(a.name))
		}
	}
	b.WriteString(`},"additionalProperties":false`)
	if len(required) > 0 {
		fmt.Fprintf(&b, `,"required":[%s]`, strings.Join(required, ","))
	}
	b.WriteString(`}`)
	return b.Bytes()
}

func writeEnum(b *bytes.Buffer, enum []string) {
	if len(enum) == 0 {
		return
	}
	q := make([]string, len(enum))
	for i, e := range enum {
		q[i] = quote(e)
	}
	fmt.Fprintf(b, `,"enum":[%s]`, strings.Join(q, ","))
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// args are parsed tool arguments, by name.
type args map[string]any

func (a args) str(name string) string {
	s, _ := a[name].(string)
	return s
}

func (a args) strs(name string) []string {
	s, _ := a[name].([]string)
	return s
}

// integer is the named integer argument and whether it was given.
func (a args) integer(name string) (int, bool) {
	n, ok := a[name].(int)
	return n, ok
}

func (a args) boolean(name string) bool {
	b, _ := a[name].(bool)
	return b
}

// parseArgs checks raw against the tool's args strictly: an unknown
// argument, a wrong type, a value outside its enum or bounds, or a missing
// required argument is an error whose text names the argument and says what
// the tool takes, in words a model can act on.
func parseArgs(tool string, spec []arg, raw any) (args, error) {
	names := make([]string, len(spec))
	for i, a := range spec {
		names[i] = a.name
	}
	takes := "takes no arguments"
	if len(names) > 0 {
		takes = "takes: " + strings.Join(names, ", ")
	}
	var m map[string]any
	switch x := raw.(type) {
	case nil:
		m = map[string]any{}
	case map[string]any:
		m = x
	default:
		return nil, fmt.Errorf("%s: arguments must be a JSON object (%s)", tool, takes)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(names, k) {
			return nil, fmt.Errorf("%s: unknown argument %q; this tool %s", tool, k, takes)
		}
	}
	out := args{}
	for _, a := range spec {
		v, present := m[a.name]
		if !present || v == nil {
			if a.required {
				return nil, fmt.Errorf("%s: missing required argument %q (%s): %s", tool, a.name, kindWords(a), a.desc)
			}
			continue
		}
		got, err := checkArg(a, v)
		if err != nil {
			return nil, fmt.Errorf("%s: argument %q %v", tool, a.name, err)
		}
		out[a.name] = got
	}
	return out, nil
}

func kindWords(a arg) string {
	switch a.kind {
	case kindStrings:
		return "a list of strings"
	case kindInteger:
		return "an integer"
	case kindBoolean:
		return "true or false"
	}
	if len(a.enum) > 0 {
		return "one of " + strings.Join(a.enum, ", ")
	}
	return "a string"
}

func checkArg(a arg, v any) (any, error) {
	bad := func() error { return fmt.Errorf("must be %s, got %s", kindWords(a), jsonKind(v)) }
	switch a.kind {
	case kindString:
		s, ok := v.(string)
		if !ok {
			return nil, bad()
		}
		if len(a.enum) > 0 && !slices.Contains(a.enum, s) {
			return nil, fmt.Errorf("must be one of %s, got %q", strings.Join(a.enum, ", "), s)
		}
		return s, nil
	case kindStrings:
		list, ok := v.([]any)
		if !ok {
			return nil, bad()
		}
		out := make([]string, len(list))
		for i, e := range list {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("item %d must be a string, got %s", i, jsonKind(e))
			}
			if len(a.enum) > 0 && !slices.Contains(a.enum, s) {
				return nil, fmt.Errorf("item %d must be one of %s, got %q", i, strings.Join(a.enum, ", "), s)
			}
			out[i] = s
		}
		return out, nil
	case kindInteger:
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) {
			return nil, bad()
		}
		n := int(f)
		if a.max > 0 && (n < a.min || n > a.max) {
			return nil, fmt.Errorf("must be between %d and %d, got %d", a.min, a.max, n)
		}
		return n, nil
	case kindBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, bad()
		}
		return b, nil
	}
	return nil, fmt.Errorf("has an unknown kind %q", a.kind)
}

func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("%v", x)
	case float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
