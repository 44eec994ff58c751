package documents

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/joho/godotenv"
	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
	"gopkg.in/ini.v1"
	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/facts"
)

// FormatOf returns the format of the file at p from its name, "" when it
// is none of the known ones. A .json file is strict JSON, except the files
// whose tools read comments and trailing commas (tsconfig*.json,
// jsconfig*.json, devcontainer.json, .vscode/*.json), which are JSONC.
func FormatOf(p string) string {
	base := strings.ToLower(path.Base(p))
	ext := path.Ext(base)
	switch {
	case base == ".env" || strings.HasPrefix(base, ".env.") || ext == ".env":
		return facts.FormatEnv
	case ext == ".jsonc":
		return facts.FormatJSONC
	case ext == ".json":
		if strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig") || base == "devcontainer.json" ||
			base == ".devcontainer.json" || strings.Contains("/"+p, "/.vscode/") {
			return facts.FormatJSONC
		}
		return facts.FormatJSON
	case ext == ".yaml" || ext == ".yml":
		return facts.FormatYAML
	case ext == ".toml":
		return facts.FormatTOML
	case ext == ".ini" || ext == ".cfg" || base == ".editorconfig":
		return facts.FormatINI
	}
	return ""
}

// Parse reads src in format into its documents, or returns the error with
// its 1-based line (0 when there is none to give). A line a parser counts
// past the last "\n"-terminated one (YAML counts a lone "\r" as a break) is
// the file's last line.
func Parse(format string, src []byte) ([]any, *facts.DocumentError) {
	docs, perr := parse(format, src)
	if perr != nil {
		perr.Line = min(perr.Line, bytes.Count(src, []byte{'\n'})+1)
	}
	return docs, perr
}

func parse(format string, src []byte) ([]any, *facts.DocumentError) {
	switch format {
	case facts.FormatJSON:
		return parseJSON(src)
	case facts.FormatJSONC:
		v, err := hujson.Parse(src)
		if err != nil {
			return nil, &facts.DocumentError{Line: lineIn(err.Error(), hujsonLine), Msg: err.Error()}
		}
		v.Standardize()
		return parseJSON(v.Pack())
	case facts.FormatYAML:
		return parseYAML(src)
	case facts.FormatTOML:
		return parseTOML(src)
	case facts.FormatINI:
		return parseINI(src)
	case facts.FormatEnv:
		return parseEnv(src)
	}
	return nil, &facts.DocumentError{Msg: fmt.Sprintf("unknown document format %q", format)}
}

var (
	hujsonLine = regexp.MustCompile(`^hujson: line (\d+),`)
	yamlLine   = regexp.MustCompile(`^yaml: line (\d+):`)
)

// lineIn reads the line number a library puts in its message, 0 if none.
func lineIn(msg string, re *regexp.Regexp) int {
	if m := re.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// lineAt is the 1-based line of byte offset off in src.
func lineAt(src []byte, off int64) int {
	off = min(max(off, 0), int64(len(src)))
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}

// parseJSON reads one JSON value, numbers kept as integers where they are.
func parseJSON(src []byte) ([]any, *facts.DocumentError) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	if err == nil && dec.More() {
		err = errors.New("invalid character after top-level value")
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = errors.New("unexpected end of JSON input")
		}
		off := dec.InputOffset()
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = se.Offset
		}
		return nil, &facts.DocumentError{Line: lineAt(src, off), Msg: err.Error()}
	}
	return []any{plainJSON(v)}, nil
}

func plainJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = plainJSON(e)
		}
	case []any:
		for i, e := range x {
			x[i] = plainJSON(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil && !strings.ContainsAny(string(x), ".eE") {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// maxNodes bounds the values a YAML file may expand to through aliases (a
// "billion laughs" file stays an error, not a hang).
const maxNodes = 1 << 20

// parseYAML reads every document of a YAML stream.
func parseYAML(src []byte) ([]any, *facts.DocumentError) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	docs := []any{}
	budget := maxNodes
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			// yaml.v3 leaves the line out of a message about the first line.
			return nil, &facts.DocumentError{Line: max(lineIn(err.Error(), yamlLine), 1), Msg: err.Error()}
		}
		v, err := yamlValue(&n, &budget, 0)
		if err != nil {
			return nil, &facts.DocumentError{Line: n.Line, Msg: err.Error()}
		}
		docs = append(docs, v)
	}
}

