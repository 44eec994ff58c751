// Package toolcall is the model of an agent's tool call as the engine
// judges it: the normalised call every host adapter produces, its kinds and
// hook events, the text each written path has after it, the record a
// decision keeps (secrets masked), the lifecycle events of a turn, and the
// call as the tool facts namespace shows it.
package toolcall

import (
	"github.com/tausik/tausik/facts"
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

// Call is one agent tool call normalised from its host's hook payload:
// every adapter produces this shape, and JudgeToolCall is the one function
// that turns it into a verdict, so no host holds a rule.
type Call struct {
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

// Record is what a decision records of the tool call it judged: the
// targets parsed out of a command or patch, so an auditor sees why a shell
// call was refused.
type Record struct {
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
func (c Call) Judged() bool {
	if c.Kind == KindShell || c.Kind == KindMCP || c.Kind == KindFetch {
		return true
	}
	return c.Kind == KindWrite && (len(c.Writes) > 0 || len(c.Unknown) > 0)
}

// record is c as a decision keeps it.
func (c *Call) record() *Record {
	cmd := c.Command
	if len(cmd) > maxRecordedCommand {
		cmd = cmd[:maxRecordedCommand] + "…"
	}
	return &Record{Host: c.Host, Tool: c.Tool, Kind: c.Kind, Command: cmd, Session: c.Session, Targets: nonNil(c.Writes), Unknown: c.Unknown}
}
