package hosts

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine"
)

// TestWhereComesFromTheHost: the project a call is judged in is what the
// host sets — its project variable, or the workspace root holding the cwd —
// never derived from the cwd the agent moves; pre and post alike.
func TestWhereComesFromTheHost(t *testing.T) {
	env := map[string]string{"CLAUDE_PROJECT_DIR": "/p/claude", "GEMINI_PROJECT_DIR": "/p/gemini", "QWEN_PROJECT_DIR": "/p/qwen",
		"FACTORY_PROJECT_DIR": "/p/factory", "CURSOR_PROJECT_DIR": "/p/cursor-env"}
	write := func(tool, input string) string {
		return `{"session_id":"s","cwd":"/p/x/src","hook_event_name":"PreToolUse","tool_name":"` + tool + `","tool_input":` + input + `}`
	}
	for _, c := range []struct {
		host, payload, project string
	}{
		{"claude", write("Write", `{"file_path":"a.py","content":"x"}`), "/p/claude"},
		{"gemini", write("write_file", `{"file_path":"a.py","content":"x"}`), "/p/gemini"},
		{"qwen", write("write_file", `{"file_path":"a.py","content":"x"}`), "/p/qwen"},
		{"factory", write("Create", `{"file_path":"a.py","content":"x"}`), "/p/factory"},
		{"codex", write("shell", `{"command":["touch","a"]}`), ""},
		{"cursor", `{"hook_event_name":"preToolUse","workspace_roots":["/w/one","/w/two"],"cwd":"/w/two/src","tool_name":"Write","tool_input":{"file_path":"a.py"}}`, "/w/two"},
		{"cursor", `{"hook_event_name":"preToolUse","workspace_roots":["/w/one","/w/two"],"cwd":"/elsewhere","tool_name":"Write","tool_input":{"file_path":"a.py"}}`, "/w/one"},
		{"cursor", `{"hook_event_name":"preToolUse","cwd":"/w/two","tool_name":"Write","tool_input":{"file_path":"a.py"}}`, "/p/cursor-env"},
		{"cline", `{"hookName":"PreToolUse","workspaceRoots":["/w/cline"],"preToolUse":{"toolName":"write_to_file","parameters":{"path":"a.py"}}}`, "/w/cline"},
	} {
		for _, phase := range []Phase{Pre, Post} {
			h, _ := Lookup(c.host)
			var got *Where
			refused := errors.New("refused")
			Run(context.Background(), h, phase, Env{
				Stdin: strings.NewReader(c.payload), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{},
				Getenv: func(k string) string { return env[k] }, WD: "/hookwd",
				Open: func(_ context.Context, at Where) (*engine.Engine, error) { got = &at; return nil, refused },
			})
			if got == nil {
				t.Fatalf("%s %v: the engine was never opened", c.host, phase)
			}
			if got.Project != c.project {
				t.Errorf("%s %v %s: project %q, want %q", c.host, phase, c.payload, got.Project, c.project)
			}
		}
	}
}
