// Package hosts holds the agent-host adapters: one small file per host reads
// that host's hook payload into one normalised toolcall.Call, and renders
// the verdict in that host's protocol (exit code, JSON shape, where the reason
// goes). No adapter holds a rule: every verdict comes from
// engine.JudgeToolCall. Shell commands and patches become the paths they
// would write through the shellwrites subpackage.
package hosts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/toolcall"
)

// ErrPayload marks a hook payload that cannot be trusted: empty, not a JSON
// object, no tool, or a writing or shell tool without what it writes or runs.
// A pre-tool-use hook refuses the call on it (fail closed).
var ErrPayload = errors.New("malformed hook payload")

// Phase is when a hook runs: before a tool call (it may refuse it) or after
// (it counts it).
type Phase int

// The two phases, as the CLI names them.
const (
	Pre  Phase = iota // pre-tool-use
	Post              // post-tool-use
)

// Host is one agent host's hook protocol.
type Host struct {
	// Name is the CLI's name for the host (`tausik hook NAME …`).
	Name string
	// Title is the host's product name, for help text.
	Title string
	// parse reads a payload into a call; on ErrPayload it still returns the
	// tool name when it found one, so a post hook can count the call.
	parse func(b []byte) (call, error)
	// answer renders verdicts in the host's protocol.
	answer answer
	// workspaceCWD: the host runs hooks in the workspace and its payload may
	// carry no cwd; relative paths are read from the hook's own directory.
	workspaceCWD bool
}

// registry lists every host; aliases name the same adapter.
var registry = map[string]*Host{}

var aliases = map[string]string{"kilo": "opencode"}

func register(h *Host) *Host {
	registry[h.Name] = h
	return h
}

// Lookup returns the host named name (an alias such as kilo included).
func Lookup(name string) (*Host, bool) {
	if a, ok := aliases[name]; ok {
		name = a
	}
	h, ok := registry[name]
	return h, ok
}

