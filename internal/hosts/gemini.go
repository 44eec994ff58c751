package hosts

// Gemini CLI: .gemini/settings.json hooks BeforeTool / AfterTool, the same
// payload as Claude's (hook_event_name "BeforeTool"), exit 2 refuses with
// the reason on stderr.
var _ = claudeShaped("gemini", "Gemini CLI", map[string]tool{
	"write_file": writes("file_path", "path"), "replace": writes("file_path", "path"),
	"run_shell_command": runs("command"),
	"read_file":         reads, "read_many_files": reads, "glob": reads, "search_file_content": reads, "list_directory": reads,
})
