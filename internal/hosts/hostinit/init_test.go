package hostinit

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func build(t *testing.T, o Options) *Plan {
	t.Helper()
	p, err := Build(o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hookCommands collects every command string in a JSON document.
func hookCommands(v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if s, ok := c.(string); ok && (k == "command" || k == "bash") {
				*out = append(*out, s)
			}
			hookCommands(c, out)
		}
	case []any:
		for _, c := range x {
			hookCommands(c, out)
		}
	}
}

// TestEveryHostFreshAndIdempotent wires every host into an empty repository:
// each file is what its host can read (JSON, JSONC, TOML), every hook calls
// exactly `tausik hook <host> pre-tool-use|post-tool-use` for its own host,
// and a second plan changes nothing.
func TestEveryHostFreshAndIdempotent(t *testing.T) {
	root := t.TempDir()
	p := build(t, Options{Root: root, Hosts: HostNames()})
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	pre, post, turn := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range p.Files {
		b, err := os.ReadFile(filepath.Join(root, f.Rel))
		if err != nil || !bytes.Equal(b, f.New) {
			t.Fatalf("%s not written as planned: %v", f.Rel, err)
		}
		var cmds []string
		switch {
		case strings.HasSuffix(f.Rel, ".toml"):
			var doc map[string]any
			if err := toml.Unmarshal(b, &doc); err != nil {
				t.Errorf("%s: %v", f.Rel, err)
			}
		case strings.HasSuffix(f.Rel, ".json"):
			var doc any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Errorf("%s is not plain JSON: %v", f.Rel, err)
			}
			hookCommands(doc, &cmds)
		default:
			for _, l := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(l, "exec ") {
					cmds = append(cmds, strings.TrimPrefix(l, "exec "))
				}
			}
		}
		for _, c := range cmds {
			if c == "tausik" {
				continue // an MCP registration's command; its args are ["mcp"]
			}
			f := strings.Fields(c)
			if len(f) != 4 || f[0] != "tausik" || f[1] != "hook" {
				t.Errorf("hook command %q is not `tausik hook <host> <event>`", c)
				continue
			}
			switch f[3] {
			case Pre:
				pre[f[2]] = true
			case Post:
				post[f[2]] = true
			case Stop, SessionStart, PromptSubmit:
				turn[f[2]+" "+f[3]] = true
			default:
				t.Errorf("hook command %q: unknown event", c)
			}
		}
	}
	for _, h := range HostNames() {
		if h == "opencode" || h == "kilo" {
			continue // the plugin calls tausik itself; see TestPluginFile
		}
		if !pre[h] || !post[h] {
			t.Errorf("host %s: pre %v post %v", h, pre[h], post[h])
		}
	}
	// The lifecycle events each host has (docs/hosts.md, events × hosts).
	for _, w := range []string{"claude stop", "claude session-start", "claude prompt-submit", "codex stop", "codex session-start",
		"codex prompt-submit", "factory stop", "factory session-start", "factory prompt-submit", "qwen stop", "qwen session-start",
		"qwen prompt-submit", "gemini stop", "gemini session-start", "gemini prompt-submit", "cursor stop", "cursor session-start",
		"cline session-start", "cline prompt-submit"} {
		if !turn[w] {
			t.Errorf("%s is not wired", w)
		}
		delete(turn, w)
	}
	if len(turn) > 0 {
		t.Errorf("lifecycle events wired for hosts that lack them: %v", turn)
	}
	again := build(t, Options{Root: root})
	if len(again.Hosts) != len(Hosts) || !again.Detected {
		t.Errorf("detected %v after wiring every host", again.Hosts)
	}
	if ch := again.Changed(); len(ch) != 0 {
		t.Errorf("second run would change %v", ch)
	}
}

func TestPluginFile(t *testing.T) {
	root := t.TempDir()
	p := build(t, Options{Root: root, Hosts: []string{"opencode", "kilo"}, Command: []string{"/opt/bin/tausik", "--root", "."}})
	var got []string
	for _, f := range p.Files {
		if strings.HasSuffix(f.Rel, "tausik.js") {
			got = append(got, f.Rel)
			if !strings.Contains(string(f.New), `const TAUSIK = ["/opt/bin/tausik","--root","."];`) || strings.Contains(string(f.New), "__TAUSIK") {
				t.Errorf("%s does not run the given command", f.Rel)
			}
			if !strings.Contains(string(f.New), `"hook", "opencode", event`) {
				t.Errorf("%s does not call the opencode adapter", f.Rel)
			}
		}
		if f.Rel == "opencode.json" || f.Rel == "kilo.json" {
			if !strings.Contains(string(f.New), `"/opt/bin/tausik",`) || !strings.Contains(string(f.New), `"$schema"`) {
				t.Errorf("%s:\n%s", f.Rel, f.New)
			}
		}
	}
	if strings.Join(got, " ") != ".kilo/plugins/tausik.js .opencode/plugins/tausik.js" {
		t.Errorf("plugin files %v", got)
	}
}

