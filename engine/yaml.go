package engine

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// yamlReader reads YAML strictly into a Diagnostics list: every unknown key,
// wrong type or missing field becomes a diagnostic with file and line, and
// reading goes on so one run reports every problem of a file.
type yamlReader struct {
	file string
	d    *Diagnostics
}

// parse returns the document's root node, or nil after recording why not.
func (r yamlReader) parse(b []byte) *yaml.Node {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		line, msg := yamlErrLine(err)
		r.d.add(r.file, line, "invalid YAML: %s", msg)
		return nil
	}
	if len(doc.Content) == 0 {
		r.d.add(r.file, 1, "empty document")
		return nil
	}
	return doc.Content[0]
}

// yamlErrLine splits yaml.v3's "yaml: line N: msg" into its parts.
func yamlErrLine(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				return n, tail
			}
		}
	}
	return 0, msg
}

// fields returns the values of mapping n by key, recording unknown and
// duplicate keys and a node that is not a mapping.
func (r yamlReader) fields(n *yaml.Node, what string, allowed ...string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if n == nil {
		return out
	}
	if n.Kind != yaml.MappingNode {
		r.d.add(r.file, n.Line, "%s must be a mapping", what)
		return out
	}
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case len(allowed) > 0 && !ok[k.Value]:
			r.d.add(r.file, k.Line, "unknown key %q in %s (known: %s)", k.Value, what, strings.Join(allowed, ", "))
		case out[k.Value] != nil:
			r.d.add(r.file, k.Line, "duplicate key %q in %s", k.Value, what)
		default:
			out[k.Value] = v
		}
	}
	return out
}

// pairs returns the key/value nodes of mapping n in document order.
func (r yamlReader) pairs(n *yaml.Node, what string) [][2]*yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		r.d.add(r.file, n.Line, "%s must be a mapping", what)
		return nil
	}
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if seen[k.Value] {
			r.d.add(r.file, k.Line, "duplicate key %q in %s", k.Value, what)
			continue
		}
		seen[k.Value] = true
		out = append(out, [2]*yaml.Node{k, n.Content[i+1]})
	}
	return out
}

// require records each listed key missing from m.
func (r yamlReader) require(n *yaml.Node, m map[string]*yaml.Node, what string, keys ...string) {
	line := 1
	if n != nil {
		line = n.Line
	}
	for _, k := range keys {
		if m[k] == nil {
			r.d.add(r.file, line, "%s: missing required key %q", what, k)
		}
	}
}

func (r yamlReader) str(n *yaml.Node, what string) string {
	if n == nil {
		return ""
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		r.d.add(r.file, n.Line, "%s must be a string", what)
		return ""
	}
	return n.Value
}

func (r yamlReader) boolean(n *yaml.Node, what string) bool {
	if n == nil {
		return false
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		r.d.add(r.file, n.Line, "%s must be true or false", what)
		return false
	}
	return n.Value == "true"
}

func (r yamlReader) integer(n *yaml.Node, what string) int {
	if n == nil {
		return 0
	}
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || err != nil {
		r.d.add(r.file, n.Line, "%s must be an integer", what)
		return 0
	}
	return v
}

func (r yamlReader) strs(n *yaml.Node, what string) []string {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		r.d.add(r.file, n.Line, "%s must be a list of strings", what)
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, e := range n.Content {
		out = append(out, r.str(e, fmt.Sprintf("%s[%d]", what, i)))
	}
	return out
}

// value decodes n into plain JSON-like values (int64 for integers).
func (r yamlReader) value(n *yaml.Node, what string) any {
	if n == nil {
		return nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		r.d.add(r.file, n.Line, "%s: %v", what, err)
		return nil
	}
	return plainYAML(v)
}

// plainYAML turns yaml.v3's decoded values into the engine's plain values.
func plainYAML(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case uint64:
		return int64(x)
	case map[string]any:
		for k, e := range x {
			x[k] = plainYAML(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = plainYAML(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = plainYAML(e)
		}
		return x
	default:
		return v
	}
}
