package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tausik/tausik/engine/guard"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/store"
)

// Kinds of tool call, as a host adapter (internal/hosts) classifies them: what
// a tool does decides whether the pre-write gates judge it.
const (
	KindWrite = "write" // edits or creates the files in Writes
	KindShell = "shell" // runs Command; Writes and Unknown are what it would write
	KindRead  = "read"  // reads only
	KindMCP   = "mcp"   // an MCP server's tool; MCP names it
	KindFetch = "fetch" // fetches URL
	KindOther = "other" // anything else (todo lists, web searches)
)

// ToolCall is one agent tool call normalised from its host's hook payload:
// every adapter produces this shape, and JudgeToolCall is the one function
// that turns it into a verdict, so no host holds a rule.
type ToolCall struct {
	Host    string // "claude", "cursor", …
	Tool    string // the host's own tool name
	Kind    string // KindWrite, KindShell, KindRead, KindOther
	Writes  []string
	Unknown []facts.UnknownWrite
	Command string // the shell command, or the patch, as the host gave it
	// Commands are the shell command's simple commands, wrappers stripped
	// and nested shells parsed: agent_authority reads them for a tausik
	// command that changes the guard.
	Commands []facts.ToolCommand
	CWD      string
	Session  string
	// Event is the hook event ("pre-tool-use"); JudgeToolCall and
	// CheckToolCall name theirs when the adapter did not.
	Event string
	// Shell are Commands as the tool namespace shows them: a dynamic word
	// empty, with each command's redirections and here-document texts.
	Shell []facts.ToolShellCommand
	// Texts are, per path the call writes (absolute), its text after the
	// call, computed by the adapter from the file on disk and the call.
	Texts []WriteText
	// MCP, URL and Subagent are what an MCP call, a fetch and a sub-agent's
	// call carry, where the host sends them.
	MCP      *facts.ToolMCP
	URL      string
	Subagent *facts.ToolSubagent
}

// WriteText is one written path's text after a tool call. Known says Text
// is that text; Err says why it cannot be (an edit that cannot apply, a
// file or text over MaxWriteText), and the gates that read it fail closed.
// Neither set: the call's shape does not show the text (a notebook edit),
// and the path is judged as it is on disk.
type WriteText struct {
	Path  string
	Text  string
	Known bool
	Added []string
	Err   string
}

// MaxWriteText bounds the text a write's after-text is computed for: a file
// on disk, or a text the call produces, over it is an Err.
const MaxWriteText = 4 << 20

// ToolRecord is what a decision records of the tool call it judged: the
// targets parsed out of a command or patch, so an auditor sees why a shell
// call was refused.
type ToolRecord struct {
	Host    string               `json:"host"`
	Tool    string               `json:"tool"`
	Kind    string               `json:"kind"`
	Command string               `json:"command,omitempty"`
	Session string               `json:"session,omitempty"`
	Targets []string             `json:"targets"`
	Unknown []facts.UnknownWrite `json:"unknown,omitempty"`
}

// maxRecordedCommand bounds the command text kept in a decision.
const maxRecordedCommand = 4096

// Judged reports whether the pre-write gates have anything to judge in c:
// every shell call (bash_firewall and secret_scan judge what a command runs
// and feeds, not only what it writes), every MCP tool call and fetch (a
// team's gate judges the server, tool and arguments, or the URL), and a
// write call that names a target or one that cannot be known. Reads and
// other tools pass unjudged.
func (c ToolCall) Judged() bool {
	if c.Kind == KindShell || c.Kind == KindMCP || c.Kind == KindFetch {
		return true
	}
	return c.Kind == KindWrite && (len(c.Writes) > 0 || len(c.Unknown) > 0)
}

