package artifacts

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// ParseError is a file whose front matter cannot be read, located by line.
type ParseError struct {
	File string
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Is makes every ParseError match ErrParse.
func (e *ParseError) Is(target error) bool { return target == ErrParse }

// Doc is one artifact file split into its front matter, kept as a YAML
// mapping node so an edit keeps key order, comments and unknown keys, and its
// body, kept as the exact bytes after the closing delimiter.
type Doc struct {
	// File is the path the doc was read from, as given (repo-relative for
	// the runner), used in messages.
	File string
	// Front is the front matter mapping. Node lines are YAML lines; add
	// FrontStart-1 for the file line (see Line).
	Front *yaml.Node
	// FrontStart is the file line of the first front matter line (2: line 1
	// is the opening "---"); BodyStart is the file line the body begins on.
	FrontStart, BodyStart int
	// Body is everything after the closing delimiter line, byte for byte.
	Body []byte
}

var (
	yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): `)
	// parserErrRE matches the yaml.v3 parser's (not scanner's) errors, whose
	// line is 0-based and left out on the first line.
	parserErrRE = regexp.MustCompile(`did not find expected (<stream-start>|<document start>|node content|'-' indicator|key|',' or '[\]}]')|found undefined tag handle|found duplicate %TAG|found incompatible YAML document`)
)

// yamlLine is the 1-based front matter line a yaml.v3 error names, 1 when
// it names none. A parser error names where the construct it gave up on
// opened, except on the first line, where yaml.v3 names the problem's own
// line: one line late, the best the message tells.
func yamlLine(msg string) int {
	line := 0
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	if parserErrRE.MatchString(msg) {
		line++
	}
	return max(line, 1)
}

// Parse splits data into front matter and body. The file must open with a
// "---" line and close the front matter with a "---" (or "...") line, and the
// front matter must be a YAML mapping without duplicate keys. Anything else
// is a *ParseError naming file and line; Parse never panics.
func Parse(file string, data []byte) (d *Doc, err error) {
	defer func() {
		if r := recover(); r != nil {
			d, err = nil, &ParseError{File: file, Line: 1, Msg: fmt.Sprintf("front matter cannot be read: %v", r)}
		}
	}()
	fail := func(line int, format string, args ...any) (*Doc, error) {
		return nil, &ParseError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	first, rest, _ := cutLine(data)
	if !isDelim(first, "---") {
		return fail(1, "no front matter: an artifact file opens with a line \"---\"")
	}
	var front []byte
	line := 2
	for {
		l, after, more := cutLine(rest)
		if isDelim(l, "---") || isDelim(l, "...") {
			d = &Doc{File: file, FrontStart: 2, BodyStart: line + 1, Body: append([]byte{}, after...)}
			break
		}
		if !more {
			return fail(1, "the front matter opened on line 1 is never closed with a line \"---\"")
		}
		front = append(front, l...)
		front = append(front, '\n')
		rest, line = after, line+1
	}
	var root yaml.Node
	if err := yaml.Unmarshal(front, &root); err != nil {
		at := yamlLine(err.Error())
		msg := err.Error()
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			msg = te.Errors[0]
		}
		return fail(at+d.FrontStart-1, "front matter: %s", msg)
	}
	if len(root.Content) == 0 {
		return fail(1, "the front matter is empty")
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return fail(d.Line(m), "the front matter must be a mapping of fields, not a %s", kindName(m))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if k.Kind != yaml.ScalarNode {
			return fail(d.Line(k), "a front matter key must be a plain name")
		}
		if seen[k.Value] {
			return fail(d.Line(k), "field %q is given twice", k.Value)
		}
		seen[k.Value] = true
	}
	d.Front = m
	return d, nil
}

// cutLine returns the first line of b without its "\n" (and "\r"), the rest,
// and whether a newline ended the line.
func cutLine(b []byte) (line, rest []byte, ok bool) {
	line, rest, ok = bytes.Cut(b, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), rest, ok
}

func isDelim(line []byte, delim string) bool {
	return string(bytes.TrimRight(line, " \t")) == delim
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	case yaml.AliasNode:
		return "alias"
	}
	return "plain value"
}

// Line is the file line of a front matter node.
func (d *Doc) Line(n *yaml.Node) int { return n.Line + d.FrontStart - 1 }

// Get returns the value node of field key, or nil.
func (d *Doc) Get(key string) *yaml.Node {
	for i := 0; i+1 < len(d.Front.Content); i += 2 {
		if d.Front.Content[i].Value == key {
			v := d.Front.Content[i+1]
			if v.Kind == yaml.AliasNode && v.Alias != nil {
				return v.Alias
			}
			return v
		}
	}
	return nil
}

// KeyLine is the file line of field key, 0 when absent.
func (d *Doc) KeyLine(key string) int {
	for i := 0; i+1 < len(d.Front.Content); i += 2 {
		if d.Front.Content[i].Value == key {
			return d.Line(d.Front.Content[i])
		}
	}
	return 0
}

// Set replaces field key's value, or appends the field when it is absent.
func (d *Doc) Set(key string, v *yaml.Node) {
	for i := 0; i+1 < len(d.Front.Content); i += 2 {
		if d.Front.Content[i].Value == key {
			d.Front.Content[i+1] = v
			return
		}
	}
	d.Front.Content = append(d.Front.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

// Bytes renders the doc: the front matter re-encoded between "---" lines,
// then the body exactly as read.
func (d *Doc) Bytes() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(d.Front); err != nil {
		return nil, fmt.Errorf("encode front matter of %s: %w", d.File, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode front matter of %s: %w", d.File, err)
	}
	b.WriteString("---\n")
	b.Write(d.Body)
	return b.Bytes(), nil
}

// Str is a string scalar node; the encoder quotes it when plain text would
// read as another type.
func Str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// Int is an integer scalar node.
func Int(n int64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(n, 10)}
}

// Null is a null scalar node.
func Null() *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"} }

// Strs is a flow sequence of string scalars ("[]" when empty).
func Strs(list []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, s := range list {
		n.Content = append(n.Content, Str(s))
	}
	return n
}

// Map is a block mapping of string fields, in the order given.
func Map(kv ...string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, Str(kv[i]), Str(kv[i+1]))
	}
	return n
}

// Seq is a block sequence of nodes ("[]" when empty).
func Seq(items ...*yaml.Node) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
	if len(items) == 0 {
		n.Style = yaml.FlowStyle
	}
	return n
}
