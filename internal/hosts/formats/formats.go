// Package formats reads what an agent host's generator wrote — settings
// files with hooks, hook files, plugin files, MCP registrations — into the
// host's capabilities (docs/host-gates.md): an id per hook or plugin
// and the tools it is matched on, spelled canonically so two hosts that
// spell one tool differently agree.
//
// A reader never runs anything and never guesses: a file it cannot parse is
// an error naming the file and line, and a profile holding none of the
// format's files reads as nothing (Reading.Files empty), which the caller
// treats as "wrote nothing readable".
package formats

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tausik/tausik/facts"
)

// The formats, as a generator's "format" names them.
const (
	ClaudeSettings = "claude-settings" // Claude Code, Qwen Code, Gemini CLI, Codex hooks.json, Factory
	CursorHooks    = "cursor-hooks"    // .cursor/hooks.json
	CopilotHooks   = "copilot-hooks"   // .github/hooks/*.json
	WindsurfHooks  = "windsurf-hooks"  // .windsurf/hooks.json
	Plugins        = "plugins"         // OpenCode, Kilo: plugins/*.js|*.mjs|*.ts
)

// Names lists the formats, sorted.
var Names = []string{ClaudeSettings, CopilotHooks, CursorHooks, Plugins, WindsurfHooks}

// Kinds of extension point: hosts are only compared with hosts of their kind.
const (
	KindHook   = "hook"
	KindPlugin = "plugin"
)

// ErrUnknownFormat is returned for a format not in Names.
var ErrUnknownFormat = errors.New("unknown host format")

// ErrUnreadable marks a file or directory of a profile that is on disk but
// cannot be read (permissions, a directory where a file belongs, a file
// where a directory belongs): what it holds is unknown, which is not the
// same as nothing installed. A file that reads but does not parse is a
// plain error naming file and line.
var ErrUnreadable = errors.New("cannot be read")

// Kind returns the kind of extension point format describes.
func Kind(format string) string {
	if format == Plugins {
		return KindPlugin
	}
	return KindHook
}

// Reading is what one host's files give.
type Reading struct {
	// Capabilities maps each capability id ("hook:PreToolUse:guard.py",
	// "plugin:tausik.js") to its canonical matcher: sorted canonical tool
	// names joined by "|", "" for every tool.
	Capabilities map[string]string `json:"capabilities"`
	// MCP maps each registered MCP server's name to its entry as canonical
	// JSON.
	MCP map[string]string `json:"mcp"`
	// Digests maps each plugin file read to the sha256 of its text with CRLF
	// read as LF, so a plugin edited by hand is told from the generated one.
	Digests map[string]string `json:"digests"`
	// Files lists the files read, root-relative, sorted.
	Files []string `json:"files"`
}

// Read reads the files of format that lie under root/profile (profile is
// root-relative, "/"-separated: ".claude", ".github/hooks"), plus the
// root-relative mcpFiles holding MCP registrations, mapping host spellings
// through tab. A missing file is skipped; one that is there but does not
// read is ErrUnreadable naming it; a malformed one is an error naming file
// and line.
func Read(format, root, profile string, mcpFiles []string, tab Table) (Reading, error) {
	r := Reading{Capabilities: map[string]string{}, MCP: map[string]string{}, Digests: map[string]string{}, Files: []string{}}
	caps := map[string][]string{}
	var err error
	switch format {
	case ClaudeSettings:
		err = r.readSettings(root, profile, []string{"settings.json", "settings.local.json", "hooks.json"}, tab, caps)
	case CursorHooks, WindsurfHooks:
		err = r.readSettings(root, profile, []string{"hooks.json"}, tab, caps)
	case CopilotHooks:
		var names []string
		entries, err := readDir(root, profile)
		if err != nil {
			return r, err
		}
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
				names = append(names, e.Name())
			}
		}
		err = r.readSettings(root, profile, names, tab, caps)
	case Plugins:
		err = r.readPlugins(root, profile)
	default:
		return r, fmt.Errorf("%w %q (known: %s)", ErrUnknownFormat, format, strings.Join(Names, ", "))
	}
	if err != nil {
		return r, err
	}
	for _, f := range mcpFiles {
		obj, ok, err := readJSON(root, f)
		if err != nil {
			return r, err
		}
		if ok {
			r.Files = append(r.Files, f)
			r.addMCP(obj)
		}
	}
	for id, parts := range caps {
		r.Capabilities[id] = Unite(parts)
	}
	sort.Strings(r.Files)
	r.Files = slices.Compact(r.Files)
	return r, nil
}