// JudgeToolCall evaluates the pre-write gates for c and returns the
// decision, logged with the call's parsed targets. A call with nothing to
// judge (see Judged) returns a nil decision and no error: it passes. A
// push the decision lets through spends the push ticket it passed on
// (usePushTicket); a ticket that cannot be spent is an error.
func (e *Engine) JudgeToolCall(ctx context.Context, c ToolCall) (*Decision, error) {
	if !c.Judged() {
		return nil, nil
	}
	if c.Event == "" {
		c.Event = EventPreToolUse
	}
	d, err := e.Evaluate(ctx, Request{Trigger: TriggerPreWrite, Files: c.Writes, Tool: &c})
	if err != nil {
		return nil, err
	}
	if err := e.usePushTicket(ctx, d); err != nil {
		return nil, err
	}
	return d, nil
}

// record is c as a decision keeps it.
func (c *ToolCall) record() *ToolRecord {
	cmd := c.Command
	if len(cmd) > maxRecordedCommand {
		cmd = cmd[:maxRecordedCommand] + "…"
	}
	return &ToolRecord{Host: c.Host, Tool: c.Tool, Kind: c.Kind, Command: cmd, Session: c.Session, Targets: nonNil(c.Writes), Unknown: c.Unknown}
}

// CountToolCall records one tool call of an agent into the open session, the
// count session_capacity budgets against. With no open session it records
// nothing: a call outside a session is not billed to a later one.
func (e *Engine) CountToolCall(ctx context.Context, tool string) error {
	if e.store == nil {
		return fmt.Errorf("%w: no store", ErrStore)
	}
	if _, err := e.store.RecordToolCall(ctx, tool); err != nil && !errors.Is(err, store.ErrNoOpenSession) {
		return fmt.Errorf("%w: %v", ErrStore, err)
	}
	return nil
}

// GateAgentAuthority is the built-in gate that keeps an agent from changing
// the guard it runs under: its configuration, state, keys, hook wiring,
// task scopes.
const GateAgentAuthority = "agent_authority"

// TriggerPreWrite is the trigger of a tool call about to write.
const TriggerPreWrite = "pre-write"

// JudgeCommand judges a tausik command line (argv[0] is the program) that a
// requester asked the CLI to run, before it changes anything: the
// agent_authority gate refuses one that changes the guard when the
// requester is an agent. The decision is logged either way, so every change
// of the guard is on record with who asked.
func (e *Engine) JudgeCommand(ctx context.Context, argv []string, requester string) (*Decision, error) {
	cmd := facts.ToolCommand{Argv: slices.Clone(argv), Dynamic: make([]bool, len(argv))}
	tc := &ToolCall{Host: "cli", Tool: "tausik", Kind: KindOther, Command: strings.Join(argv, " "), Commands: []facts.ToolCommand{cmd}}
	return e.Evaluate(ctx, Request{Trigger: TriggerPreWrite, Gates: []string{GateAgentAuthority}, Requester: requester, Tool: tc})
}

// activeSlugs are the slugs of the active tasks, sorted; nil without a store
// or when it cannot be read (the task runner reports that to the gates).
func (e *Engine) activeSlugs(ctx context.Context) []string {
	if e.store == nil {
		return nil
	}
	ts, err := e.store.ActiveTasks(ctx)
	if err != nil {
		return nil
	}
	var out []string
	for _, t := range ts {
		out = append(out, t.Slug)
	}
	slices.Sort(out)
	return out
}

// protectedTargets lists the paths of req (its files and its tool call's
// targets) that hit the guard, at pre-write only (see guard.Guard.Targets).
func (e *Engine) protectedTargets(req Request) []facts.ProtectedTarget {
	if req.Trigger != TriggerPreWrite {
		return nil
	}
	paths := slices.Clone(req.Files)
	var call *guard.Call
	if req.Tool != nil {
		paths = append(paths, req.Tool.Writes...)
		call = &guard.Call{Commands: req.Tool.Commands, CWD: req.Tool.CWD, Command: req.Tool.Command, Unknown: req.Tool.Unknown}
	}
	return e.guard.Targets(paths, call)
}
