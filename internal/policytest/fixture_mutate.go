package policytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/internal/yamlread"
)

// MutateStep is one change a mutation fixture makes to its base, so the
// case is visibly "the base plus this change":
//
//	base: clean
//	mutate:
//	  - write: {file: src/big.py, content: "x = 1\n"}    # create or overwrite a file of tree/
//	  - append: {file: src/a.py, content: "y = 2\n"}      # add to the end of a file
//	  - replace: {file: src/a.py, line: 3, with: "z = 3"}  # one line, by number...
//	  - replace: {file: src/a.py, old: "z = 3", with: "z = 4"} # ...or by its exact text
//	  - delete: src/old.py                                # a file or directory of tree/
//	  - set: {path: /files/files/0/lines, value: 501}     # a JSON pointer into facts.json
//	  - unset: /files/files/0/binary                      # remove a key or array element
//
// The file steps apply to a tree/ base (before its git steps run), set and
// unset to a facts.json base. A step that does not apply (a missing file, a
// line that is not there, a pointer to nothing) is an error, never a no-op.
type MutateStep struct {
	Op      string // write, append, replace, delete, set or unset
	File    string // write, append, replace, delete: a path inside tree/
	Content string // write, append
	Line    int    // replace: the 1-based line, or 0 to match Old
	Old     string // replace: the line's exact current text
	With    string // replace: the new text of the line
	Pointer string // set, unset: an RFC 6901 JSON pointer into facts.json
	Value   any    // set
	line    int
}

var mutateOps = []string{"write", "append", "replace", "delete", "set", "unset"}

// loadBase loads the case a mutation fixture names as its base.
func loadBase(g *gate.Gate, r yamlread.Reader, n *yaml.Node, chain []string) *Case {
	name := r.Str(n, "base")
	switch {
	case name == "":
		return nil
	case slices.Contains(chain, name):
		r.D.Add(r.File, n.Line, "base: %q leads back to this case (%s)", name, strings.Join(append(chain, name), " → "))
		return nil
	case !fs.ValidPath(name) || strings.Contains(name, "/"):
		r.D.Add(r.File, n.Line, "base: %q is not a fixture of this gate", name)
		return nil
	}
	b, d := loadCaseFrom(g, name, chain)
	if d != nil {
		for _, it := range d.Items {
			r.D.Add(r.File, n.Line, "base %s: %s", name, it.String())
		}
		return nil
	}
	return b
}

// parseMutateSteps reads case.yaml's mutate list.
func parseMutateSteps(r yamlread.Reader, n *yaml.Node) []MutateStep {
	if n == nil || n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		line := 0
		if n != nil {
			line = n.Line
		}
		r.D.Add(r.File, line, "mutate: want a non-empty list of steps (%s), or fields (params, bypass…) that differ from the base's", strings.Join(mutateOps, ", "))
		return nil
	}
	var steps []MutateStep
	for i, item := range n.Content {
		what := fmt.Sprintf("mutate[%d]", i)
		f := r.Fields(item, what, mutateOps...)
		if len(f) != 1 {
			r.D.Add(r.File, item.Line, "%s: a step has exactly one of %s", what, strings.Join(mutateOps, ", "))
			continue
		}
		for op, v := range f {
			s := MutateStep{Op: op, line: item.Line}
			what += "." + op
			switch op {
			case "delete":
				s.File = r.Str(v, what)
			case "unset":
				s.Pointer = r.Str(v, what)
			case "write", "append":
				sf := r.Fields(v, what, "file", "content")
				r.Require(v, sf, what, "file", "content")
				s.File, s.Content = r.Str(sf["file"], what+".file"), r.Str(sf["content"], what+".content")
			case "replace":
				sf := r.Fields(v, what, "file", "line", "old", "with")
				r.Require(v, sf, what, "file", "with")
				s.File, s.With = r.Str(sf["file"], what+".file"), r.Str(sf["with"], what+".with")
				if (sf["line"] == nil) == (sf["old"] == nil) {
					r.D.Add(r.File, v.Line, "%s: name the line by exactly one of line or old", what)
				}
				if sf["line"] != nil {
					if s.Line = r.Int(sf["line"], what+".line"); s.Line < 1 {
						r.D.Add(r.File, sf["line"].Line, "%s.line: lines count from 1", what)
					}
				}
				s.Old = r.Str(sf["old"], what+".old")
			case "set":
				sf := r.Fields(v, what, "path", "value")
				r.Require(v, sf, what, "path", "value")
				s.Pointer, s.Value = r.Str(sf["path"], what+".path"), r.Value(sf["value"], what+".value")
			}
			if s.File != "" || op == "delete" || op == "write" || op == "append" || op == "replace" {
				localPath(r, s.File, item.Line, what)
			}
			if (op == "set" || op == "unset") && !strings.HasPrefix(s.Pointer, "/") {
				r.D.Add(r.File, item.Line, "%s: %q is not a JSON pointer (it starts with /, as in /files/files/0/lines)", what, s.Pointer)
			}
			steps = append(steps, s)
		}
	}
	return steps
}

// mutateCase applies the mutate steps to c, a copy of its base.
// A case that changes a field of its base (params, bypass…) needs no steps.
func mutateCase(g *gate.Gate, r yamlread.Reader, d *diag.Diagnostics, c *Case, n *yaml.Node, overrides bool, caseFS fs.FS, dir string) {
	if fileExists(caseFS, "facts.json") || dirExists(caseFS, "tree") {
		r.D.Add(dir, 0, "a mutation fixture takes its facts or tree from its base; remove facts.json / tree/")
	}
	if n == nil && overrides {
		return
	}
	c.Mutate = parseMutateSteps(r, n)
	if len(d.Items) > 0 {
		return
	}
	if c.tree != nil {
		c.tree = mutateTree(r, c.tree, c.Mutate)
		return
	}
	raw, ok := mutateFacts(r, c.factsRaw, c.Mutate)
	if ok {
		c.factsRaw, c.facts = raw, parseFacts(g, d, path.Join(dir, "case.yaml (mutated facts)"), raw)
	}
}

