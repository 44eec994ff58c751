package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/tausik/tausik/store"
)

// ToolUse is what an agent host says it is about to do (or did), reduced to
// what the gates need: which tool, which files it writes, from where.
type ToolUse struct {
	Host      string   // "claude"
	Event     string   // "PreToolUse", "PostToolUse"
	Tool      string   // "Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "Read", …
	Writes    bool     // the tool writes the files in Files
	Files     []string // absolute, or relative to CWD
	CWD       string
	SessionID string
}

// ErrHookPayload marks a hook payload that cannot be trusted: empty, not
// JSON, or a writing tool without the path it writes. A pre-write hook
// blocks on it (fail closed).
var ErrHookPayload = errors.New("malformed hook payload")

// claudeWriters are Claude Code's tools that write files, with the input
// field naming the file.
var claudeWriters = map[string]string{
	"Write":        "file_path",
	"Edit":         "file_path",
	"MultiEdit":    "file_path",
	"NotebookEdit": "notebook_path",
}

// ParseClaudeToolUse reads a Claude Code PreToolUse/PostToolUse hook payload
// ({session_id, cwd, hook_event_name, tool_name, tool_input}). A tool that
// does not write is returned with Writes=false and no files, whatever its
// input holds; a writing tool must name its file.
func ParseClaudeToolUse(b []byte) (ToolUse, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return ToolUse{}, fmt.Errorf("%w: empty input (expected Claude Code's hook JSON on stdin)", ErrHookPayload)
	}
	var p struct {
		SessionID string          `json:"session_id"`
		CWD       string          `json:"cwd"`
		Event     string          `json:"hook_event_name"`
		Tool      *string         `json:"tool_name"`
		Input     json.RawMessage `json:"tool_input"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return ToolUse{}, fmt.Errorf("%w: %v", ErrHookPayload, err)
	}
	if p.Tool == nil || *p.Tool == "" {
		return ToolUse{}, fmt.Errorf("%w: no tool_name", ErrHookPayload)
	}
	u := ToolUse{Host: "claude", Event: p.Event, Tool: *p.Tool, CWD: p.CWD, SessionID: p.SessionID}
	field, writes := claudeWriters[u.Tool]
	if !writes {
		return u, nil
	}
	u.Writes = true
	var in map[string]any
	if err := json.Unmarshal(p.Input, &in); err != nil || in == nil {
		return u, fmt.Errorf("%w: %s without a tool_input object", ErrHookPayload, u.Tool)
	}
	path, _ := in[field].(string)
	if path == "" {
		return u, fmt.Errorf("%w: %s without tool_input.%s", ErrHookPayload, u.Tool, field)
	}
	u.Files = []string{path}
	if edits, ok := in["edits"].([]any); ok {
		// MultiEdit edits one file; an edit naming another file is judged too.
		for _, e := range edits {
			if m, ok := e.(map[string]any); ok {
				if p, ok := m["file_path"].(string); ok && p != "" && !slices.Contains(u.Files, p) {
					u.Files = append(u.Files, p)
				}
			}
		}
	}
	if u.CWD != "" && !filepath.IsAbs(u.CWD) {
		return u, fmt.Errorf("%w: cwd %q is not absolute", ErrHookPayload, u.CWD)
	}
	for i, f := range u.Files {
		if !filepath.IsAbs(f) {
			if u.CWD == "" {
				return u, fmt.Errorf("%w: relative path %q and no cwd", ErrHookPayload, f)
			}
			u.Files[i] = filepath.Join(u.CWD, f)
		}
	}
	return u, nil
}

// CountToolCall records one tool call of an agent into the open session, the
// count session_capacity budgets against. With no open session it records
// nothing: a call outside a session is not billed to a later one.
func (e *Engine) CountToolCall(ctx context.Context, tool string) error {
	if e.store == nil {
		return fmt.Errorf("%w: no store", ErrStore)
	}
	if _, err := e.store.RecordToolCall(ctx, tool); err != nil && !errors.Is(err, store.ErrNoOpenSession) {
		return fmt.Errorf("%w: %v", ErrStore, err)
	}
	return nil
}
