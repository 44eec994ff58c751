package hosts

import (
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/internal/hookwire"
)

// Where is where a hook call comes from, for Env.Open: the host's own
// project directory when it names one, and the call's working directory.
// The project is read from what the host sets (its environment, or its
// payload's workspace roots), never from the call's cwd, which the agent
// moves with `cd`.
type Where struct {
	Project string
	CWD     string
}

// projectEnv lists, per host, the environment variables in which the host
// hands its hook commands the project directory (shared with the thin hook
// client, which looks for the evaluator there too).
var projectEnv = hookwire.ProjectEnv

// where is the project and cwd of call c: the payload's workspace root,
// else the host's project variable; the cwd as normalise resolved it.
func where(h *Host, c call, cwd string, env Env) Where {
	w := Where{Project: c.project, CWD: cwd}
	if w.Project == "" && env.Getenv != nil {
		for _, k := range projectEnv[h.Name] {
			if v := env.Getenv(k); v != "" {
				w.Project = v
				break
			}
		}
	}
	return w
}

// workspaceRoot picks, of a payload's workspace roots, the one holding cwd
// (the first when none does or cwd is empty).
func workspaceRoot(roots []any, cwd string) string {
	first := ""
	for _, r := range roots {
		s, ok := r.(string)
		if !ok || s == "" {
			continue
		}
		if first == "" {
			first = s
		}
		if rel, err := filepath.Rel(s, cwd); cwd != "" && err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return s
		}
	}
	return first
}