// readSettings reads the JSON files names under profile for their hooks
// and MCP servers.
func (r *Reading) readSettings(root, profile string, names []string, tab Table, caps map[string][]string) error {
	for _, name := range names {
		rel := path.Join(profile, name)
		obj, ok, err := readJSON(root, rel)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		r.Files = append(r.Files, rel)
		r.addMCP(obj)
		hooks, _ := obj["hooks"].(map[string]any)
		for _, event := range sortedKeys(hooks) {
			entries, _ := hooks[event].([]any)
			for _, e := range entries {
				entry, _ := e.(map[string]any)
				for _, h := range hookCommands(entry) {
					ev, tool := tab.Event(event)
					matcher, _ := entry["matcher"].(string)
					if tool != "" {
						matcher = tool
					}
					for _, id := range commandIDs(ev, h) {
						caps[id] = append(caps[id], tab.Matcher(matcher))
					}
				}
			}
		}
	}
	return nil
}

// hookCommands returns the commands of one hooks entry: Claude's nested
// {"matcher", "hooks": [{"command"}]}, or a flat {"command"} (Cursor,
// Windsurf) or {"bash"} (Copilot) entry.
func hookCommands(entry map[string]any) []string {
	var out []string
	if inner, ok := entry["hooks"].([]any); ok {
		for _, h := range inner {
			if m, ok := h.(map[string]any); ok {
				out = append(out, hookCommands(m)...)
			}
		}
		return out
	}
	for _, k := range []string{"command", "bash"} {
		if s, ok := entry[k].(string); ok && strings.TrimSpace(s) != "" {
			return []string{s}
		}
	}
	return nil
}

// scriptExts are the extensions that make a command token a hook script.
var scriptExts = []string{".py", ".js", ".mjs", ".ts", ".sh"}

// commandIDs returns the capability ids one hook command gives under
// event: a hook:<Event>:<basename> for each script it names, and
// hook:<Event>:tausik-<event word> when it runs tausik.
func commandIDs(event, command string) []string {
	var out []string
	tokens := strings.Fields(strings.ReplaceAll(command, `\`, "/"))
	for i, tok := range tokens {
		tok = strings.Trim(tok, "\"'`;&|()")
		base := path.Base(tok)
		if slices.ContainsFunc(scriptExts, func(ext string) bool { return strings.HasSuffix(tok, ext) }) {
			out = append(out, "hook:"+event+":"+base)
			continue
		}
		if (base == "tausik" || base == "tausik.exe") && i+1 < len(tokens) {
			word := strings.Trim(tokens[len(tokens)-1], "\"'`;&|()")
			out = append(out, "hook:"+event+":tausik-"+word)
		}
	}
	return slices.Compact(out)
}

// readPlugins reads profile/plugins/*.js|*.mjs|*.ts.
func (r *Reading) readPlugins(root, profile string) error {
	dir := path.Join(profile, "plugins")
	entries, err := readDir(root, dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if !slices.Contains([]string{".js", ".mjs", ".ts"}, path.Ext(name)) {
			continue
		}
		rel := path.Join(dir, name)
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return fmt.Errorf("%s: %w: %v", rel, ErrUnreadable, err)
		}
		r.Files = append(r.Files, rel)
		r.Capabilities["plugin:"+name] = ""
		r.Digests[rel] = Digest(b)
	}
	return nil
}

// Digest is the sha256 of b with CRLF read as LF, "sha256:<hex>".
func Digest(b []byte) string {
	sum := sha256.Sum256(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// addMCP records the MCP servers of a settings object: "mcpServers"
// (Claude, Qwen, Gemini, Cursor, Factory), "mcp" (OpenCode, Kilo) or
// "servers" (VS Code's mcp.json, which Copilot reads).
func (r *Reading) addMCP(obj map[string]any) {
	for _, key := range []string{"mcpServers", "mcp", "servers"} {
		servers, _ := obj[key].(map[string]any)
		for name, v := range servers {
			b, err := facts.Canonical(v)
			if err == nil {
				r.MCP[name] = string(b)
			}
		}
	}
}

// readJSON reads root/rel as a JSON object; ok is false when the file does
// not exist.
func readJSON(root, rel string) (map[string]any, bool, error) {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w: %v", rel, ErrUnreadable, err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		line := 0
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line = facts.LineAt(b, se.Offset)
		}
		return nil, false, fmt.Errorf("%s:%d: invalid JSON: %v", rel, line, err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, false, fmt.Errorf("%s:1: want a JSON object", rel)
	}
	return obj, true, nil
}

// readDir lists root/rel; nil when it does not exist, ErrUnreadable when it
// is there but cannot be listed (not a directory, no permission).
func readDir(root, rel string) ([]os.DirEntry, error) {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("%s: %w: %v", rel, ErrUnreadable, err)
	}
	return entries, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
