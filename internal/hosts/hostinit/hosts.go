package hostinit

import (
	_ "embed"
	"encoding/json"
	"io/fs"
	"sort"
	"strings"
)

//go:embed plugin.js
var pluginJS string

// Host is one agent host init can wire: where its files go and how it is
// recognised in a repository.
type Host struct {
	Name string
	// Detect are paths (relative to the root) whose presence says the
	// project uses this host.
	Detect []string
	// files are what init writes for the host, given the command that runs
	// tausik.
	files func(cmd commands) []fileGen
	// allow are files init writes in a location memory_route guards (another
	// tool's rules), added to its params.allow in tausik/gates.json so the
	// wiring itself does not block the next commit.
	allow []string
}

// fileGen is one file of a host's wiring: its path and how its new content
// follows from the old (nil when the file does not exist).
type fileGen struct {
	rel string
	// alt names another spelling of the file (opencode.jsonc for
	// opencode.json) that is edited instead when it exists.
	alt  string
	mode fs.FileMode
	gen  func(rel string, old []byte, exists bool) ([]byte, error)
}

// Hosts lists every host init knows, in the order it reports them.
var Hosts = []Host{
	{Name: "claude", Detect: []string{".claude", ".mcp.json"}, files: func(cmd commands) []fileGen {
		return []fileGen{
			grouped(groupSpec{rel: ".claude/settings.json", host: "claude", cmd: cmd.hook,
				pre: event{"PreToolUse", "Write|Edit|MultiEdit|NotebookEdit|Bash"}, post: event{"PostToolUse", "*"},
				preGuard: ordered{{"timeout", hookTimeoutSeconds}, {"onFailure", "block"}}, postGuard: ordered{{"timeout", hookTimeoutSeconds}}}),
			mcpJSON(".mcp.json", "", false, []string{"mcpServers", "tausik"}, stdioServer(cmd.run, false), nil),
		}
	}},
	{Name: "qwen", Detect: []string{".qwen"}, files: func(cmd commands) []fileGen {
		return []fileGen{grouped(groupSpec{rel: ".qwen/settings.json", jsonc: true, host: "qwen", cmd: cmd.hook,
			pre: event{"PreToolUse", "write_file|edit|replace|run_shell_command"}, post: event{"PostToolUse", "*"}, mcp: stdioServer(cmd.run, false)})}
	}},
	{Name: "gemini", Detect: []string{".gemini"}, files: func(cmd commands) []fileGen {
		return []fileGen{grouped(groupSpec{rel: ".gemini/settings.json", jsonc: true, host: "gemini", cmd: cmd.hook, named: true,
			pre: event{"BeforeTool", "write_file|replace|run_shell_command"}, post: event{"AfterTool", "*"}, mcp: stdioServer(cmd.run, false),
			preGuard: ordered{{"timeout", hookTimeoutSeconds * 1000}}, postGuard: ordered{{"timeout", hookTimeoutSeconds * 1000}}})}
	}},
	{Name: "codex", Detect: []string{".codex"}, files: func(cmd commands) []fileGen {
		return []fileGen{
			grouped(groupSpec{rel: ".codex/hooks.json", host: "codex", cmd: cmd.hook, pre: event{"PreToolUse", "*"}, post: event{"PostToolUse", ""},
				preGuard: ordered{{"timeout", hookTimeoutSeconds}}, postGuard: ordered{{"timeout", hookTimeoutSeconds}}}),
			{rel: ".codex/config.toml", mode: 0o644, gen: func(rel string, old []byte, _ bool) ([]byte, error) {
				return mergeCodexTOML(rel, old, cmd.run)
			}},
		}
	}},
	{Name: "cursor", Detect: []string{".cursor"}, files: func(cmd commands) []fileGen {
		return []fileGen{
			flat(".cursor/hooks.json", "cursor", cmd.hook, "command", map[string]string{"preToolUse": Pre, "beforeShellExecution": Pre, "postToolUse": Post,
				"sessionStart": SessionStart, "stop": Stop}, nil, true),
			mcpJSON(".cursor/mcp.json", "", false, []string{"mcpServers", "tausik"}, stdioServer(cmd.run, false), nil),
		}
	}},
	{Name: "copilot", Detect: []string{".github/hooks", ".github/copilot-instructions.md"}, files: func(cmd commands) []fileGen {
		return []fileGen{
			flat(".github/hooks/tausik.json", "copilot", cmd.hook, "bash", map[string]string{"preToolUse": Pre, "postToolUse": Post}, nil, true),
			mcpJSON(".vscode/mcp.json", "", true, []string{"servers", "tausik"}, stdioServer(cmd.run, true), nil),
		}
	}},
	{Name: "windsurf", Detect: []string{".windsurf"}, files: func(cmd commands) []fileGen {
		return []fileGen{flat(".windsurf/hooks.json", "windsurf", cmd.hook, "command", map[string]string{
			"pre_write_code": Pre, "pre_run_command": Pre, "post_write_code": Post, "post_run_command": Post,
		}, nil, false)}
	}},
	{Name: "opencode", Detect: []string{".opencode", "opencode.json", "opencode.jsonc"}, files: func(cmd commands) []fileGen {
		return []fileGen{plugin(".opencode/plugins/tausik.js", cmd.hook),
			mcpJSON("opencode.json", "opencode.jsonc", true, []string{"mcp", "tausik"}, localServer(cmd.run), ordered{{"$schema", "https://opencode.ai/config.json"}})}
	}},
	{Name: "kilo", Detect: []string{".kilo", ".kilocode", "kilo.json", "kilo.jsonc"}, files: func(cmd commands) []fileGen {
		return []fileGen{plugin(".kilo/plugins/tausik.js", cmd.hook),
			mcpJSON("kilo.json", "kilo.jsonc", true, []string{"mcp", "tausik"}, localServer(cmd.run), ordered{{"$schema", "https://app.kilo.ai/config.json"}})}
	}},
	{Name: "factory", Detect: []string{".factory"}, files: func(cmd commands) []fileGen {
		return []fileGen{
			grouped(groupSpec{rel: ".factory/settings.json", host: "factory", cmd: cmd.hook,
				pre: event{"PreToolUse", "Create|Edit|MultiEdit|ApplyPatch|Execute"}, post: event{"PostToolUse", "*"}}),
			mcpJSON(".factory/mcp.json", "", false, []string{"mcpServers", "tausik"}, stdioServer(cmd.run, true), nil),
		}
	}},
	{Name: "cline", Detect: []string{".clinerules"}, allow: []string{".clinerules/hooks/PreToolUse", ".clinerules/hooks/PostToolUse",
		".clinerules/hooks/TaskStart", ".clinerules/hooks/UserPromptSubmit"}, files: func(cmd commands) []fileGen {
		return []fileGen{script(".clinerules/hooks/PreToolUse", "cline", cmd.hook, Pre), script(".clinerules/hooks/PostToolUse", "cline", cmd.hook, Post),
			script(".clinerules/hooks/TaskStart", "cline", cmd.hook, SessionStart), script(".clinerules/hooks/UserPromptSubmit", "cline", cmd.hook, PromptSubmit)}
	}},
}

