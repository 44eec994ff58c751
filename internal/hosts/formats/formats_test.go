package formats

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, body := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestReadHostShapes reads each format's real file shape into the same
// capabilities: every host below wires guard.py before writes and tausik
// before shell commands.
func TestReadHostShapes(t *testing.T) {
	want := map[string]string{"hook:PreToolUse:guard.py": "Write", "hook:PreToolUse:tausik-pre-tool-use": "Bash"}
	cases := []struct {
		host, format, profile string
		files                 map[string]string
	}{
		{"claude", ClaudeSettings, ".claude", map[string]string{".claude/settings.json": `{"hooks": {"PreToolUse": [
			{"matcher": "Write", "hooks": [{"type": "command", "command": "python3 .claude/hooks/guard.py"}]}]}}`,
			".claude/settings.local.json": `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "tausik hook claude pre-tool-use"}]}]}}`}},
		{"gemini", ClaudeSettings, ".gemini", map[string]string{".gemini/settings.json": `{"hooks": {"BeforeTool": [
			{"matcher": "write_file", "hooks": [{"command": "python3 .gemini\\hooks\\guard.py"}]},
			{"matcher": "run_shell_command", "hooks": [{"command": "/usr/local/bin/tausik hook gemini pre-tool-use"}]}]}}`}},
		{"codex", ClaudeSettings, ".codex", map[string]string{".codex/hooks.json": `{"hooks": {"PreToolUse": [
			{"matcher": "shell", "hooks": [{"command": "tausik hook codex pre-tool-use"}]},
			{"matcher": "Write", "hooks": [{"command": "'python3' '.codex/guard.py'"}]}]}}`}},
		{"cursor", CursorHooks, ".cursor", map[string]string{".cursor/hooks.json": `{"version": 1, "hooks": {
			"preToolUse": [{"command": "python3 hooks/guard.py", "matcher": "Write"}],
			"beforeShellExecution": [{"command": "tausik hook cursor pre-tool-use"}]}}`}},
		{"copilot", CopilotHooks, ".github/hooks", map[string]string{".github/hooks/tausik.json": `{"version": 1, "hooks": {
			"preToolUse": [{"type": "command", "bash": "tausik hook copilot pre-tool-use", "matcher": "bash"}]}}`,
			".github/hooks/guard.json": `{"hooks": {"preToolUse": [{"type": "command", "bash": "python3 guard.py", "matcher": "create"}]}}`,
			".github/hooks/README.md":  "not a hook file"}},
		{"windsurf", WindsurfHooks, ".windsurf", map[string]string{".windsurf/hooks.json": `{"hooks": {
			"pre_write_code": [{"command": "python3 guard.py"}], "pre_run_command": [{"command": "tausik hook windsurf pre-tool-use"}]}}`}},
	}
	for _, c := range cases {
		root := writeTree(t, c.files)
		rd, err := Read(c.format, root, c.profile, nil, BuiltinTable(c.host))
		if err != nil {
			t.Fatalf("%s: %v", c.host, err)
		}
		if !maps.Equal(rd.Capabilities, want) {
			t.Errorf("%s: %v, want %v", c.host, rd.Capabilities, want)
		}
		var files []string
		for p := range c.files {
			if strings.HasSuffix(p, ".json") {
				files = append(files, p)
			}
		}
		slices.Sort(files)
		if !slices.Equal(rd.Files, files) {
			t.Errorf("%s: files %v, want %v", c.host, rd.Files, files)
		}
	}
}

