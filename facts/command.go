package facts

// Command is the namespace of one command gate, named after the gate ("ruff",
// "pytest", "mypy", a team's "eslint"…). It records how the tool ran, never
// whether that is good: the exit code, output and parsed findings are for the
// policy to judge.
//
// When the namespace status is not ok its reason is a short code a policy can
// map to an outcome: "no_files" (status unavailable: no file in scope matched
// the command's extensions and exclusions; nothing to judge), "not_found" (the
// executable is not installed), "timeout", "canceled", "start_failed",
// "killed" (ended by a signal) and "parse_error" (the tool ran but its machine
// output could not be read). Detail then says what happened in words.
type Command struct {
	Name string `json:"name"`
	// Argv is the command as run, after {files} expansion; {junitxml} stays
	// as written, since its temp path means nothing after the run.
	Argv []string `json:"argv"`
	// Files are the scoped files handed to the tool through {files}; empty
	// when the command does not take files.
	Files     []string `json:"files"`
	UsesFiles bool     `json:"uses_files"`
	// Ran is true when the tool started and exited on its own with a code;
	// ExitCode is -1 otherwise.
	Ran        bool   `json:"ran"`
	ExitCode   int    `json:"exit_code"`
	DurationMS int64  `json:"duration_ms"`
	Detail     string `json:"detail,omitempty"`
	// Stdout and Stderr are the captured streams, cut in the middle past the
	// runner's cap; the *Bytes fields give the full sizes.
	Stdout      string       `json:"stdout"`
	StdoutBytes int64        `json:"stdout_bytes"`
	StdoutTrunc bool         `json:"stdout_truncated"`
	Stderr      string       `json:"stderr"`
	StderrBytes int64        `json:"stderr_bytes"`
	StderrTrunc bool         `json:"stderr_truncated"`
	Parser      string       `json:"parser"`
	Diagnostics []Diagnostic `json:"diagnostics"`
	Tests       *TestReport  `json:"tests"`
	// Roots are a stack gate's runs, one per root of its stack in scope
	// (see RootRun); absent for a command that runs once at the project root.
	Roots []RootRun `json:"roots,omitempty"`
}

// Diagnostic is one finding a linter or type checker reported, located so a
// policy can name the file and line. File is project-relative when the tool
// reported a path inside the project.
type Diagnostic struct {
	File      string `json:"file"`
	Line      int64  `json:"line"`
	Column    int64  `json:"column"`
	EndLine   int64  `json:"end_line,omitempty"`
	EndColumn int64  `json:"end_column,omitempty"`
	Code      string `json:"code"`     // rule code ("F401"); "" for a syntax error or an uncoded message
	Severity  string `json:"severity"` // "error", "warning" or "note" when the tool says; else ""
	Message   string `json:"message"`
	Fixable   bool   `json:"fixable"`
	URL       string `json:"url,omitempty"`
}

// TestReport is a test run's JUnit XML report, read after the run. Totals are
// counted from the cases, so they always agree with them. pytest reports a
// collection error as one case with outcome "error".
type TestReport struct {
	Tests    int64      `json:"tests"`
	Failures int64      `json:"failures"`
	Errors   int64      `json:"errors"`
	Skipped  int64      `json:"skipped"`
	Passed   int64      `json:"passed"`
	Cases    []TestCase `json:"cases"`
}

// TestCase is one test's result. Line is 1-based (the test's definition);
// FailFile and FailLine locate where a failure or error was raised, read from
// its traceback, when the traceback names a project file.
type TestCase struct {
	Classname  string `json:"classname"`
	Name       string `json:"name"`
	File       string `json:"file"`
	Line       int64  `json:"line"`
	Outcome    string `json:"outcome"` // "passed", "failed", "error" or "skipped"
	Message    string `json:"message"`
	FailFile   string `json:"fail_file,omitempty"`
	FailLine   int64  `json:"fail_line,omitempty"`
	DurationMS int64  `json:"duration_ms"`
}
