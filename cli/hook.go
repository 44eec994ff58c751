package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/hosts"
	"github.com/tausik/tausik/internal/project"
)

// hookEvents are the events every host's hook command answers.
var hookEvents = []struct {
	name  string
	phase hosts.Phase
	short string
}{
	{"pre-tool-use", hosts.Pre, "Judge what a tool call is about to write (editor tools, shell commands, patches); refuse it in the host's protocol"},
	{"post-tool-use", hosts.Post, "Count a finished tool call into the open session"},
}

func newHookCmd(g *cmdbase.Globals) *cobra.Command {
	names := hosts.Names()
	cmd := &cobra.Command{
		Use:   "hook HOST EVENT",
		Short: "Answer an agent host's hook (Claude Code, Cursor, Codex, …) with the gates' verdict",
		Long: "Reads the host's hook JSON on stdin. pre-tool-use judges the paths a write, shell or patch\n" +
			"tool call would write with the pre-write gates (scope_write) and answers in the host's own\n" +
			"protocol; a malformed payload for a writing or shell tool, or any error, refuses the call\n" +
			"(fail closed). post-tool-use counts the call into the open session and never refuses.\n" +
			"stop, session-start and prompt-submit (where the host has them) judge the agent's stop on the\n" +
			"active task's task-done gates and hand the model its task, scope and what would block now.\n" +
			"The project is --root or $TAUSIK_ROOT, else the host's project directory ($CLAUDE_PROJECT_DIR,\n" +
			"Cursor's workspace_roots…), else the outermost directory above the call's cwd holding a store\n" +
			"(.tausik/tausik.db); a nested .git or tausik/ does not move it. A hook never creates a store: a\n" +
			"call from a project without one, or from outside the project, is refused.\n" +
			"Hosts: " + strings.Join(names, ", ") + " (docs/hosts.md has each host's wiring).",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return cmdbase.UsageErr(fmt.Errorf("name a host: %s", strings.Join(names, ", ")))
		},
	}
	for _, name := range names {
		h, _ := hosts.Lookup(name)
		hc := &cobra.Command{
			Use:   name + " EVENT",
			Short: h.Title + " hooks: " + strings.Join(append([]string{"pre-tool-use", "post-tool-use"}, hosts.TurnEvents(h)...), ", "),
			Args:  cmdbase.UsageArgs(cobra.NoArgs),
			RunE: func(cmd *cobra.Command, _ []string) error {
				return cmdbase.UsageErr(fmt.Errorf("name an event: %s", strings.Join(append([]string{"pre-tool-use", "post-tool-use"}, hosts.TurnEvents(h)...), ", ")))
			},
		}
		for _, ev := range hookEvents {
			hc.AddCommand(&cobra.Command{
				Use:   ev.name,
				Short: ev.short,
				Args:  cmdbase.UsageArgs(cobra.NoArgs),
				RunE: func(cmd *cobra.Command, _ []string) error {
					return runHook(cmd.Context(), g, h, ev.phase)
				},
			})
		}
		addTurnEvents(hc, g, h)
		cmd.AddCommand(hc)
	}
	cmd.AddCommand(newHookServeCmd(g))
	return cmd
}

// hookEvent finds a host and the phase of one of its events.
func hookEvent(host, event string) (*hosts.Host, hosts.Phase, bool) {
	h, ok := hosts.Lookup(host)
	if !ok {
		return nil, 0, false
	}
	for _, ev := range hookEvents {
		if ev.name == event {
			return h, ev.phase, true
		}
	}
	return nil, 0, false
}

// runHook answers one hook event; the exit code is the host's protocol.
func runHook(ctx context.Context, g *cmdbase.Globals, h *hosts.Host, phase hosts.Phase) error {
	wd, _ := os.Getwd()
	env := hookEnv(h, g.Stdin, g.Stdout, g.Stderr, g.Getenv, wd)
	env.Open = func(ctx context.Context, at hosts.Where) (*engine.Engine, error) {
		return hookEngine(ctx, g, at, h.Name)
	}
	code := hosts.RunWithin(ctx, h, phase, env, hosts.Deadline)
	if code != 0 {
		return cmdbase.HostExit{Code: code}
	}
	return nil
}

// hookEnv is what a hook call of host h runs with, but for where its engine
// comes from: one place, so the in-process hook and the resident evaluator
// answer alike.
func hookEnv(h *hosts.Host, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, wd string) hosts.Env {
	return hosts.Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: getenv, WD: wd, AfterWrite: writeFindings(h)}
}

// hookEngine opens the engine for the project the call comes from, as
// project.HookRoot finds it: --root or $TAUSIK_ROOT, else the host's project
// directory, else the outermost store above the call's cwd (the hook's own
// directory when the payload has none). The store must already exist: a
// hook never creates one.
func hookEngine(ctx context.Context, g *cmdbase.Globals, at hosts.Where, host string) (*engine.Engine, error) {
	wd, err := os.Getwd()
	if err != nil && at.CWD == "" {
		return nil, err
	}
	root, err := hookRoot(g.Root, at, wd, g.Getenv)
	if err != nil {
		return nil, err
	}
	return project.Open(ctx, project.Setup{Root: root, Getenv: g.Getenv, Requester: "hook:" + host, ExistingStore: true}, engine.WithLazyTeam())
}

// hookRoot is the project a hook call comes from: flag (--root), else
// $TAUSIK_ROOT, else project.HookRoot from the host's project directory and
// the call's cwd (wd, the hook process's, when the payload has none).
func hookRoot(flag string, at hosts.Where, wd string, getenv func(string) string) (string, error) {
	root := flag
	if root == "" {
		root = getenv(project.EnvRoot)
	}
	cwd := at.CWD
	if cwd == "" {
		cwd = wd
	}
	return project.HookRoot(project.HookPlace{Root: root, Project: at.Project, CWD: cwd}, getenv)
}