// yamlValue converts a node to plain values by its resolved tag.
func yamlValue(n *yaml.Node, budget *int, depth int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, errors.New("document expands to too many values")
	}
	if depth > 1000 {
		return nil, fmt.Errorf("line %d: nested too deeply", n.Line)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return yamlValue(n.Content[0], budget, depth+1)
	case yaml.AliasNode:
		return yamlValue(n.Alias, budget, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := yamlValue(c, budget, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return yamlMapping(n, budget, depth)
	case yaml.ScalarNode:
		return yamlScalar(n)
	}
	return nil, nil
}

// yamlMapping converts a mapping node, merge keys (<<) included: explicit
// keys win over merged ones.
func yamlMapping(n *yaml.Node, budget *int, depth int) (any, error) {
	out := map[string]any{}
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Tag == "!!merge" {
			merges = append(merges, val)
			continue
		}
		v, err := yamlValue(val, budget, depth+1)
		if err != nil {
			return nil, err
		}
		out[k.Value] = v
	}
	for _, m := range merges { // explicit keys win over merged ones
		sources := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			sources = m.Content
		}
		for _, src := range sources {
			v, err := yamlValue(src, budget, depth+1)
			if err != nil {
				return nil, err
			}
			mm, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("line %d: a merge key needs a mapping", src.Line)
			}
			for k, x := range mm {
				if _, set := out[k]; !set {
					out[k] = x
				}
			}
		}
	}
	return out, nil
}

// yamlScalar converts a scalar node by its resolved tag.
func yamlScalar(n *yaml.Node) (any, error) {
	switch n.Tag {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, err
		}
		return b, nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err == nil {
			return i, nil
		}
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		return f, nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		return finite(f), nil
	}
	return n.Value, nil // strings, timestamps and binary as written, custom tags' text
}

// finite is f, or its name when it is not finite (JSON, Rego and CEL
// values have no infinities).
func finite(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return f
}

// parseTOML reads a TOML document; dates and times become RFC 3339 text.
func parseTOML(src []byte) ([]any, *facts.DocumentError) {
	var m map[string]any
	if err := toml.Unmarshal(src, &m); err != nil {
		line := 0
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, _ = de.Position()
		}
		return nil, &facts.DocumentError{Line: line, Msg: err.Error()}
	}
	return []any{plainTOML(m)}, nil
}

func plainTOML(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = plainTOML(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = plainTOML(e)
		}
		return x
	case float64:
		return finite(x)
	case time.Time:
		return x.Format(time.RFC3339Nano)
	case toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
		return fmt.Sprint(x)
	}
	return v
}

// parseINI reads an INI file into {section: {key: value}}.
func parseINI(src []byte) ([]any, *facts.DocumentError) {
	load := func(b []byte) (*ini.File, error) {
		return ini.LoadSources(ini.LoadOptions{AllowBooleanKeys: true, SpaceBeforeInlineComment: true}, b)
	}
	f, err := load(src)
	if err != nil {
		return nil, &facts.DocumentError{Line: firstBadLine(src, func(b []byte) error { _, err := load(b); return err }), Msg: err.Error()}
	}
	out := map[string]any{}
	for _, s := range f.Sections() {
		keys := s.Keys()
		if s.Name() == ini.DefaultSection && len(keys) == 0 {
			continue
		}
		m := map[string]any{}
		for _, k := range keys {
			m[k.Name()] = k.Value()
		}
		out[s.Name()] = m
	}
	return []any{out}, nil
}

// parseEnv reads a .env file into {name: value}.
func parseEnv(src []byte) ([]any, *facts.DocumentError) {
	parse := func(b []byte) (map[string]string, error) { return godotenv.UnmarshalBytes(b) }
	m, err := parse(src)
	if err != nil {
		return nil, &facts.DocumentError{Line: firstBadLine(src, func(b []byte) error { _, err := parse(b); return err }), Msg: err.Error()}
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return []any{out}, nil
}

// maxBisectLines bounds the files whose error line is searched for.
const maxBisectLines = 5000

// firstBadLine finds the line of an error a parser reports without one: the
// first line whose prefix of the file no longer parses (0 when none does, or
// the file is too long to search).
func firstBadLine(src []byte, parse func([]byte) error) int {
	ends := []int{}
	for i, c := range src {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		ends = append(ends, len(src))
	}
	if len(ends) > maxBisectLines {
		return 0
	}
	for n, end := range ends {
		if parse(src[:end]) != nil {
			return n + 1
		}
	}
	return 0
}
