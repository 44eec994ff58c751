package hosts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/hosts/shellwrites"
)

// call is a tool call as an adapter read it, before paths are resolved and
// commands parsed.
type call struct {
	tool    string
	kind    string
	paths   []string // written paths, as the host gave them
	command string   // shell command text
	argv    []string // shell command as argv (Codex)
	patch   string   // apply_patch text
	cwd     string
	project string // the host's project directory, when the payload names one
	// dir is the directory the host runs a shell command in when the call
	// names one (Gemini's and Qwen's directory, Codex's workdir): absolute,
	// or relative to cwd.
	dir     string
	session string
	// input is the tool's input object as the host sent it: a write's
	// content or edits, an MCP tool's arguments.
	input    map[string]any
	mcp      *facts.ToolMCP
	url      string
	subagent *facts.ToolSubagent
}

// tool describes one host tool: its kind and the input fields that hold what
// it writes or runs. The first field present wins, so a host's old and new
// spellings (path, file_path) both work.
type tool struct {
	kind    string
	paths   []string
	command []string
	patch   []string
	// optional: the command may be absent or empty (a poll of a session,
	// a completion without a demo command); then there is nothing to judge.
	optional bool
}

// Shorthands for tool tables.
func writes(fields ...string) tool  { return tool{kind: toolcall.KindWrite, paths: fields} }
func patches(fields ...string) tool { return tool{kind: toolcall.KindWrite, patch: fields} }
func runs(fields ...string) tool    { return tool{kind: toolcall.KindShell, command: fields} }

// runsIfGiven is a tool whose input may hold a command to run: text typed
// into a shell session an earlier call started, or an optional command.
func runsIfGiven(fields ...string) tool {
	return tool{kind: toolcall.KindShell, command: fields, optional: true}
}

var reads = tool{kind: toolcall.KindRead}

// shellDirFields are the tool-input fields in which a host names the
// directory a shell command runs in.
var shellDirFields = []string{"directory", "workdir"}

// object decodes a payload that must be one JSON object.
func object(b []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%w: empty input (expected the host's hook JSON on stdin)", ErrPayload)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPayload, err)
	}
	if m == nil {
		return nil, fmt.Errorf("%w: null instead of an object", ErrPayload)
	}
	return m, nil
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func obj(m map[string]any, key string) map[string]any {
	o, _ := m[key].(map[string]any)
	return o
}

// firstString is the first of keys holding a string in m.
func firstString(m map[string]any, keys []string) (string, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s, true
		}
	}
	return "", false
}

// fromInput fills c from the tool's input object according to t. A writing
// or shell tool whose input lacks what it writes or runs is ErrPayload.
func fromInput(c call, t tool, in map[string]any, where string) (call, error) {
	c.kind, c.input = t.kind, in
	if t.kind != toolcall.KindWrite && t.kind != toolcall.KindShell {
		return c, nil
	}
	if in == nil && !t.optional {
		return c, fmt.Errorf("%w: %s without a %s object", ErrPayload, c.tool, where)
	}
	if t.kind == toolcall.KindShell {
		for _, k := range shellDirFields {
			switch v := in[k].(type) {
			case nil:
			case string:
				c.dir = v
			default:
				return c, fmt.Errorf("%w: %s.%s is not a string", ErrPayload, where, k)
			}
		}
	}
	if p, ok := firstString(in, t.paths); ok {
		c.paths = append(c.paths, p)
		// Claude's MultiEdit may name further files in its edits.
		if edits, ok := in["edits"].([]any); ok {
			for _, e := range edits {
				if m, ok := e.(map[string]any); ok {
					if p, ok := firstString(m, t.paths); ok {
						c.paths = append(c.paths, p)
					}
				}
			}
		}
		return c, nil
	}
	if p, ok := firstString(in, t.patch); ok {
		c.patch = p
		return c, nil
	}
	for _, k := range t.command {
		switch v := in[k].(type) {
		case string:
			if v != "" {
				c.command = v
				return c, nil
			}
		case []any:
			for _, a := range v {
				s, ok := a.(string)
				if !ok {
					return c, fmt.Errorf("%w: %s.%s holds a non-string argument", ErrPayload, where, k)
				}
				c.argv = append(c.argv, s)
			}
			if len(c.argv) > 0 {
				return c, nil
			}
		}
	}
	if t.optional && commandAbsent(in, t.command) {
		c.kind = toolcall.KindOther
		return c, nil
	}
	fields := append(append(append([]string{}, t.paths...), t.patch...), t.command...)
	return c, fmt.Errorf("%w: %s without %s.%s", ErrPayload, c.tool, where, strings.Join(fields, " or "))
}

