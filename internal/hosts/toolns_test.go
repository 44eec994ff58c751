package hosts

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/internal/project"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/facts"
)

// toolPayloads are, per host, an edit of src/a.py ("a = 1" -> "a = 10") and
// a shell call writing out.txt, in the shapes each adapter reads.
var toolPayloads = map[string][2]string{
	"claude":   {`{"cwd":"$ROOT","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"$ROOT/src/a.py","old_string":"a = 1\n","new_string":"a = 10\n"}}`, `{"cwd":"$ROOT","tool_name":"Bash","tool_input":{"command":"echo hi > out.txt"}}`},
	"qwen":     {`{"cwd":"$ROOT","tool_name":"edit","tool_input":{"file_path":"$ROOT/src/a.py","old_string":"a = 1\n","new_string":"a = 10\n"}}`, `{"cwd":"$ROOT","tool_name":"run_shell_command","tool_input":{"command":"echo hi > out.txt"}}`},
	"gemini":   {`{"cwd":"$ROOT","hook_event_name":"BeforeTool","tool_name":"replace","tool_input":{"file_path":"src/a.py","old_string":"a = 1\n","new_string":"a = 10\n","expected_replacements":1}}`, `{"cwd":"$ROOT","tool_name":"run_shell_command","tool_input":{"command":"echo hi > out.txt"}}`},
	"codex":    {`{"cwd":"$ROOT","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: src/a.py\n@@\n-a = 1\n+a = 10\n b = 2\n*** End Patch\n"}}`, `{"cwd":"$ROOT","tool_name":"shell","tool_input":{"command":["bash","-lc","echo hi > out.txt"]}}`},
	"cursor":   {`{"hook_event_name":"preToolUse","workspace_roots":["$ROOT"],"tool_name":"StrReplace","tool_input":{"path":"src/a.py","old_string":"a = 1\n","new_string":"a = 10\n"}}`, `{"hook_event_name":"beforeShellExecution","workspace_roots":["$ROOT"],"command":"echo hi > out.txt","cwd":"$ROOT"}`},
	"copilot":  {`{"cwd":"$ROOT","toolName":"str_replace","toolArgs":"{\"path\":\"src/a.py\",\"old_str\":\"a = 1\\n\",\"new_str\":\"a = 10\\n\"}"}`, `{"cwd":"$ROOT","toolName":"bash","toolArgs":"{\"command\":\"echo hi > out.txt\"}"}`},
	"windsurf": {`{"agent_action_name":"pre_write_code","tool_info":{"file_path":"$ROOT/src/a.py","edits":[{"old_string":"a = 1\n","new_string":"a = 10\n"}]}}`, `{"agent_action_name":"pre_run_command","tool_info":{"command_line":"echo hi > out.txt","cwd":"$ROOT"}}`},
	"opencode": {`{"hook_event_name":"tool.execute.before","tool":"edit","cwd":"$ROOT","args":{"filePath":"src/a.py","oldString":"a = 1\n","newString":"a = 10\n"}}`, `{"hook_event_name":"tool.execute.before","tool":"bash","cwd":"$ROOT","args":{"command":"echo hi > out.txt"}}`},
	"kilo":     {`{"hook_event_name":"tool.execute.before","tool":"apply_patch","cwd":"$ROOT","args":{"patchText":"*** Begin Patch\n*** Update File: src/a.py\n@@\n-a = 1\n+a = 10\n*** End Patch"}}`, `{"hook_event_name":"tool.execute.before","tool":"bash","cwd":"$ROOT","args":{"command":"echo hi > out.txt"}}`},
	"factory":  {`{"cwd":"$ROOT","tool_name":"Edit","tool_input":{"file_path":"$ROOT/src/a.py","old_str":"a = 1\n","new_str":"a = 10\n"}}`, `{"cwd":"$ROOT","tool_name":"Execute","tool_input":{"command":"echo hi > out.txt"}}`},
	"cline":    {`{"hookName":"PreToolUse","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"replace_in_file","parameters":{"path":"src/a.py","diff":"------- SEARCH\na = 1\n=======\na = 10\n+++++++ REPLACE"}}}`, `{"hookName":"PreToolUse","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"execute_command","parameters":{"command":"echo hi > out.txt"}}}`},
}