// TestMergeKeepsWhatIsNotTausiks edits hand-written files: other hooks,
// other servers, other keys and every comment stay byte for byte, tausik's
// stale entries are replaced (not duplicated), and the result is a fixed
// point of init.
func TestMergeKeepsWhatIsNotTausiks(t *testing.T) {
	claude := `{
	"permissions": {"allow": ["Bash(go test:*)"]},
	"hooks": {
		"PreToolUse": [
			{"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}, {"type": "command", "command": "/old/tausik hook claude pre-tool-use"}]},
			{"matcher": "Write", "hooks": [{"type": "command", "command": "tausik hook claude pre-tool-use"}]},
			{"matcher": "Edit", "hooks": [{"type": "command", "command": "tausik hook claude pre-tool-use"}]}
		]
	}
}
`
	opencode := `// project config
{
  "model": "anthropic/claude", /* mine */
  "mcp": {"other": {"type": "local", "command": ["other"]},},
}
`
	cursor := `{"hooks": {"preToolUse": [{"command": "./guard.sh", "matcher": "Shell"}, {"command": "tausik hook cursor pre-tool-use"}, {"command": "x/tausik hook cursor pre-tool-use"}]}, "version": 1}`
	root := t.TempDir()
	writeTree(t, root, map[string]string{".claude/settings.json": claude, "opencode.jsonc": opencode, ".cursor/hooks.json": cursor})
	p := build(t, Options{Root: root, Hosts: []string{"claude", "opencode", "cursor"}})
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	c := read(".claude/settings.json")
	for _, keep := range []string{`"permissions": {"allow": ["Bash(go test:*)"]},`,
		`{"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]},`} {
		if !strings.Contains(c, keep) {
			t.Errorf("claude settings lost %s:\n%s", keep, c)
		}
	}
	if n := strings.Count(c, "hook claude pre-tool-use"); n != 1 || strings.Contains(c, "/old/tausik") || strings.Contains(c, `"matcher": "Edit"`) {
		t.Errorf("stale tausik entries not replaced (%d pre hooks):\n%s", n, c)
	}
	if !strings.Contains(c, `"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash",`) {
		t.Errorf("tausik's group not put where its first one was:\n%s", c)
	}
	o := read("opencode.jsonc")
	if _, err := os.Stat(filepath.Join(root, "opencode.json")); err == nil {
		t.Error("opencode.json written next to opencode.jsonc")
	}
	for _, keep := range []string{"// project config\n", `"model": "anthropic/claude", /* mine */`, `"other": {"type": "local", "command": ["other"]},`} {
		if !strings.Contains(o, keep) {
			t.Errorf("opencode.jsonc lost %q:\n%s", keep, o)
		}
	}
	if strings.Contains(o, "$schema") {
		t.Error("a $schema added to an existing file")
	}
	if v, err := hujson.Parse([]byte(o)); err != nil || !strings.Contains(v.String(), `"tausik"`) {
		t.Errorf("opencode.jsonc: %v\n%s", err, o)
	}
	cu := read(".cursor/hooks.json")
	if !strings.Contains(cu, `{"command": "./guard.sh", "matcher": "Shell"}, {"command": "tausik hook cursor pre-tool-use"}],`) ||
		strings.Count(cu, "hook cursor pre-tool-use") != 2 || strings.Contains(strings.TrimSpace(cu), "\n") {
		t.Errorf("cursor hooks:\n%s", cu)
	}
	if ch := build(t, Options{Root: root, Hosts: []string{"claude", "opencode", "cursor"}}).Changed(); len(ch) != 0 {
		t.Errorf("not a fixed point: %v", ch)
	}
}

// TestOutIsWhatTheRepositoryWouldGet compares init --out with init into the
// repository itself, starting from the same hand-written files.
func TestOutIsWhatTheRepositoryWouldGet(t *testing.T) {
	files := map[string]string{".qwen/settings.json": "{\n  // mine\n  \"model\": {\"name\": \"qwen3-coder\"}\n}\n", ".codex/config.toml": "model = \"o3\"\n"}
	repo, copyRoot, out := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, repo, files)
	writeTree(t, copyRoot, files)
	if err := build(t, Options{Root: repo}).Apply(); err != nil {
		t.Fatal(err)
	}
	p := build(t, Options{Root: copyRoot, Out: out})
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	for _, f := range p.Files {
		a, _ := os.ReadFile(filepath.Join(repo, f.Rel))
		b, _ := os.ReadFile(filepath.Join(out, f.Rel))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: --out wrote\n%s\nthe repository got\n%s", f.Rel, b, a)
		}
		orig, _ := os.ReadFile(filepath.Join(copyRoot, f.Rel))
		if files[f.Rel] != "" && string(orig) != files[f.Rel] {
			t.Errorf("%s: --out changed the root's copy", f.Rel)
		}
	}
}

