package hostinit

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// tomlHeader matches the table header of tausik's MCP server in Codex's
// config.toml, however it is spaced or quoted.
var tomlHeader = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*(?:tausik|"tausik"|'tausik')\s*\]\s*(?:#.*)?$`)

// anyHeader matches any table or array-of-tables header.
var anyHeader = regexp.MustCompile(`^\s*\[`)

// tomlKey matches a `key = value` line and captures the key.
var tomlKey = regexp.MustCompile(`^\s*([A-Za-z0-9_-]+)\s*=`)

// mergeCodexTOML sets [mcp_servers.tausik] command and args in Codex's
// config.toml. The file is edited as text, line by line, because a TOML
// round trip would drop its comments: only the command and args lines of
// that one table are written; every other line, table and comment stays.
// A file that does not parse is refused with its line; so is a tausik
// server defined some other way (inline or dotted), which init cannot edit
// without rewriting the user's table.
func mergeCodexTOML(rel string, old []byte, argv []string) ([]byte, error) {
	var doc map[string]any
	if err := toml.Unmarshal(old, &doc); err != nil {
		var de *toml.DecodeError
		line := 0
		if errors.As(err, &de) {
			line, _ = de.Position()
		}
		return nil, fmt.Errorf("%w: %s:%d: %v", ErrMalformed, rel, line, err)
	}
	want := map[string]string{
		"command": strconv.Quote(argv[0]),
		"args":    tomlArray(append(append([]string{}, argv[1:]...), "mcp")),
	}
	lines := strings.Split(string(old), "\n")
	start := -1
	for i, l := range lines {
		if tomlHeader.MatchString(l) {
			start = i
			break
		}
	}
	if start < 0 {
		if servers, ok := doc["mcp_servers"].(map[string]any); ok && servers["tausik"] != nil {
			return nil, fmt.Errorf("%w: %s: mcp_servers.tausik is defined inline or with dotted keys; make it a [mcp_servers.tausik] table", ErrMalformed, rel)
		}
		text := strings.TrimRight(string(old), "\n")
		if text != "" {
			text += "\n\n"
		}
		text += "[mcp_servers.tausik]\ncommand = " + want["command"] + "\nargs = " + want["args"] + "\n"
		return checkTOML(rel, []byte(text))
	}
	end := len(lines)
	for i := start + 1; i < len(lines); i++ {
		if anyHeader.MatchString(lines[i]) {
			end = i
			break
		}
	}
	var body []string
	seen := map[string]bool{}
	for i := start + 1; i < end; i++ {
		m := tomlKey.FindStringSubmatch(lines[i])
		if m == nil || want[m[1]] == "" {
			body = append(body, lines[i])
			continue
		}
		// A multi-line array value runs to its closing bracket.
		for depth := bracketDepth(lines[i]); depth > 0 && i+1 < end; {
			i++
			depth += bracketDepth(lines[i])
		}
		if !seen[m[1]] {
			body = append(body, m[1]+" = "+want[m[1]])
			seen[m[1]] = true
		}
	}
	var missing []string
	for _, k := range []string{"command", "args"} {
		if !seen[k] {
			missing = append(missing, k+" = "+want[k])
		}
	}
	out := append(append(append(append([]string{}, lines[:start+1]...), missing...), body...), lines[end:]...)
	return checkTOML(rel, []byte(strings.Join(out, "\n")))
}

// checkTOML refuses an edit whose result does not parse (a header-like line
// inside a multi-line string fools a line editor), so no broken file is
// ever written.
func checkTOML(rel string, b []byte) ([]byte, error) {
	var doc map[string]any
	if err := toml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%w: %s: cannot place [mcp_servers.tausik] in this file line by line (%v); add it by hand", ErrMalformed, rel, err)
	}
	return b, nil
}

// bracketDepth is the change in [ ] nesting over a line, outside strings.
func bracketDepth(line string) int {
	depth, inStr := 0, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inStr != 0:
			if c == '\\' && inStr == '"' {
				i++
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '#':
			return depth
		case c == '[':
			depth++
		case c == ']':
			depth--
		}
	}
	return depth
}

// tomlArray renders strings as a one-line TOML array.
func tomlArray(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = strconv.Quote(x)
	}
	return "[" + strings.Join(q, ", ") + "]"
}
