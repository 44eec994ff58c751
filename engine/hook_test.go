package engine

import (
	"errors"
	"strings"
	"testing"
)

// Payload shapes as Claude Code sends them to PreToolUse hooks.
var claudePayloads = map[string]string{
	"Write": `{"session_id":"abc123","transcript_path":"/home/u/.claude/projects/p/abc123.jsonl","cwd":"/work/p",
		"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write",
		"tool_input":{"file_path":"/work/p/src/app.py","content":"print(1)\n"}}`,
	"Edit": `{"session_id":"abc123","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"Edit",
		"tool_input":{"file_path":"/work/p/src/app.py","old_string":"print(1)","new_string":"print(2)","replace_all":false}}`,
	"MultiEdit": `{"session_id":"abc123","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"MultiEdit",
		"tool_input":{"file_path":"src/app.py","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}}`,
	"NotebookEdit": `{"session_id":"abc123","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"NotebookEdit",
		"tool_input":{"notebook_path":"/work/p/nb/analysis.ipynb","cell_id":"c1","new_source":"x = 1","edit_mode":"replace"}}`,
	"Bash": `{"session_id":"abc123","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"Bash",
		"tool_input":{"command":"echo hi > /work/p/out.txt","description":"write a file"}}`,
	"Read": `{"session_id":"abc123","cwd":"/work/p","hook_event_name":"PreToolUse","tool_name":"Read",
		"tool_input":{"file_path":"/etc/passwd"}}`,
}

func TestParseClaudeToolUse(t *testing.T) {
	want := map[string]struct {
		writes bool
		files  string
	}{
		"Write":        {true, "/work/p/src/app.py"},
		"Edit":         {true, "/work/p/src/app.py"},
		"MultiEdit":    {true, "/work/p/src/app.py"},
		"NotebookEdit": {true, "/work/p/nb/analysis.ipynb"},
		"Bash":         {false, ""},
		"Read":         {false, ""},
	}
	for tool, payload := range claudePayloads {
		u, err := ParseClaudeToolUse([]byte(payload))
		if err != nil {
			t.Errorf("%s: %v", tool, err)
			continue
		}
		w := want[tool]
		if u.Tool != tool || u.Writes != w.writes || strings.Join(u.Files, ",") != w.files || u.SessionID != "abc123" || u.Host != "claude" {
			t.Errorf("%s: %+v", tool, u)
		}
	}
}

func TestParseClaudeToolUseFailsClosed(t *testing.T) {
	for name, payload := range map[string]string{
		"empty":             "",
		"whitespace":        "  \n",
		"not json":          "Write /x",
		"no tool":           `{"tool_input":{"file_path":"/x"}}`,
		"write no path":     `{"tool_name":"Write","tool_input":{"content":"x"}}`,
		"write input null":  `{"tool_name":"Write","tool_input":null}`,
		"notebook no path":  `{"tool_name":"NotebookEdit","tool_input":{"file_path":"/x.ipynb"}}`,
		"relative no cwd":   `{"tool_name":"Edit","tool_input":{"file_path":"a.py"}}`,
		"relative cwd":      `{"tool_name":"Edit","cwd":"work","tool_input":{"file_path":"a.py"}}`,
		"path not a string": `{"tool_name":"Write","tool_input":{"file_path":7}}`,
	} {
		if _, err := ParseClaudeToolUse([]byte(payload)); !errors.Is(err, ErrHookPayload) {
			t.Errorf("%s: err = %v, want ErrHookPayload", name, err)
		}
	}
}

// FuzzParseClaudeToolUse: never panics; a writing tool always names files,
// all absolute.
func FuzzParseClaudeToolUse(f *testing.F) {
	for _, p := range claudePayloads {
		f.Add([]byte(p))
	}
	f.Add([]byte(`{"tool_name":"MultiEdit","cwd":"/w","tool_input":{"file_path":"a","edits":[{"file_path":"../b"}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		u, err := ParseClaudeToolUse(b)
		if err != nil || !u.Writes {
			return
		}
		if len(u.Files) == 0 {
			t.Fatal("a writing tool with no files was accepted")
		}
		for _, p := range u.Files {
			if !strings.HasPrefix(p, "/") {
				t.Fatalf("relative path %q accepted", p)
			}
		}
	})
}