func TestReadPluginsAndMCP(t *testing.T) {
	root := writeTree(t, map[string]string{
		".opencode/plugins/tausik.js": "export const T = 1;\r\n",
		".opencode/plugins/guard.ts":  "export const G = 1;\n",
		".opencode/plugins/notes.md":  "not a plugin",
		".opencode/plugins/lib/a.js":  "a directory's files are not plugins",
		"opencode.json":               `{"mcp": {"tausik": {"type": "local", "command": ["tausik", "mcp"]}}}`,
	})
	rd, err := Read(Plugins, root, ".opencode", []string{"opencode.json", "absent.json"}, Table{})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"plugin:tausik.js": "", "plugin:guard.ts": ""}; !maps.Equal(rd.Capabilities, want) {
		t.Errorf("capabilities %v", rd.Capabilities)
	}
	if rd.Digests[".opencode/plugins/tausik.js"] != Digest([]byte("export const T = 1;\n")) {
		t.Errorf("a CRLF plugin digests as its LF text: %v", rd.Digests)
	}
	if got := rd.MCP["tausik"]; got != `{"command":["tausik","mcp"],"type":"local"}` {
		t.Errorf("mcp %q", got)
	}
	if want := []string{".opencode/plugins/guard.ts", ".opencode/plugins/tausik.js", "opencode.json"}; !slices.Equal(rd.Files, want) {
		t.Errorf("files %v", rd.Files)
	}
}

func TestReadRefusesMalformed(t *testing.T) {
	root := writeTree(t, map[string]string{".qwen/settings.json": "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n}\n", ".x/settings.json": "[1]"})
	if _, err := Read(ClaudeSettings, root, ".qwen", nil, Table{}); err == nil || !strings.Contains(err.Error(), ".qwen/settings.json:3: invalid JSON") {
		t.Errorf("err %v", err)
	}
	if _, err := Read(ClaudeSettings, root, ".x", nil, Table{}); err == nil || !strings.Contains(err.Error(), ".x/settings.json:1: want a JSON object") {
		t.Errorf("err %v", err)
	}
	if _, err := Read("yaml", root, ".x", nil, Table{}); err == nil || !strings.Contains(err.Error(), `unknown host format "yaml"`) {
		t.Errorf("err %v", err)
	}
	rd, err := Read(ClaudeSettings, root, ".absent", nil, Table{})
	if err != nil || len(rd.Files) != 0 || len(rd.Capabilities) != 0 {
		t.Errorf("an absent profile reads as nothing: %+v %v", rd, err)
	}
}

func TestMatchersAndIDs(t *testing.T) {
	qwen := BuiltinTable("qwen").Extend(Table{Tools: map[string]string{"my_write": "Write"}})
	for m, want := range map[string]string{
		"write_file|replace": "Edit|Write", " edit | write_file ": "Edit|Write", "my_write|write_file": "Write",
		"": "", "*": "", "write_file|*": "", "mcp__.*": "mcp__.*", "Unknown": "Unknown",
	} {
		if got := qwen.Matcher(m); got != want {
			t.Errorf("Matcher(%q) = %q, want %q", m, got, want)
		}
	}
	for _, c := range []struct {
		in   []string
		want string
	}{{[]string{"Write", "Edit"}, "Edit|Write"}, {[]string{"Edit|Write", "Write"}, "Edit|Write"}, {[]string{"Write", ""}, ""}} {
		if got := Unite(c.in); got != c.want {
			t.Errorf("Unite(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for cmd, want := range map[string][]string{
		`python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/a.py" --x`: {"hook:E:a.py"},
		`node x.mjs && bash y.sh; deno z.ts`:                   {"hook:E:x.mjs", "hook:E:y.sh", "hook:E:z.ts"},
		`C:\tools\hooks\w.js`:                                  {"hook:E:w.js"},
		`"/opt/bin/tausik" hook qwen post-tool-use`:            {"hook:E:tausik-post-tool-use"},
		`echo tausik`: nil,
		`make lint`:   nil,
	} {
		if got := commandIDs("E", cmd); !slices.Equal(got, want) {
			t.Errorf("commandIDs(%q) = %v, want %v", cmd, got, want)
		}
	}
	if ev, tool := BuiltinTable("windsurf").Event("pre_run_command"); ev != "PreToolUse" || tool != "Bash" {
		t.Errorf("windsurf pre_run_command: %s %s", ev, tool)
	}
	if ev, _ := (Table{}).Event("postToolUse"); ev != "PostToolUse" {
		t.Errorf("postToolUse: %s", ev)
	}
}
