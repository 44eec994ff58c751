package engine

import (
	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// NamespaceRequest is the namespace the engine itself fills with the request.
const NamespaceRequest = "request"

// Request asks for one evaluation.
type Request struct {
	// Trigger is the moment being judged; it selects the enabled gates that
	// listen to it.
	Trigger string
	// Files are the files in scope, absolute or relative to the root. Empty
	// means the whole project.
	Files []string
	// Gates, when set, names exactly the gates to evaluate, whether enabled
	// or listening to Trigger or not.
	Gates []string
	// Task is the slug of the task the evaluation is for, if any.
	Task string
	// Requester says who asked: "cli", "hook:<host>", "mcp:<client>".
	Requester string
	// ChangedSince, a git ref or a time, bounds "what changed" for runners
	// that look at history (git).
	ChangedSince string
	// ChangedFiles makes the files in scope the files changed since
	// ChangedSince (see git.Runner.ChangedFiles) instead of Files: deleted
	// ones included, and none changed judging nothing rather than the whole
	// project.
	ChangedFiles bool
	// Bypass names gates the requester explicitly waives; see facts.Request.
	Bypass []string
	// Proposed is the task a task-start request asks about before it exists
	// (Task must be its slug): the task facts show it as "proposed". Set by
	// StartTask, which creates the task only if nothing blocks.
	Proposed *store.Task
	// Tool is the agent tool call a pre-write hook asks about (see
	// JudgeToolCall): its targets are Files, and what it would write that
	// cannot be known reaches the policies as request.unknown_writes.
	Tool *toolcall.Call
	// Turn is the agent lifecycle event (a stop, a session start, a
	// prompt) a hook asks about, recorded with the decision.
	Turn *toolcall.Turn
	// Listing, when set, is the project's file listing taken beforehand
	// (runners.StartListing of the engine's root): the runners that need
	// the whole project's files use it instead of listing again.
	Listing *runners.Listing
}