// HostNames lists the names of Hosts.
func HostNames() []string {
	out := make([]string, len(Hosts))
	for i, h := range Hosts {
		out[i] = h.Name
	}
	return out
}

// stdioServer is an MCP registration that starts `tausik mcp` over stdio.
func stdioServer(cmd []string, typed bool) ordered {
	s := ordered{{"command", cmd[0]}, {"args", append(append([]string{}, cmd[1:]...), "mcp")}}
	if typed {
		s = append(ordered{{"type", "stdio"}}, s...)
	}
	return s
}

// localServer is OpenCode's (and Kilo's) shape of the same registration.
func localServer(cmd []string) ordered {
	return ordered{{"type", "local"}, {"command", append(append([]string{}, cmd...), "mcp")}, {"enabled", true}}
}

// hookTimeoutSeconds is the timeout init gives a host that reads one. The
// hook answers well inside it: an answer the host never hears is, at most
// hosts, a call let through.
const hookTimeoutSeconds = 30

// event is one hook event of a host and the tools its matcher names.
type event struct{ name, matcher string }

// groupSpec is a Claude-style settings file: a pre and a post hook in
// hooks.<Event> groups, and optionally the MCP server under mcpServers.
type groupSpec struct {
	rel   string
	jsonc bool
	host  string
	cmd   []string
	pre   event
	post  event
	// named gives each hook a name (Gemini shows it in its hook list).
	named bool
	mcp   ordered
	// preGuard and postGuard are the fields a host reads to fail closed:
	// its timeout, in the host's unit, and the switch that makes a hook
	// that cannot start, times out or crashes block instead of allow.
	preGuard, postGuard ordered
}

// grouped is the file s describes.
func grouped(s groupSpec) fileGen {
	name := func(ev string) string {
		if s.named {
			return "tausik-" + ev
		}
		return ""
	}
	return fileGen{rel: s.rel, mode: 0o644, gen: func(rel string, old []byte, _ bool) ([]byte, error) {
		d, err := parseJSONDoc(rel, old, s.jsonc)
		if err != nil {
			return nil, err
		}
		for _, h := range append([]hookSpec{
			{event: s.pre.name, ours: Pre, cmdKey: "command", entry: group(s.pre.matcher, hookCommand(s.cmd, s.host, Pre), name(Pre), s.preGuard)},
			{event: s.post.name, ours: Post, cmdKey: "command", entry: group(s.post.matcher, hookCommand(s.cmd, s.host, Post), name(Post), s.postGuard)},
		}, turnSpecs(s.host, s.cmd, s.postGuard, name)...) {
			if err := d.mergeGrouped(s.host, h); err != nil {
				return nil, err
			}
		}
		if s.mcp != nil {
			if err := d.setPath([]string{"mcpServers", "tausik"}, s.mcp); err != nil {
				return nil, err
			}
		}
		return d.bytes(), nil
	}}
}