// Names lists the hosts and aliases, sorted.
func Names() []string {
	var out []string
	for n := range registry {
		out = append(out, n)
	}
	for a := range aliases {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// Env is what a hook process is given.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads the environment (HOME for ~ in shell paths).
	Getenv func(string) string
	// WD is the hook process's working directory.
	WD string
	// Open opens the engine for the project the call comes from.
	Open func(ctx context.Context, at Where) (*engine.Engine, error)
	// AfterWrite, when set, begins finding, after a write tool, the warnings
	// on the written files (absolute paths) for the model's context, while
	// the tree is checked: the function it returns (nil: nothing to find)
	// gives them once the check passed. ctx ends with the hook call.
	AfterWrite func(ctx context.Context, e *engine.Engine, session string, files []string) func(context.Context) (string, error)
}

// maxPayload bounds what a hook reads from stdin.
const maxPayload = 8 << 20

// Run answers one hook event and returns the process's exit code. Before a
// tool call it judges the call and allows or refuses it in the host's
// protocol; any error (unreadable or malformed payload, an engine that does
// not open, a decision that cannot be logged) refuses it. After a tool call
// it counts the call into the open session and, after a write or shell call
// while a task with a declared scope is active, compares the work tree with
// the tasks' recorded starts (engine.CheckToolCall): a change outside every
// scope is reported in the host's protocol for the model to revert. An
// error counting is reported with exit 1, which hosts show without
// blocking; an error comparing is reported like a refusal (fail closed).
func Run(ctx context.Context, h *Host, phase Phase, env Env) int {
	b, err := io.ReadAll(io.LimitReader(env.Stdin, maxPayload+1))
	if err == nil && len(b) > maxPayload {
		err = fmt.Errorf("payload over %d bytes", maxPayload)
	}
	if phase == Post {
		return post(ctx, h, b, err, env)
	}
	deny := func(format string, args ...any) int {
		return h.answer.deny(fmt.Sprintf(format, args...), env)
	}
	if err != nil {
		return deny("cannot read the hook payload: %v", err)
	}
	c, err := h.parse(b)
	if err != nil {
		return deny("%v", err)
	}
	tc, err := normalise(h, c, env)
	if err != nil {
		return deny("%v", err)
	}
	if !tc.Judged() {
		return h.answer.allow(Pre, env)
	}
	e, err := env.Open(ctx, where(h, c, tc.CWD, env))
	if err != nil {
		return deny("%v", err)
	}
	defer e.Close()
	d, err := e.JudgeToolCall(ctx, tc)
	if err != nil {
		return deny("%v", err)
	}
	if !d.Blocked {
		return h.answer.allow(Pre, env)
	}
	if d.Ask {
		return h.answer.ask(reason(tc, d), env)
	}
	return deny("%s", reason(authorityOnly(tc, d)))
}

// authorityOnly narrows a refusal by agent_authority to that gate alone and
// withholds the call's command: the refusal says a person must make the
// change, and must not hand the agent the command (its own, or another
// gate's remedy) that would make it.
func authorityOnly(tc toolcall.Call, d *engine.Decision) (toolcall.Call, *engine.Decision) {
	for _, v := range d.Gates {
		if v.Name == engine.GateAgentAuthority && v.Blocks {
			only := *d
			only.Gates = []engine.Verdict{v}
			if tc.Command != "" {
				tc.Command = "(command withheld)"
			}
			return tc, &only
		}
	}
	return tc, d
}

func post(ctx context.Context, h *Host, b []byte, readErr error, env Env) int {
	fail := func(err error) int {
		fmt.Fprintf(env.Stderr, "tausik: post-tool-use: %v\n", err)
		return 1
	}
	if readErr != nil {
		return fail(readErr)
	}
	c, err := h.parse(b)
	if c.tool == "" {
		return fail(err)
	}
	cwd := c.cwd
	if cwd == "" && h.workspaceCWD {
		cwd = env.WD
	}
	e, err := env.Open(ctx, where(h, c, cwd, env))
	if err != nil {
		return fail(err)
	}
	defer e.Close()
	if err := e.CountToolCall(ctx, c.tool); err != nil {
		return fail(err)
	}
	// A malformed write or shell payload still ran something: the tree is
	// checked all the same.
	tc := toolcall.Call{Host: h.Name, Tool: c.tool, Kind: c.kind, Command: postCommand(c), CWD: cwd, Session: c.session}
	// The findings' listing runs beside the check, and ends with the call.
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	findings := startAfterWrite(fctx, h, e, c, cwd, env)
	d, err := e.CheckToolCall(ctx, tc)
	if err != nil {
		return h.answer.postBlock(fmt.Sprintf("the work tree could not be checked: %v", err), env)
	}
	if d != nil && d.Blocked {
		return h.answer.postBlock(reason(tc, d), env)
	}
	if findings != nil && afterWrite(ctx, h, findings, env) {
		return 0
	}
	return h.answer.allow(Post, env)
}

// postCommand is what a decision records of the call that ran.
func postCommand(c call) string {
	switch {
	case c.command != "":
		return c.command
	case len(c.argv) > 0:
		return strings.Join(c.argv, " ")
	case c.patch != "":
		return c.patch
	}
	return strings.Join(c.paths, " ")
}

// Normalise reads payload, a pre-tool-use hook payload of host name, into
// the normalised call the engine judges, with paths resolved against env's
// working directory where the payload names no cwd: a fixture's tool call
// (internal/policytest) goes through the adapter a hook would.
func Normalise(name string, payload []byte, env Env) (toolcall.Call, error) {
	h, ok := Lookup(name)
	if !ok {
		return toolcall.Call{}, fmt.Errorf("%w: unknown host %q (known: %s)", ErrPayload, name, strings.Join(Names(), ", "))
	}
	c, err := h.parse(payload)
	if err != nil {
		return toolcall.Call{}, err
	}
	if c.cwd == "" {
		c.cwd = env.WD
	}
	tc, err := normalise(h, c, env)
	tc.Event = toolcall.EventPreToolUse
	return tc, err
}
