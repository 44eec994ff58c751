package hosts

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/engine"
)

// TestRunWithinRefusesAHungHook: an engine that never opens (a store locked
// by another process, a hung read) must not keep the hook from answering. At
// the deadline the pre hook refuses in the host's protocol, and whatever the
// hung call writes later is dropped, so the host reads one answer.
func TestRunWithinRefusesAHungHook(t *testing.T) {
	for _, tc := range []struct {
		host     string
		payload  string
		wantCode int
		denied   func(stdout string) bool
	}{
		{"claude", `{"tool_name":"Write","tool_input":{"file_path":"/p/src/a.py","content":"x"},"cwd":"/p"}`, 2,
			func(string) bool { return true }},
		{"cursor", `{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"file_path":"/p/src/a.py"},"cwd":"/p"}`, 0,
			func(out string) bool {
				var m map[string]any
				return json.Unmarshal([]byte(out), &m) == nil && m["permission"] == "deny"
			}},
	} {
		t.Run(tc.host, func(t *testing.T) {
			h, _ := Lookup(tc.host)
			release := make(chan struct{})
			opened := make(chan struct{})
			var stdout, stderr bytes.Buffer
			env := Env{
				Stdin: strings.NewReader(tc.payload), Stdout: &stdout, Stderr: &stderr,
				Getenv: func(string) string { return "" }, WD: "/p",
				Open: func(context.Context, Where) (*engine.Engine, error) {
					close(opened)
					<-release // hangs, deaf to the context, until the test lets go
					return nil, context.Canceled
				},
			}
			code := RunWithin(context.Background(), h, Pre, env, 20*time.Millisecond)
			<-opened
			got := stdout.String()
			close(release)
			if code != tc.wantCode || !tc.denied(got) {
				t.Fatalf("exit %d, stdout %q, stderr %q: want a refusal", code, got, stderr.String())
			}
			if !strings.Contains(stderr.String(), "no verdict within 20ms") {
				t.Errorf("stderr %q does not say the hook ran out of time", stderr.String())
			}
		})
	}
}

// TestRunWithinAnswersInTime: a hook that answers before the deadline is
// Run's answer, byte for byte.
func TestRunWithinAnswersInTime(t *testing.T) {
	h, _ := Lookup("claude")
	var stdout, stderr bytes.Buffer
	env := Env{Stdin: strings.NewReader(`{"tool_name":"Read","tool_input":{"file_path":"/p/a"},"cwd":"/p"}`),
		Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, WD: "/p",
		Open: func(context.Context, Where) (*engine.Engine, error) {
			t.Fatal("a read opened the engine")
			return nil, nil
		}}
	if code := RunWithin(context.Background(), h, Pre, env, time.Hour); code != 0 || stdout.Len() != 0 || stderr.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q: want a silent allow", code, stdout.String(), stderr.String())
	}
}

// TestRunWithinPostSaysTheTreeWasNotChecked: a post-tool-use hook that runs
// out of time does not exit 1 (which Claude Code shows and forgets): it
// answers as for a change outside the scope, saying the tree was not checked.
func TestRunWithinPostSaysTheTreeWasNotChecked(t *testing.T) {
	h, _ := Lookup("claude")
	release := make(chan struct{})
	defer close(release)
	var stdout, stderr bytes.Buffer
	env := Env{Stdin: strings.NewReader(`{"tool_name":"Bash","tool_input":{"command":"make"},"cwd":"/p"}`),
		Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, WD: "/p",
		Open: func(context.Context, Where) (*engine.Engine, error) { <-release; return nil, context.Canceled }}
	code := RunWithin(context.Background(), h, Post, env, 20*time.Millisecond)
	var m map[string]any
	if code != 0 || json.Unmarshal(stdout.Bytes(), &m) != nil || m["decision"] != "block" ||
		!strings.Contains(m["reason"].(string), "could not be checked within 20ms") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
