package facts

// The workflow namespaces ("task", "session", "verify") are filled by the
// runners in runners/work from the project's store. They are observations:
// what the store holds and what the receipt check found. Budgets, time
// limits and freshness are the policies' call.

// Task describes one task as the workflow gates see it. Times are RFC 3339
// UTC; StartedAt is "" for a proposed task, which does not exist yet.
type Task struct {
	Slug string `json:"slug"`
	Goal string `json:"goal"`
	// ScopePaths keeps the store's difference between null (no scope
	// declared) and [] (declared empty: the task may write nothing).
	ScopePaths []string `json:"scope_paths"`
	Tier       string   `json:"tier"`
	Complexity string   `json:"complexity"`
	Delegated  bool     `json:"delegated"`
	// CallBudget is null when the task declares no budget.
	CallBudget *int64   `json:"call_budget"`
	Specs      []string `json:"specs"`
	Adapts     []string `json:"adapts"`
	Files      []string `json:"files"`
	// Status is "proposed" (a task-start request: the task is not created
	// yet), "active", "done" or "abandoned".
	Status    string `json:"status"`
	StartedAt string `json:"started_at"`
	DoneAt    string `json:"done_at"`
}

// TaskFacts is the "task" namespace: the request's task and every active
// task, so a gate can combine their scopes and budgets.
type TaskFacts struct {
	// Slug is the task the request names, "" when none.
	Slug string `json:"slug"`
	// Found is true when the request names a task and it exists or is
	// proposed; Task is then set.
	Found bool  `json:"found"`
	Task  *Task `json:"task"`
	// Active lists every active task, oldest first. The request's own task
	// is in it when it is active; a proposed task never is.
	Active []Task `json:"active"`
	// Backstop is what changed in the work tree since each active scoped
	// task started, at the triggers that judge it (post-write, task-done,
	// commit); null at every other trigger.
	Backstop *Backstop `json:"backstop"`
}

// Backstop compares the work tree with the state recorded when each active
// task with a declared scope started.
type Backstop struct {
	// Changes lists every path created, modified, deleted or renamed since
	// a scoped task started, sorted by path, each once (against the oldest
	// task that sees it). Git-ignored paths and .tausik/ are never in it.
	Changes []TreeChange `json:"changes"`
	// Unrecorded names the active scoped tasks with no recorded state (a
	// start the store lost, a task from before the backstop): what they
	// changed cannot be told.
	Unrecorded []string `json:"unrecorded"`
	// Error says why the tree could not be compared, "" when it was.
	Error string `json:"error"`
}

// TreeChange is one path that changed since a task started.
type TreeChange struct {
	Path string `json:"path"`
	// Change is "created", "modified", "deleted" or "renamed".
	Change string `json:"change"`
	// Peer is a rename's other side ("" otherwise): both sides are listed.
	Peer string `json:"peer"`
	// Task is the task whose recorded start the path is compared with.
	Task string `json:"task"`
}

// SessionFacts is the "session" namespace: the open session, else the most
// recent one, and the latest handoff. Open false with ID "" means no session
// was ever started; both are facts, not errors.
type SessionFacts struct {
	Open      bool   `json:"open"`
	ID        string `json:"id"`
	StartedAt string `json:"started_at"`
	EndedAt   string `json:"ended_at"`
	// ToolCalls counts the calls recorded in the session; never reset.
	ToolCalls int64 `json:"tool_calls"`
	// ActiveMinutes is the session's active time in whole minutes: the gaps
	// between its start, recorded calls and end, each gap capped at ten.
	ActiveMinutes int64    `json:"active_minutes"`
	Handoff       *Handoff `json:"handoff"`
}

// Handoff is the latest note for whoever works next.
type Handoff struct {
	Text      string `json:"text"`
	WrittenAt string `json:"written_at"`
	// SessionID is the session open when it was written, "" if none was.
	SessionID string `json:"session_id"`
}

// VerifyFacts is the "verify" namespace: what the request's task declares,
// what those files and the enabled verify gates look like now, and the
// task's latest verify run with its receipt checked.
type VerifyFacts struct {
	// Task is the request's task, "" when none (then nothing else is filled).
	Task string `json:"task"`
	// DeclaredFiles are the task's declared files, repo-relative, sorted.
	DeclaredFiles []string `json:"declared_files"`
	// FilesHash is the current files hash of DeclaredFiles (see
	// receipt.FilesHash), "" when none are declared.
	FilesHash string `json:"files_hash"`
	// VerifyGates names the enabled gates that listen to the verify trigger,
	// sorted, and GateSignature is their current signature.
	VerifyGates   []string `json:"verify_gates"`
	GateSignature string   `json:"gate_signature"`
	// Sensitive lists the declared files that look security-sensitive by the
	// runner's built-in patterns, with the pattern that matched.
	Sensitive []SensitiveFile `json:"sensitive"`
	// Run is the latest verify run recorded for the task, null when none.
	Run *VerifyRun `json:"run"`
}

// SensitiveFile is a declared file matched by a sensitive-path pattern.
type SensitiveFile struct {
	Path    string `json:"path"`
	Pattern string `json:"pattern"`
}

// VerifyRun is one recorded `tausik verify` run.
type VerifyRun struct {
	ID            int64           `json:"id"`
	RanAt         string          `json:"ran_at"`
	Passed        bool            `json:"passed"`
	ExitCode      int64           `json:"exit_code"`
	Gates         []VerifyRunGate `json:"gates"`
	FilesHash     string          `json:"files_hash"`
	GateSignature string          `json:"gate_signature"`
	GitSHA        string          `json:"git_sha"`
	Receipt       ReceiptCheck    `json:"receipt"`
}

// VerifyRunGate is one gate's result within a run.
type VerifyRunGate struct {
	Name     string `json:"name"`
	Passed   bool   `json:"passed"`
	Severity string `json:"severity"`
}

// ReceiptCheck is what the runner found when it checked a run's receipt
// against the project's public key and the run's own row. Valid is the
// conjunction of the other booleans; Reason names the first thing that
// failed ("" when Valid).
type ReceiptCheck struct {
	Present              bool   `json:"present"`
	SignatureValid       bool   `json:"signature_valid"`
	TaskMatches          bool   `json:"task_matches"`
	TimeMatches          bool   `json:"time_matches"`
	FilesHashMatches     bool   `json:"files_hash_matches"`
	GateSignatureMatches bool   `json:"gate_signature_matches"`
	PassedMatches        bool   `json:"passed_matches"`
	GatesMatch           bool   `json:"gates_match"`
	Valid                bool   `json:"valid"`
	KeyFingerprint       string `json:"key_fingerprint"`
	ProjectKey           string `json:"project_key"`
	Reason               string `json:"reason"`
}