// commandAbsent reports whether none of keys holds anything: each is
// missing, null, "" or an empty list. Only then may a tool whose command is
// optional pass as one that runs nothing; a command of another type is a
// malformed payload, never a pass.
func commandAbsent(in map[string]any, keys []string) bool {
	for _, k := range keys {
		switch v := in[k].(type) {
		case nil:
		case string:
			if v != "" {
				return false
			}
		case []any:
			if len(v) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// normalise resolves c's paths against its cwd and parses its command or
// patch into the paths it would write: the toolcall.Call every host yields.
func normalise(h *Host, c call, env Env) (toolcall.Call, error) {
	tc := toolcall.Call{Host: h.Name, Tool: c.tool, Kind: c.kind, CWD: c.cwd, Session: c.session, Command: c.command,
		MCP: c.mcp, URL: c.url, Subagent: c.subagent}
	if tc.CWD == "" && h.workspaceCWD {
		tc.CWD = env.WD
	}
	if tc.CWD != "" && !filepath.IsAbs(tc.CWD) {
		return tc, fmt.Errorf("%w: cwd %q is not absolute", ErrPayload, tc.CWD)
	}
	if c.dir != "" {
		// The command runs there, so its relative paths are read from there.
		switch {
		case filepath.IsAbs(c.dir):
			tc.CWD = filepath.Clean(c.dir)
		case tc.CWD == "":
			return tc, fmt.Errorf("%w: relative directory %q and no cwd", ErrPayload, c.dir)
		default:
			tc.CWD = filepath.Join(tc.CWD, c.dir)
		}
	}
	var targets []shellwrites.Write
	for _, p := range c.paths {
		targets = append(targets, shellwrites.Write{Path: p})
	}
	if len(c.argv) > 0 && filepath.Base(c.argv[0]) == "apply_patch" && len(c.argv) > 1 {
		c.patch, c.argv = c.argv[1], nil // Codex's shell form of apply_patch
	}
	var r shellwrites.Result
	opts := shellwrites.Options{Dir: tc.CWD, ReadFile: shellwrites.ReadRegularFile, GitAlias: gitAlias, CDPath: env.Getenv != nil && env.Getenv("CDPATH") != ""}
	switch {
	case c.patch != "":
		var err error
		if r, err = shellwrites.Patch(c.patch); err != nil {
			return tc, fmt.Errorf("%w: %s: %v", ErrPayload, c.tool, err)
		}
		tc.Command = c.patch
	case len(c.argv) > 0:
		r = shellwrites.ArgvIn(c.argv, opts)
		tc.Command = strings.Join(c.argv, " ")
	case c.command != "":
		r = shellwrites.ShellIn(c.command, opts)
	}
	targets = append(targets, r.Writes...)
	for _, u := range r.Unknown {
		tc.Unknown = append(tc.Unknown, facts.UnknownWrite{Text: u.Text, Reason: u.Reason, Runs: u.Runs})
	}
	for _, c := range r.Commands {
		tc.Commands = append(tc.Commands, facts.ToolCommand{Argv: c.Argv, Dynamic: c.Dynamic})
		tc.Shell = append(tc.Shell, shellCommand(c, tc.CWD, env))
	}
	removed := map[string]bool{}
	for _, t := range targets {
		p, err := resolve(t, tc.CWD, env)
		if err != nil {
			return tc, err
		}
		tc.Writes = append(tc.Writes, p)
		if _, seen := removed[p]; !t.Remove || !seen {
			removed[p] = t.Remove // a path also written otherwise is not only removed
		}
	}
	linkWrites(&tc, removed)
	c.cwd = tc.CWD
	tc.Texts = afterTexts(c, tc.Writes[:min(len(c.paths), len(tc.Writes))])
	return tc, nil
}

// shellCommand is c as the tool namespace shows it: a dynamic word empty,
// its directory absolute (read from cwd, ~ from HOME), "" when unknown.
func shellCommand(c shellwrites.Command, cwd string, env Env) facts.ToolShellCommand {
	out := facts.ToolShellCommand{Argv: make([]string, len(c.Argv)), Dynamic: c.Dynamic,
		Redirects: []facts.ToolRedirect{}, Heredocs: []string{}}
	if !c.DirUnknown && (cwd != "" || filepath.IsAbs(c.Dir) || strings.HasPrefix(c.Dir, "~")) {
		if d, err := resolve(shellwrites.Write{Path: c.Dir}, cwd, env); err == nil {
			out.Dir = filepath.Clean(d)
		}
	}
	for i, a := range c.Argv {
		if !c.Dynamic[i] {
			out.Argv[i] = a
		}
	}
	for _, r := range c.Redirects {
		out.Redirects = append(out.Redirects, facts.ToolRedirect{Op: r.Op, Target: r.Target})
	}
	out.Heredocs = append(out.Heredocs, c.Heredocs...)
	return out
}

// resolve makes t absolute: ~ is $HOME, a relative path is read from cwd, a
// destination that is an existing directory receives t.Into inside it, and
// a write of a whole work tree is one of its top directory.
func resolve(t shellwrites.Write, cwd string, env Env) (string, error) {
	p := t.Path
	if p == "~" || strings.HasPrefix(p, "~/") {
		home := ""
		if env.Getenv != nil {
			home = env.Getenv("HOME")
		}
		if home == "" {
			return "", fmt.Errorf("%w: %s names the home directory and HOME is not set", ErrPayload, p)
		}
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	if !filepath.IsAbs(p) {
		if cwd == "" {
			return "", fmt.Errorf("%w: relative path %q and no cwd", ErrPayload, p)
		}
		p = filepath.Join(cwd, p)
	}
	if t.Into != "" {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			p = filepath.Join(p, t.Into)
		}
	}
	if t.WorkTree {
		p = workTreeTop(filepath.Clean(p))
	}
	return p, nil
}

// workTreeTop is the top of the git work tree holding dir: the nearest
// directory at or above it with a .git entry (a directory, or a worktree's
// or submodule's file). Without one, git has no tree there to rewrite, and
// dir itself is what is written.
func workTreeTop(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