func TestMalformedIsRefusedWithLine(t *testing.T) {
	for _, tc := range []struct{ host, rel, body, want string }{
		{"claude", ".claude/settings.json", "{\n  \"hooks\": {\n    \"PreToolUse\": 3,\n  }\n}\n", ".claude/settings.json:4:"},
		{"claude", ".claude/settings.json", "{\n  \"hooks\": {\"PreToolUse\": 3}\n}\n", ".claude/settings.json: hooks.PreToolUse: want an array"},
		{"claude", ".claude/settings.json", "[1, 2]\n", ".claude/settings.json:1: want a JSON object"},
		{"claude", ".claude/settings.json", "{\n  // comment\n}\n", ".claude/settings.json:2:"},
		{"gemini", ".gemini/settings.json", "{\n  \"a\": 1,\n  \"b\" 2\n}\n", ".gemini/settings.json:3:"},
		{"codex", ".codex/config.toml", "a = 1\nb = = 2\n", ".codex/config.toml:2:"},
		{"codex", ".codex/config.toml", "mcp_servers.tausik.command = \"x\"\n", "make it a [mcp_servers.tausik] table"},
		{"cursor", ".cursor/hooks.json", "{\"hooks\": []}", ".cursor/hooks.json: hooks: want an object"},
	} {
		root := t.TempDir()
		writeTree(t, root, map[string]string{tc.rel: tc.body})
		_, err := Build(Options{Root: root, Hosts: []string{tc.host}})
		if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %q: %v, want %s", tc.rel, tc.body, err, tc.want)
		}
	}
}

func TestUnknownAndMissingHosts(t *testing.T) {
	if _, err := Build(Options{Root: t.TempDir()}); !errors.Is(err, ErrNoHost) {
		t.Errorf("empty repository: %v", err)
	}
	if _, err := Build(Options{Root: t.TempDir(), Hosts: []string{"claude", "emacs"}}); !errors.Is(err, ErrUnknownHost) {
		t.Errorf("unknown host: %v", err)
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{".windsurf/rules.md": "x", ".github/copilot-instructions.md": "x"})
	if p := build(t, Options{Root: root}); strings.Join(p.Hosts, ",") != "copilot,windsurf" {
		t.Errorf("detected %v", p.Hosts)
	}
}

func TestCodexTOMLKeepsTheRest(t *testing.T) {
	in := "# top\nmodel = \"o3\"\n\n[mcp_servers.tausik] # mine\nargs = [\n  \"old\",\n]\nenv = { A = \"1\" }\n\n[mcp_servers.tausik.env2]\nB = \"2\"\n"
	out, err := mergeCodexTOML("c.toml", []byte(in), []string{"tausik"})
	if err != nil {
		t.Fatal(err)
	}
	want := "# top\nmodel = \"o3\"\n\n[mcp_servers.tausik] # mine\ncommand = \"tausik\"\nargs = [\"mcp\"]\nenv = { A = \"1\" }\n\n[mcp_servers.tausik.env2]\nB = \"2\"\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	again, _ := mergeCodexTOML("c.toml", out, []string{"tausik"})
	if !bytes.Equal(again, out) {
		t.Errorf("not idempotent:\n%s", again)
	}
}