// toolNS normalises payload with host's adapter in root and returns the
// tool namespace and the files namespace a real engine gives for it.
func toolNS(t *testing.T, host, root, payload string) (facts.Tool, facts.Namespace) {
	t.Helper()
	getenv := func(string) string { return "" }
	tc, err := Normalise(host, []byte(strings.ReplaceAll(payload, "$ROOT", root)), Env{WD: root, Getenv: getenv})
	if err != nil {
		t.Fatalf("%s: %v", host, err)
	}
	e, err := project.Open(context.Background(), project.Setup{Root: root, Getenv: getenv, Requester: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	doc, err := e.Facts(context.Background(), engine.Request{Trigger: engine.TriggerPreWrite, Files: tc.Writes, Tool: &tc}, []string{"tool", "files"})
	if err != nil {
		t.Fatal(err)
	}
	ns := doc.Namespaces["tool"]
	got, ok := ns.Data.(facts.Tool)
	if ns.Status != facts.StatusOK || !ok {
		t.Fatalf("%s: tool namespace %+v", host, ns)
	}
	return got, doc.Namespaces["files"]
}

func TestToolNamespacePerHost(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", "a.py"), []byte("a = 1\nb = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, host := range Names() {
		p, ok := toolPayloads[host]
		if !ok {
			t.Errorf("host %s has no tool payloads", host)
			continue
		}
		edit, files := toolNS(t, host, root, p[0])
		want := facts.ToolWrite{Path: "src/a.py", Text: "a = 10\nb = 2\n", Added: []string{"a = 10\n"}}
		if host == "codex" || host == "kilo" {
			want.Added = []string{"a = 10"} // a patch's added lines
		}
		if edit.Kind != toolcall.KindWrite || edit.Event != "pre-tool-use" || !slices.Equal(edit.Targets, []string{"src/a.py"}) ||
			len(edit.Writes) != 1 || edit.Writes[0].Path != want.Path || edit.Writes[0].Text != want.Text ||
			!slices.Equal(edit.Writes[0].Added, want.Added) || edit.Writes[0].Error != "" {
			t.Errorf("%s edit: %+v, want the write %+v", host, edit, want)
		}
		if fs, ok := files.Data.(facts.Files); !ok || len(fs.Files) != 1 || fs.Files[0].Lines != 2 || fs.Files[0].Size != int64(len(want.Text)) {
			t.Errorf("%s edit: files namespace %+v, want src/a.py as after the call", host, files)
		}
		shell, _ := toolNS(t, host, root, p[1])
		if shell.Kind != toolcall.KindShell || !slices.Equal(shell.Targets, []string{"out.txt"}) || len(shell.Writes) != 0 {
			t.Errorf("%s shell: %+v", host, shell)
		}
		i := slices.IndexFunc(shell.Commands, func(c facts.ToolShellCommand) bool { return len(c.Argv) > 0 && c.Argv[0] == "echo" })
		if i < 0 || !slices.Equal(shell.Commands[i].Argv, []string{"echo", "hi"}) ||
			!slices.Equal(shell.Commands[i].Redirects, []facts.ToolRedirect{{Op: ">", Target: "out.txt"}}) {
			t.Errorf("%s shell commands: %+v", host, shell.Commands)
		}
	}
}

func TestToolNamespaceKinds(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		host, payload string
		check         func(facts.Tool) bool
	}{
		{"claude", `{"cwd":"$ROOT","tool_name":"mcp__github__create_issue","agent_id":"ag1","agent_type":"reviewer","tool_input":{"title":"x"}}`, func(x facts.Tool) bool {
			return x.Kind == "mcp" && x.MCP != nil && x.MCP.Server == "github" && x.MCP.Tool == "create_issue" && x.MCP.Args["title"] == "x" &&
				x.Subagent != nil && x.Subagent.ID == "ag1" && x.Subagent.Type == "reviewer"
		}},
		{"claude", `{"cwd":"$ROOT","tool_name":"WebFetch","tool_input":{"url":"https://example.com","prompt":"p"}}`, func(x facts.Tool) bool {
			return x.Kind == "fetch" && x.URL == "https://example.com" && x.Subagent == nil
		}},
		{"cline", `{"hookName":"PreToolUse","workspaceRoots":["$ROOT"],"preToolUse":{"toolName":"use_mcp_tool","parameters":{"server_name":"db","tool_name":"query","arguments":"{\"sql\":\"select 1\"}"}}}`, func(x facts.Tool) bool {
			return x.Kind == "mcp" && x.MCP.Server == "db" && x.MCP.Tool == "query" && x.MCP.Args["sql"] == "select 1"
		}},
		{"claude", `{"cwd":"$ROOT","tool_name":"Bash","tool_input":{"command":"sudo git push --force origin $BR && cat <<'EOF' | sh\nrm -rf /\nEOF"}}`, func(x facts.Tool) bool {
			return len(x.Commands) == 3 && slices.Equal(x.Commands[0].Argv, []string{"git", "push", "--force", "origin", ""}) &&
				slices.Equal(x.Commands[0].Dynamic, []bool{false, false, false, false, true}) &&
				slices.Equal(x.Commands[1].Heredocs, []string{"rm -rf /\n"}) && slices.Equal(x.Commands[2].Argv, []string{"sh"})
		}},
		{"claude", `{"cwd":"$ROOT","tool_name":"Write","tool_input":{"file_path":"$ROOT/n.py","content":"x = 1\n"}}`, func(x facts.Tool) bool {
			return len(x.Writes) == 1 && x.Writes[0].Text == "x = 1\n" && slices.Equal(x.Writes[0].Added, []string{"x = 1\n"})
		}},
	} {
		got, _ := toolNS(t, c.host, root, c.payload)
		if !c.check(got) {
			t.Errorf("%s %s: %+v", c.host, c.payload, got)
		}
	}
}
