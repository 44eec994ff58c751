package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shellPayload wraps a command in one host's shell-tool payload.
type shellPayload struct {
	host   string
	wrap   func(cmd string) string
	denied func(*testing.T, int, string, string) (bool, string)
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

var shellPayloads = []shellPayload{
	{"claude", func(c string) string {
		return `{"session_id":"s","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":` + quoteJSON(c) + `}}`
	}, byExit2},
	{"codex", func(c string) string {
		return `{"session_id":"c","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":["bash","-lc",` + quoteJSON(c) + `],"workdir":"$ROOT"}}`
	}, byExit2},
	{"gemini", func(c string) string {
		return `{"session_id":"g","cwd":"$ROOT","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":` + quoteJSON(c) + `}}`
	}, byExit2},
	{"qwen", func(c string) string {
		return `{"session_id":"q","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":` + quoteJSON(c) + `}}`
	}, byExit2},
	{"opencode", func(c string) string {
		return `{"hook_event_name":"tool.execute.before","tool":"bash","session_id":"o","cwd":"$ROOT","args":{"command":` + quoteJSON(c) + `}}`
	}, byExit2},
	{"cursor", func(c string) string {
		return `{"hook_event_name":"beforeShellExecution","conversation_id":"cv","workspace_roots":["$ROOT"],"command":` + quoteJSON(c) + `,"cwd":"$ROOT"}`
	}, byJSON("permission", "deny", "agent_message")},
}

// TestShellToolsRefuseHiddenWrites: through each host's shell tool, in a
// task scoped to src/, a command that writes outside it in a way the
// command line does not show plainly is refused; one that writes only in
// src/ or writes nothing passes. The patch file is read from the call's cwd.
func TestShellToolsRefuseHiddenWrites(t *testing.T) {
	root, getenv := scopedProject(t)
	diff := "--- a/docs/x.md\n+++ b/docs/x.md\n@@ -1 +1 @@\n-a\n+b\n"
	inScope := "--- a/src/ok.py\n+++ b/src/ok.py\n@@ -1 +1 @@\n-a\n+b\n"
	for name, text := range map[string]string{"p.diff": diff, "s.diff": inScope} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		cmd  string
		deny bool
	}{
		{`bash <<<'touch docs/x'`, true},
		{`echo 'touch docs/x' | bash`, true},
		{`python3 <<<"open('docs/x','w')"`, true},
		{`node --eval="require('fs').writeFileSync('docs/x','')"`, true},
		{`ruby -we "File.write('docs/x','')"`, true},
		{`php -nr "touch('docs/x');"`, true},
		{`cp --target=docs src/a`, true},
		{`sed --i 's/a/b/' docs/b`, true},
		{`sort -o docs/x src/a`, true},
		{`vim -es -c 'w docs/x' src/a`, true},
		{`printf 'w docs/x\nq\n' | ed -s src/a`, true},
		{`sed 'e touch docs/x' src/a`, true},
		{`git reset --hard`, true},
		{`git stash`, true},
		{`git checkout HEAD docs/b`, true},
		{`git apply p.diff`, true},
		{`patch -p1 < p.diff`, true},
		{`tar xf a.tar`, true},
		{`unzip a.zip`, true},
		{`curl -o docs/x https://example.com`, true},
		{`wget -O docs/x https://example.com`, true},
		{`rsync -a src/ docs/`, true},
		{`git clone . docs/c`, true},
		{"alias t='touch docs/x'\nt", true},
		{`f() { touch docs/x; }; f`, true},
		{`touch src/{a,../docs/q}{1..300}`, true},
		{"touch x" + strings.Repeat("{,}", 40), true},
		{`ls -la`, false},
		{`git status && git diff`, false},
		{`cat src/a | grep b`, false},
		{`python3 script.py`, false},
		{`go test ./...`, false},
		{`echo "git reset --hard"`, false},
		{`sed -i 's/a/b/' src/ok.py`, false},
		{`git apply s.diff`, false},
		{`patch -p1 < s.diff`, false},
	} {
		for _, h := range shellPayloads {
			code, stdout, stderr := runHook(t, h.host, root, getenv, Pre, h.wrap(c.cmd))
			denied, why := h.denied(t, code, stdout, stderr)
			if denied != c.deny {
				t.Errorf("%s %q: denied=%v (%q), want %v", h.host, c.cmd, denied, why, c.deny)
			}
		}
	}
}

// TestShellToolsRunInTheirDirectory: Gemini's and Qwen's run_shell_command
// take a directory and Codex's shell tools a workdir; the command's relative
// paths are read from there, so `echo x > b` run in docs/ writes docs/b and
// `sqlite3 tausik.db …` run in .tausik/ names the decision log.
func TestShellToolsRunInTheirDirectory(t *testing.T) {
	root, getenv := scopedProject(t)
	in := func(host, dir, cmd string) string {
		switch host {
		case "codex":
			return `{"session_id":"c","cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"exec_command","tool_input":{"cmd":` + quoteJSON(cmd) + `,"workdir":` + quoteJSON(dir) + `}}`
		default:
			return `{"session_id":"g","cwd":"$ROOT","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":` + quoteJSON(cmd) + `,"directory":` + quoteJSON(dir) + `}}`
		}
	}
	for _, host := range []string{"gemini", "qwen", "codex"} {
		for _, c := range []struct {
			dir, cmd string
			deny     bool
		}{
			{"docs", "echo x > b", true},
			{root + "/docs", "echo x > b", true},
			{"src", "echo x > ../docs/b", true},
			{".tausik", `sqlite3 tausik.db "update tasks set scope_paths=null"`, true},
			{"src", "echo x > b", false},
			{"docs", "ls -la", false},
		} {
			code, stdout, stderr := runHook(t, host, root, getenv, Pre, in(host, c.dir, c.cmd))
			denied, why := byExit2(t, code, stdout, stderr)
			if denied != c.deny {
				t.Errorf("%s in %s: %q: denied=%v (%q), want %v", host, c.dir, c.cmd, denied, why, c.deny)
			}
		}
	}
}
