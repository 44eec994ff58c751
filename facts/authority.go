package facts

// ToolCommand is one simple command of a shell call (or the command line a
// CLI run was given): its words after wrappers (env, sudo, nohup…) are
// stripped. Dynamic[i] says Argv[i] is not literal text (a variable, a
// command substitution), so its value is unknown before the call runs.
type ToolCommand struct {
	Argv    []string `json:"argv"`
	Dynamic []bool   `json:"dynamic"`
}

// ProtectedTarget is a path a request would write that lies in tausik's own
// guard: its configuration tiers, its local state (decision log, keys) or a
// host's hook wiring. Reason names which, in words a person understands.
type ProtectedTarget struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}
