package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/hosts/hostinit"
	"github.com/tausik/tausik/internal/render"
)

type initOptions struct {
	hosts   []string
	dryRun  bool
	check   bool
	out     string
	command string
}

func newInitCmd(g *cmdbase.Globals) *cobra.Command {
	opts := &initOptions{}
	cmd := &cobra.Command{
		Use:   "init [--host H,...] [--dry-run | --check] [--out DIR] [--command CMD]",
		Short: "Write each agent host's hooks and MCP registration for tausik (idempotent)",
		Long: "Writes the wiring of each agent host — the pre-write and post hooks that call\n" +
			"`tausik hook <host> …`, the OpenCode/Kilo plugin, the `tausik mcp` registration — and a\n" +
			"starter tausik/gates.json when there is none. Existing files are merged into: only\n" +
			"tausik's entries change, other keys and comments stay, and a second run changes no byte.\n" +
			"With no --host, the hosts whose config is present are wired.\n\n" +
			"Hosts: " + strings.Join(hostinit.HostNames(), ", ") + ".\n\n" +
			"--dry-run prints the diff and writes nothing; --check exits 1 naming each file that\n" +
			"differs from what init would write now. A file init cannot read is refused (exit 3).",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := g.RefuseAgent(cmd.Context()); err != nil {
				return err
			}
			return runInit(g, opts)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.hosts, "host", nil, "hosts to wire, comma-separated (default: the hosts detected)")
	f.BoolVar(&opts.dryRun, "dry-run", false, "print the diff of what would change; write nothing")
	f.BoolVar(&opts.check, "check", false, "exit 1 naming each file that differs from what init would write")
	f.StringVar(&opts.out, "out", "", "write into DIR instead of the project root (as a generator)")
	f.StringVar(&opts.command, "command", "tausik", "the command hooks and MCP registrations run tausik with")
	return cmd
}

func runInit(g *cmdbase.Globals, opts *initOptions) error {
	if opts.dryRun && opts.check {
		return cmdbase.UsageErr(errors.New("--dry-run and --check exclude each other"))
	}
	command := strings.Fields(opts.command)
	if len(command) == 0 {
		return cmdbase.UsageErr(errors.New("--command is empty"))
	}
	root, err := g.ProjectRoot()
	if err != nil {
		return err
	}
	p, err := hostinit.Build(hostinit.Options{Root: root, Out: opts.out, Hosts: opts.hosts, Command: command, HookCommand: app.HookClient(command)})
	switch {
	case errors.Is(err, hostinit.ErrNoHost):
		return cmdbase.UsageErr(fmt.Errorf("no agent host found in %s (looked for %s); name one: tausik init --host claude (known: %s)",
			root, app.HostMarkers(), strings.Join(hostinit.HostNames(), ", ")))
	case errors.Is(err, hostinit.ErrUnknownHost):
		return cmdbase.UsageErr(err)
	case err != nil:
		return err
	}
	if p.Detected {
		fmt.Fprintf(g.Stderr, "tausik init: detected %s (name hosts with --host)\n", strings.Join(p.Hosts, ", "))
	}
	changed := p.Changed()
	switch {
	case opts.dryRun:
		_, err := g.Stdout.Write(p.Diff())
		return err
	case opts.check:
		if !render.InitCheck(g.Stdout, p) {
			return cmdbase.ErrCheckFailed
		}
		return nil
	}
	if err := p.Apply(); err != nil {
		return err
	}
	return render.InitWritten(g.Stdout, p, changed)
}
