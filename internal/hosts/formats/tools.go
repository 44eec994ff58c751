package formats

import (
	"maps"
	"slices"
	"sort"
	"strings"
)

// Table maps one host's spellings onto canonical ones: tool names as its
// hook matchers write them, and event names as its hook files key them.
// Canonical tools are Claude Code's names (Write, Edit, Bash, Read…);
// canonical events are Claude Code's (PreToolUse, PostToolUse…).
type Table struct {
	// Tools maps a host tool name to its canonical name ("write_file" →
	// "Write"). A name not in the table is its own canonical name.
	Tools map[string]string `json:"tools"`
	// Events maps a host event name to a canonical event, optionally with
	// the one tool the event is about ("pre_write_code" → "PreToolUse/Write",
	// for hosts that have an event per tool instead of a matcher). An event
	// not in the table keeps its name with the first letter upper-cased
	// ("preToolUse" → "PreToolUse").
	Events map[string]string `json:"events"`
}

// qwenTools are the tool names Qwen Code and Gemini CLI share.
var qwenTools = map[string]string{
	"write_file": "Write", "edit": "Edit", "replace": "Edit", "run_shell_command": "Bash",
	"read_file": "Read", "read_many_files": "Read", "glob": "Glob", "search_file_content": "Grep",
	"grep_search": "Grep", "list_directory": "LS", "web_fetch": "WebFetch", "google_web_search": "WebSearch",
	"web_search": "WebSearch", "todo_write": "TodoWrite", "save_memory": "Memory", "task": "Task",
}

// builtinTables are the tables of the hosts tausik knows.
var builtinTables = map[string]Table{
	"claude":  {},
	"factory": {Tools: map[string]string{"Create": "Write", "Execute": "Bash", "ApplyPatch": "Edit"}},
	"qwen":    {Tools: qwenTools},
	"gemini": {Tools: qwenTools, Events: map[string]string{
		"BeforeTool": "PreToolUse", "AfterTool": "PostToolUse", "BeforeAgent": "UserPromptSubmit", "AfterAgent": "Stop",
	}},
	"codex": {Tools: map[string]string{"apply_patch": "Edit", "shell": "Bash", "exec_command": "Bash"}},
	"cursor": {Tools: map[string]string{"StrReplace": "Edit", "Delete": "Delete", "Shell": "Bash", "Write": "Write", "Read": "Read"},
		Events: map[string]string{"beforeShellExecution": "PreToolUse/Bash", "afterFileEdit": "PostToolUse/Edit",
			"beforeReadFile": "PreToolUse/Read", "beforeMCPExecution": "PreToolUse/mcp"}},
	"copilot": {Tools: map[string]string{"create": "Write", "edit": "Edit", "str_replace": "Edit", "bash": "Bash", "view": "Read"}},
	"windsurf": {Events: map[string]string{
		"pre_write_code": "PreToolUse/Write", "post_write_code": "PostToolUse/Write",
		"pre_run_command": "PreToolUse/Bash", "post_run_command": "PostToolUse/Bash",
		"pre_read_code": "PreToolUse/Read", "post_read_code": "PostToolUse/Read",
		"pre_mcp_tool_use": "PreToolUse/mcp", "post_mcp_tool_use": "PostToolUse/mcp",
		"pre_user_prompt": "UserPromptSubmit",
	}},
	"cline": {Tools: map[string]string{"write_to_file": "Write", "replace_in_file": "Edit", "execute_command": "Bash", "read_file": "Read"}},
}

// BuiltinTable returns the table tausik ships for host (empty for a host it
// does not know), as a copy the caller may extend.
func BuiltinTable(host string) Table {
	t := builtinTables[host]
	return Table{Tools: maps.Clone(t.Tools), Events: maps.Clone(t.Events)}
}

// Extend returns t with the entries of more added, more's winning.
func (t Table) Extend(more Table) Table {
	out := Table{Tools: maps.Clone(t.Tools), Events: maps.Clone(t.Events)}
	if out.Tools == nil {
		out.Tools = map[string]string{}
	}
	if out.Events == nil {
		out.Events = map[string]string{}
	}
	maps.Copy(out.Tools, more.Tools)
	maps.Copy(out.Events, more.Events)
	return out
}

// Event returns the canonical event for a host event name and, for an
// event about one tool, that tool's host-independent name.
func (t Table) Event(name string) (event, tool string) {
	if c, ok := t.Events[name]; ok {
		event, tool, _ = strings.Cut(c, "/")
		return event, tool
	}
	if name == "" {
		return name, ""
	}
	return strings.ToUpper(name[:1]) + name[1:], ""
}

// Matcher returns the canonical form of a host matcher: its "|"-separated
// tool names mapped onto canonical names, sorted, without duplicates; ""
// when it matches every tool ("", "*", or a part that is either).
func (t Table) Matcher(m string) string {
	var parts []string
	for _, p := range strings.Split(m, "|") {
		p = strings.TrimSpace(p)
		if p == "" || p == "*" || p == ".*" {
			return ""
		}
		if c, ok := t.Tools[p]; ok {
			p = c
		}
		parts = append(parts, p)
	}
	sort.Strings(parts)
	return strings.Join(slices.Compact(parts), "|")
}

// Unite returns the union of canonical matchers, as one id on several
// entries is matched: "" (every tool) on any side is every tool.
func Unite(matchers []string) string {
	var parts []string
	for _, m := range matchers {
		if m == "" {
			return ""
		}
		parts = append(parts, strings.Split(m, "|")...)
	}
	sort.Strings(parts)
	return strings.Join(slices.Compact(parts), "|")
}