// flat is a hooks file whose hooks.<event> lists flat entries; events maps
// each of the host's event names to tausik's event, extra adds fields to an
// event's entry, and versioned sets "version": 1 when the file has none.
func flat(rel, host string, cmd []string, cmdKey string, events map[string]string, extra map[string]ordered, versioned bool) fileGen {
	return fileGen{rel: rel, mode: 0o644, gen: func(rel string, old []byte, _ bool) ([]byte, error) {
		d, err := parseJSONDoc(rel, old, false)
		if err != nil {
			return nil, err
		}
		if _, ok := d.top().get("version"); versioned && !ok {
			if _, err := d.set(d.top(), "version", 1); err != nil {
				return nil, err
			}
		}
		for _, ev := range sortedEvents(events) {
			c := hookCommand(cmd, host, events[ev])
			var e ordered
			switch cmdKey {
			case "bash":
				e = ordered{{"type", "command"}, {"bash", c}, {"powershell", c}, {"timeoutSec", 30}}
			default:
				e = ordered{{"command", c}}
				if host == "windsurf" {
					e = append(e, member{"show_output", true})
				}
			}
			e = append(e, extra[ev]...)
			if err := d.mergeFlat(host, hookSpec{event: ev, ours: events[ev], cmdKey: cmdKey, entry: e}); err != nil {
				return nil, err
			}
		}
		return d.bytes(), nil
	}}
}

// sortedEvents orders a host's events: pre before post, then by name, so
// a new file reads in the order the calls happen.
func sortedEvents(events map[string]string) []string {
	var pre, post []string
	for ev, ours := range events {
		if ours == Pre {
			pre = append(pre, ev)
		} else {
			post = append(post, ev)
		}
	}
	sort.Strings(pre)
	sort.Strings(post)
	return append(pre, post...)
}

// mcpJSON is an MCP registration at path in a JSON (or JSONC) file; fresh
// adds top-level members (a $schema) to a file init creates.
func mcpJSON(rel, alt string, jsonc bool, path []string, server ordered, fresh ordered) fileGen {
	return fileGen{rel: rel, alt: alt, mode: 0o644, gen: func(rel string, old []byte, exists bool) ([]byte, error) {
		d, err := parseJSONDoc(rel, old, jsonc)
		if err != nil {
			return nil, err
		}
		if !exists {
			for _, m := range fresh {
				if _, err := d.set(d.top(), m.k, m.v); err != nil {
					return nil, err
				}
			}
		}
		if err := d.setPath(path, server); err != nil {
			return nil, err
		}
		return d.bytes(), nil
	}}
}

// setPath sets the member at path (objects created on the way) to val.
func (d *jsonDoc) setPath(path []string, val any) error {
	n := d.top()
	for _, k := range path[:len(path)-1] {
		var err error
		if n, err = d.objectAt(n, k); err != nil {
			return err
		}
	}
	_, err := d.set(n, path[len(path)-1], val)
	return err
}

// plugin is the OpenCode/Kilo plugin file, which tausik owns whole.
func plugin(rel string, cmd []string) fileGen {
	argv, _ := json.Marshal(cmd)
	body := strings.Replace(pluginJS, "__TAUSIK_ARGV__", string(argv), 1)
	return fileGen{rel: rel, mode: 0o644, gen: func(string, []byte, bool) ([]byte, error) { return []byte(body), nil }}
}

// scriptMarker is in every hook script init writes: a script without it is
// the user's, and init will not overwrite it.
const scriptMarker = "# written by tausik init"

// script is an executable hook script (Cline runs the file named after the
// hook event in .clinerules/hooks/).
func script(rel, host string, cmd []string, event string) fileGen {
	body := "#!/bin/sh\n" + scriptMarker + "; rerun it to update this file.\nexec " + hookCommand(cmd, host, event) + "\n"
	return fileGen{rel: rel, mode: 0o755, gen: func(rel string, old []byte, exists bool) ([]byte, error) {
		if exists && !strings.Contains(string(old), scriptMarker) {
			return nil, conflictErr(rel, hookCommand(cmd, host, event))
		}
		return []byte(body), nil
	}}
}
