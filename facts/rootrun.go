package facts

// RootRun is one run of a stack gate's tool, in one root of its stack: a
// monorepo's TypeScript package, Go module or Helm chart. The Command
// holding it gathers every root's diagnostics and test cases, with
// repo-relative paths; a RootRun says how its own run went.
type RootRun struct {
	// Dir is the root, repo-relative ("." for the project root); the tool
	// ran with it as its working directory.
	Dir string `json:"dir"`
	// Variant names the tool's command the root uses ("jest"), "" for the
	// only one.
	Variant string `json:"variant,omitempty"`
	// Argv is the command as run (files relative to Dir).
	Argv []string `json:"argv"`
	// Files are the repo-relative files given to the tool.
	Files []string `json:"files"`
	// Ran and ExitCode are as in Command. Reason, when the tool did not run
	// to an exit code or its output could not be read, is the runner's
	// reason ("not_found", "timeout", "parse_error"…), with Detail.
	Ran        bool   `json:"ran"`
	ExitCode   int    `json:"exit_code"`
	Reason     string `json:"reason,omitempty"`
	Detail     string `json:"detail,omitempty"`
	DurationMS int64  `json:"duration_ms"`
	// Cached is true when the run is one kept from an earlier evaluation
	// with the same key (the tool, its command line and environment, the
	// project's files and the inputs around the root) and the tool did not
	// run now; DurationMS is then the kept run's, and Stdout and Stderr are
	// empty (the findings are kept, not the output).
	Cached bool `json:"cached,omitempty"`
	// Findings counts the Command's diagnostics and failed or erroring
	// test cases that came from this root.
	Findings int `json:"findings"`
	// Cases counts the test cases this root's run reported (a test gate's).
	Cases int `json:"cases"`
	// Stdout and Stderr are the streams, cut as Command's are.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}
