package hosts

// Codex: .codex/hooks.json PreToolUse / PostToolUse, Claude's payload. Its
// apply_patch carries the patch text in tool_input.command; its shell tools
// give the command as a string or as an argv array (["bash", "-lc", "…"]),
// and ["apply_patch", PATCH] is the shell form of a patch. write_stdin types
// chars into a session exec_command started (empty chars poll it).
var _ = claudeShaped("codex", "Codex", map[string]tool{
	"apply_patch": {kind: "write", patch: []string{"command", "patch", "input"}, command: []string{"command"}},
	"shell":       runs("command"), "exec_command": runs("cmd", "command"), "local_shell": runs("command"),
	"container.exec": runs("command"), "Bash": runs("command"), "unified_exec": runs("command", "input"),
	"write_stdin": runsIfGiven("chars"), "read_file": reads, "list_dir": reads, "grep_files": reads, "view_image": reads,
})
