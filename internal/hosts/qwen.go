package hosts

// Qwen Code: .qwen/settings.json hooks PreToolUse / PostToolUse, Claude's
// payload with Qwen's tool names.
var _ = claudeShaped("qwen", "Qwen Code", map[string]tool{
	"write_file": writes("file_path", "path"), "edit": writes("file_path", "path"), "replace": writes("file_path", "path"),
	"run_shell_command": runs("command"),
	"read_file":         reads, "read_many_files": reads, "glob": reads, "grep": reads, "search_file_content": reads, "list_directory": reads,
})
