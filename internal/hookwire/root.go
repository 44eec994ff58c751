package hookwire

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// ProjectEnv lists, per host, the environment variables in which the host
// hands its hook commands the project directory, each its own (Gemini CLI
// and Qwen Code also set Claude's, as an alias). Cursor and Cline send their
// workspace roots in the payload. Codex, Copilot, Windsurf and
// OpenCode/Kilo document none: their root is found from the call's cwd.
var ProjectEnv = map[string][]string{
	"claude":  {"CLAUDE_PROJECT_DIR"},
	"gemini":  {"GEMINI_PROJECT_DIR"},
	"qwen":    {"QWEN_PROJECT_DIR"},
	"factory": {"FACTORY_PROJECT_DIR"},
	"cursor":  {"CURSOR_PROJECT_DIR"},
}

// GuessRoot is where the client looks for an evaluator: $TAUSIK_ROOT, else
// the host's project directory (its variable, or the payload's first
// workspace root), else the outermost directory holding a store at or
// above the payload's cwd, else above wd. It is only a guess, to find a
// socket: the evaluator works out the call's project from the payload as
// the in-process path does, and hands back any call from another project.
func GuessRoot(host string, getenv func(string) string, payload []byte, wd string) string {
	if r := getenv("TAUSIK_ROOT"); r != "" {
		return r
	}
	for _, k := range ProjectEnv[host] {
		if v := getenv(k); v != "" && filepath.IsAbs(v) {
			return filepath.Clean(v)
		}
	}
	var p struct {
		CWD   string   `json:"cwd"`
		Roots []string `json:"workspace_roots"`
		Cline []string `json:"workspaceRoots"`
	}
	_ = json.Unmarshal(payload, &p)
	for _, r := range append(p.Roots, p.Cline...) {
		if filepath.IsAbs(r) {
			return filepath.Clean(r)
		}
	}
	if r := outermostStore(p.CWD); r != "" {
		return r
	}
	return outermostStore(wd)
}

// outermostStore is the outermost directory at or above dir holding a
// store, "" when none does or dir is not absolute.
func outermostStore(dir string) string {
	found := ""
	for d := filepath.Clean(dir); filepath.IsAbs(d); {
		if info, err := os.Stat(filepath.Join(d, ".tausik", "tausik.db")); err == nil && info.Mode().IsRegular() {
			found = d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return found
}