// mutateTree returns a copy of tree with the file steps applied.
func mutateTree(r yamlread.Reader, tree fs.FS, steps []MutateStep) fs.FS {
	out := fstest.MapFS{}
	err := fs.WalkDir(tree, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(tree, p)
		if err != nil {
			return err
		}
		info, _ := d.Info()
		mode := fs.FileMode(0o644)
		if info != nil {
			mode = info.Mode().Perm()
		}
		out[p] = &fstest.MapFile{Data: b, Mode: mode}
		return nil
	})
	if err != nil {
		r.D.Add(r.File, 0, "read the base's tree: %v", err)
		return nil
	}
	for _, s := range steps {
		p := path.Clean(s.File)
		f := out[p]
		switch s.Op {
		case "write":
			out[p] = &fstest.MapFile{Data: []byte(s.Content), Mode: 0o644}
		case "append":
			if f == nil {
				r.D.Add(r.File, s.line, "append: the base's tree has no file %s", s.File)
				continue
			}
			f.Data = append(slices.Clip(f.Data), s.Content...)
		case "replace":
			if f == nil {
				r.D.Add(r.File, s.line, "replace: the base's tree has no file %s", s.File)
				continue
			}
			data, err := replaceLine(f.Data, s)
			if err != nil {
				r.D.Add(r.File, s.line, "replace %s: %v", s.File, err)
				continue
			}
			f.Data = data
		case "delete":
			n := 0
			for k := range out {
				if k == p || strings.HasPrefix(k, p+"/") {
					delete(out, k)
					n++
				}
			}
			if n == 0 {
				r.D.Add(r.File, s.line, "delete: the base's tree has no file or directory %s", s.File)
			}
		default:
			r.D.Add(r.File, s.line, "%s: the base is a tree/ case; set and unset change a facts.json base", s.Op)
		}
	}
	return out
}

// replaceLine replaces one line of data, by number or by exact text (which
// must occur exactly once).
func replaceLine(data []byte, s MutateStep) ([]byte, error) {
	lines := bytes.SplitAfter(data, []byte("\n"))
	i := s.Line - 1
	if s.Line == 0 {
		i = -1
		for j, l := range lines {
			if string(bytes.TrimSuffix(l, []byte("\n"))) == s.Old {
				if i >= 0 {
					return nil, fmt.Errorf("the line %q occurs more than once; name it by number", s.Old)
				}
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("no line is exactly %q", s.Old)
		}
	}
	if i < 0 || i >= len(lines) || (i == len(lines)-1 && len(lines[i]) == 0) {
		return nil, fmt.Errorf("line %d: the file has %d lines", s.Line, bytes.Count(data, []byte("\n")))
	}
	nl := ""
	if bytes.HasSuffix(lines[i], []byte("\n")) {
		nl = "\n"
	}
	lines[i] = []byte(s.With + nl)
	return bytes.Join(lines, nil), nil
}

// mutateFacts applies set and unset to the base's facts.json.
func mutateFacts(r yamlread.Reader, raw []byte, steps []MutateStep) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		r.D.Add(r.File, 0, "the base's facts.json: %v", err)
		return nil, false
	}
	ok := true
	for _, s := range steps {
		var err error
		switch s.Op {
		case "set":
			doc, err = pointerSet(doc, s.Pointer, s.Value, false)
		case "unset":
			doc, err = pointerSet(doc, s.Pointer, nil, true)
		default:
			err = fmt.Errorf("the base is a facts.json case; %s changes a tree/ base", s.Op)
		}
		if err != nil {
			r.D.Add(r.File, s.line, "%s %s: %v", s.Op, s.Pointer, err)
			ok = false
		}
	}
	out, err := json.Marshal(doc)
	if err != nil {
		r.D.Add(r.File, 0, "mutated facts: %v", err)
		return nil, false
	}
	return out, ok
}

// pointerSet sets (or, with unset, removes) the value at JSON pointer p in
// doc and returns the new document. Every step but the last must exist; the
// last may be a new object key, or "-" to append to an array.
func pointerSet(doc any, p string, v any, unset bool) (any, error) {
	if p == "" || p == "/" {
		return nil, fmt.Errorf("the pointer names the whole document")
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
	}
	var walk func(cur any, parts []string) (any, error)
	walk = func(cur any, parts []string) (any, error) {
		key, last := parts[0], len(parts) == 1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if _, ok := c[key]; unset && !ok {
					return nil, fmt.Errorf("no key %q", key)
				}
				if unset {
					delete(c, key)
				} else {
					c[key] = v
				}
				return c, nil
			}
			next, ok := c[key]
			if !ok {
				return nil, fmt.Errorf("no key %q", key)
			}
			nv, err := walk(next, parts[1:])
			c[key] = nv
			return c, err
		case []any:
			if last && key == "-" && !unset {
				return append(c, v), nil
			}
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(c) {
				return nil, fmt.Errorf("no element %q in a list of %d", key, len(c))
			}
			if last {
				if unset {
					return append(c[:i:i], c[i+1:]...), nil
				}
				c[i] = v
				return c, nil
			}
			nv, err := walk(c[i], parts[1:])
			c[i] = nv
			return c, err
		}
		return nil, fmt.Errorf("%q is inside a value that is neither an object nor a list", key)
	}
	return walk(doc, parts)
}
