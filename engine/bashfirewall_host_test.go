package engine_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/hosts"
)

// hostToolDoc is the facts document of a Claude Bash call running text in
// fakeRoot, normalised by the real host adapter (internal/hosts), so the
// firewall's table holds for what the hook hands the gates.
func hostToolDoc(t *testing.T, text string) *facts.Document {
	t.Helper()
	payload, err := json.Marshal(map[string]any{"session_id": "s", "cwd": fakeRoot, "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": text}})
	if err != nil {
		t.Fatal(err)
	}
	call, err := hosts.Normalise("claude", payload, hosts.Env{Getenv: func(string) string { return "/home/u" }, WD: fakeRoot})
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	targets := []string{}
	for _, w := range call.Writes {
		if rel, err := filepath.Rel(fakeRoot, w); err == nil && filepath.IsLocal(rel) {
			w = filepath.ToSlash(rel)
		} else if w == fakeRoot {
			w = "."
		}
		targets = append(targets, w)
	}
	b, err := json.Marshal(map[string]any{"schema": "tausik-facts/v1", "tool": map[string]any{
		"status": "ok", "host": call.Host, "event": call.Event, "name": call.Tool, "kind": call.Kind,
		"command": call.Command, "commands": nonNilShell(call.Shell), "targets": targets,
		"unknown_writes": []any{}, "writes": []any{},
	}})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := facts.Parse(b)
	if err != nil {
		t.Fatalf("facts: %v", err)
	}
	return doc
}

func nonNilShell(s []facts.ToolShellCommand) []facts.ToolShellCommand {
	if s == nil {
		return []facts.ToolShellCommand{}
	}
	return s
}
