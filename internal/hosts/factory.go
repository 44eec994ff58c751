package hosts

// Factory (Droid): .factory/settings.json hooks PreToolUse / PostToolUse,
// Claude's payload with Droid's tool names.
var _ = claudeShaped("factory", "Factory Droid", map[string]tool{
	"Create": writes("file_path"), "Edit": writes("file_path"), "MultiEdit": writes("file_path"),
	"ApplyPatch": patches("patch", "input", "patchText"), "Execute": runs("command"),
	"Read": reads, "LS": reads, "Glob": reads, "Grep": reads,
})
