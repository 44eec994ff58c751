// Package cli holds tausik's cobra commands: each parses flags, calls the
// engine and renders the result. No rule lives here; if the CLI and the MCP
// server ever disagree on a verdict, the one holding logic is wrong.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// globals are the flags and streams every command shares. Writers are
// injected, never taken from os, so commands can be tested in-process.
type globals struct {
	root   string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// args is the command line after the program name, as run: what a
	// command that changes the guard is judged by (judgeGuardChange).
	args []string
}

// Run executes tausik with args and returns the process exit code
// (the README's exit codes: 0 passed, 1 blocked, 2 usage, 3 policy/config/store error,
// 4 policy tests failed).
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	g := &globals{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv, args: args}
	root := newRootCmd(g)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	code := exitCode(err)
	if err != nil && !isSilent(err) {
		fmt.Fprintf(stderr, "tausik: %v\n", err)
	}
	return code
}

func newRootCmd(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "tausik",
		Short: "Code-quality gates as declarative policies",
		Long: "tausik evaluates code-quality gates, written as Rego or CEL policies, against facts\n" +
			"gathered from a repository, and records every decision in a hash-chained log.",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.PersistentFlags().StringVar(&g.root, "root", "", "project root (default: the nearest directory above the current one with tausik/ or .git)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErr(err) })
	root.AddCommand(newPolicyCmd(g), newFactsCmd(g), newVersionCmd(g), newMCPCmd(g), newHookCmd(g),
		newTaskCmd(g), newSessionCmd(g), newVerifyCmd(g), newKeyCmd(g), newReceiptCmd(g), newLogCmd(g), newInitCmd(g),
		newSpecCmd(g), newAdaptCmd(g), newConfigCmd(g), newBaselineCmd(g), newPushOKCmd(g))
	return root
}

// newGroupCmd is a command that only holds subcommands; bare, it prints its
// help. It is runnable so that cobra checks Args: an unknown subcommand is a
// usage error, not a help page that exits 0.
func newGroupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(subs...)
	return cmd
}

// usageArgs wraps a positional-args check so its failure is a usage error.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageErr(err)
		}
		return nil
	}
}
