// Package yamlread reads YAML strictly for the engine and its policy harness:
// every unknown key, wrong type or missing field becomes a diagnostic with
// file and line, and reading goes on so one run reports every problem.
package yamlread

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Sink collects diagnostics (the engine's *Diagnostics is one).
type Sink interface {
	Add(file string, line int, format string, args ...any)
}

// Reader reads one file's YAML into D, naming File in every diagnostic.
type Reader struct {
	File string
	D    Sink
}

// Parse returns the document's root node, or nil after recording why not.
func (r Reader) Parse(b []byte) *yaml.Node {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		line, msg := yamlErrLine(err)
		r.D.Add(r.File, line, "invalid YAML: %s", msg)
		return nil
	}
	if len(doc.Content) == 0 {
		r.D.Add(r.File, 1, "empty document")
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

// Fields returns the values of mapping n by key, recording unknown and
// duplicate keys and a node that is not a mapping.
func (r Reader) Fields(n *yaml.Node, what string, allowed ...string) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if n == nil {
		return out
	}
	if n.Kind != yaml.MappingNode {
		r.D.Add(r.File, n.Line, "%s must be a mapping", what)
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
			r.D.Add(r.File, k.Line, "unknown key %q in %s (known: %s)", k.Value, what, strings.Join(allowed, ", "))
		case out[k.Value] != nil:
			r.D.Add(r.File, k.Line, "duplicate key %q in %s", k.Value, what)
		default:
			out[k.Value] = v
		}
	}
	return out
}

// Pairs returns the key/value nodes of mapping n in document order.
func (r Reader) Pairs(n *yaml.Node, what string) [][2]*yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		r.D.Add(r.File, n.Line, "%s must be a mapping", what)
		return nil
	}
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if seen[k.Value] {
			r.D.Add(r.File, k.Line, "duplicate key %q in %s", k.Value, what)
			continue
		}
		seen[k.Value] = true
		out = append(out, [2]*yaml.Node{k, n.Content[i+1]})
	}
	return out
}

// Require records each listed key missing from m.
func (r Reader) Require(n *yaml.Node, m map[string]*yaml.Node, what string, keys ...string) {
	line := 1
	if n != nil {
		line = n.Line
	}
	for _, k := range keys {
		if m[k] == nil {
			r.D.Add(r.File, line, "%s: missing required key %q", what, k)
		}
	}
}

// Str returns scalar n, recording anything else (null included).
func (r Reader) Str(n *yaml.Node, what string) string {
	if n == nil {
		return ""
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		r.D.Add(r.File, n.Line, "%s must be a string", what)
		return ""
	}
	return n.Value
}

// Bool returns boolean n, recording anything else.
func (r Reader) Bool(n *yaml.Node, what string) bool {
	if n == nil {
		return false
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		r.D.Add(r.File, n.Line, "%s must be true or false", what)
		return false
	}
	return n.Value == "true"
}

// Int returns integer n, recording anything else.
func (r Reader) Int(n *yaml.Node, what string) int {
	if n == nil {
		return 0
	}
	v, err := strconv.Atoi(n.Value)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" || err != nil {
		r.D.Add(r.File, n.Line, "%s must be an integer", what)
		return 0
	}
	return v
}

// Strs returns a list of strings, recording a non-list or non-string item.
func (r Reader) Strs(n *yaml.Node, what string) []string {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		r.D.Add(r.File, n.Line, "%s must be a list of strings", what)
		return nil
	}
	out := make([]string, 0, len(n.Content))
	for i, e := range n.Content {
		out = append(out, r.Str(e, fmt.Sprintf("%s[%d]", what, i)))
	}
	return out
}

// Value decodes n into plain JSON-like values (int64 for integers).
func (r Reader) Value(n *yaml.Node, what string) any {
	if n == nil {
		return nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		r.D.Add(r.File, n.Line, "%s: %v", what, err)
		return nil
	}
	return Plain(v)
}

// Plain turns yaml.v3's decoded values into the engine's plain values.
func Plain(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case uint64:
		return int64(x)
	case map[string]any:
		for k, e := range x {
			x[k] = Plain(e)
		}
		return x
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = Plain(e)
		}
		return m
	case []any:
		for i, e := range x {
			x[i] = Plain(e)
		}
		return x
	default:
		return v
	}
}

// LineOf returns n's line, or fallback's when n is absent.
func LineOf(n, fallback *yaml.Node) int {
	if n != nil {
		return n.Line
	}
	return fallback.Line
}