// TestClineScriptsAllowedPastMemoryRoute: Cline's hooks live in .clinerules/,
// which memory_route guards as another tool's rules, so wiring Cline adds
// exactly its four scripts to memory_route's allow list — into the starter
// or into the project's own config, keeping what is there.
func TestClineScriptsAllowedPastMemoryRoute(t *testing.T) {
	root := t.TempDir()
	cfg := "{\n  \"gates\": {\n    \"memory_route\": {\"params\": {\"allow\": [\".clinerules/hooks/PostToolUse\", \"docs/rules.md\"]}},\n    \"filesize\": {\"params\": {\"max_lines\": 400}}\n  }\n}\n"
	writeTree(t, root, map[string]string{ConfigRel: cfg})
	if p := build(t, Options{Root: root, Hosts: []string{"claude"}}); slices.ContainsFunc(p.Files, func(f File) bool { return f.Rel == ConfigRel }) {
		t.Error("a host that needs nothing of the config touched it")
	}
	p := build(t, Options{Root: root, Hosts: []string{"cline"}})
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(root, ConfigRel))
	want := "{\n  \"gates\": {\n    \"memory_route\": {\"params\": {\"allow\": [\".clinerules/hooks/PostToolUse\", \"docs/rules.md\", \".clinerules/hooks/PreToolUse\", \".clinerules/hooks/TaskStart\", \".clinerules/hooks/UserPromptSubmit\"]}},\n    \"filesize\": {\"params\": {\"max_lines\": 400}}\n  }\n}\n"
	if string(b) != want {
		t.Errorf("config:\n%s\nwant\n%s", b, want)
	}
	if ch := build(t, Options{Root: root, Hosts: []string{"cline"}}).Changed(); len(ch) != 0 {
		t.Errorf("second run changes %v", ch)
	}
	fresh := build(t, Options{Root: t.TempDir(), Hosts: []string{"cline"}})
	for _, f := range fresh.Files {
		if f.Rel == ConfigRel && (!strings.Contains(string(f.New), `".clinerules/hooks/PreToolUse",`) || !strings.Contains(string(f.New), `".clinerules/hooks/PostToolUse"`)) {
			t.Errorf("starter for cline:\n%s", f.New)
		}
	}
}

// TestHooksFailClosed pins the fields that make a host block when its hook
// cannot answer: Claude Code's onFailure "block" on the pre hook, and each
// host's timeout in its own unit (Gemini reads milliseconds: 30 there would
// time every call out and let it through).
func TestHooksFailClosed(t *testing.T) {
	want := map[string]map[string]map[string]any{
		".claude/settings.json":  {"PreToolUse": map[string]any{"timeout": 30.0, "onFailure": "block"}, "PostToolUse": map[string]any{"timeout": 30.0}},
		".gemini/settings.json":  {"BeforeTool": map[string]any{"timeout": 30000.0}, "AfterTool": map[string]any{"timeout": 30000.0}},
		".codex/hooks.json":      {"PreToolUse": map[string]any{"timeout": 30.0}, "PostToolUse": map[string]any{"timeout": 30.0}},
		".qwen/settings.json":    {"PreToolUse": map[string]any{}, "PostToolUse": map[string]any{}},
		".factory/settings.json": {"PreToolUse": map[string]any{}, "PostToolUse": map[string]any{}},
	}
	p := build(t, Options{Root: t.TempDir(), Hosts: HostNames()})
	seen := 0
	for _, f := range p.Files {
		events, ok := want[f.Rel]
		if !ok {
			continue
		}
		seen++
		b, err := hujson.Standardize(append([]byte{}, f.New...))
		if err != nil {
			t.Fatalf("%s: %v", f.Rel, err)
		}
		var doc struct {
			Hooks map[string][]struct {
				Hooks []map[string]any `json:"hooks"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f.Rel, err)
		}
		for ev, fields := range events {
			groups := doc.Hooks[ev]
			if len(groups) != 1 || len(groups[0].Hooks) != 1 {
				t.Fatalf("%s %s: want one tausik hook, got %v", f.Rel, ev, groups)
			}
			h := groups[0].Hooks[0]
			for k := range h {
				if k == "type" || k == "command" || k == "name" {
					continue
				}
				if _, ok := fields[k]; !ok {
					t.Errorf("%s %s: unexpected field %s=%v", f.Rel, ev, k, h[k])
				}
			}
			for k, v := range fields {
				if h[k] != v {
					t.Errorf("%s %s: %s = %v, want %v", f.Rel, ev, k, h[k], v)
				}
			}
		}
	}
	if seen != len(want) {
		t.Fatalf("saw %d of %d settings files", seen, len(want))
	}
}

// TestWiringFilesAreWhatInitWrites pins WiringFiles to Build: every file a
// plan for all hosts writes (but the project config) is in the list.
func TestWiringFilesAreWhatInitWrites(t *testing.T) {
	root := t.TempDir()
	p, err := Build(Options{Root: root, Hosts: HostNames(), Command: []string{"tausik"}})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, w := range WiringFiles() {
		listed[w.Rel] = true
	}
	n := 0
	for _, f := range p.Files {
		if f.Rel == ConfigRel {
			continue
		}
		n++
		if !listed[f.Rel] {
			t.Errorf("init writes %s, which WiringFiles does not list", f.Rel)
		}
	}
	if n < len(Hosts) || !listed[".claude/settings.json"] || !listed[".codex/hooks.json"] || !listed["opencode.jsonc"] {
		t.Fatalf("wiring list too short: %d files planned, list %v", n, WiringFiles())
	}
}
