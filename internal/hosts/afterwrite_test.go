package hosts

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/project"
)

// TestPostWriteFindingsBesideTheCheck: after a write, the findings are
// begun before the tree is checked, finished when it passes, and never
// finished when it blocks; either way what they began ends with the call.
func TestPostWriteFindingsBesideTheCheck(t *testing.T) {
	root, getenv := scopedGitProject(t, map[string]string{"src/a": "a\n", "other/keep": "k\n"})
	claude, _ := Lookup("claude")
	post := func() (begun context.Context, finished bool, out string) {
		var stdout, stderr bytes.Buffer
		payload := `{"session_id":"s","cwd":"` + root + `","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"` + filepath.Join(root, "src", "a") + `","content":"a\n"}}`
		Run(context.Background(), claude, Post, Env{Stdin: strings.NewReader(payload), Stdout: &stdout, Stderr: &stderr, Getenv: getenv, WD: root,
			Open: func(ctx context.Context, _ Where) (*engine.Engine, error) {
				return project.Open(ctx, project.Setup{Root: root, Getenv: getenv, Requester: "hook:claude"})
			},
			AfterWrite: func(ctx context.Context, _ *engine.Engine, _ string, files []string) func(context.Context) (string, error) {
				if len(files) != 1 || files[0] != filepath.Join(root, "src", "a") {
					t.Errorf("findings begun for %v", files)
				}
				begun = ctx
				return func(context.Context) (string, error) {
					finished = true
					return "tausik: a finding on src/a", nil
				}
			}})
		return begun, finished, stdout.String()
	}
	begun, finished, out := post()
	if begun == nil || !finished || !strings.Contains(out, "a finding on src/a") {
		t.Fatalf("a clean check: begun %v, finished %v, answer %q", begun != nil, finished, out)
	}
	if begun.Err() == nil {
		t.Error("what the findings began outlived the call")
	}
	if err := os.WriteFile(filepath.Join(root, "other", "y"), []byte("y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	begun, finished, out = post()
	if begun == nil || finished || !strings.Contains(out, "other/y was created") {
		t.Fatalf("a blocking check: begun %v, finished %v, answer %q", begun != nil, finished, out)
	}
	if begun.Err() == nil {
		t.Error("what the findings began outlived the blocked call")
	}
}
