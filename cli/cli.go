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
	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/cli/internal/logcmd"
	"github.com/tausik/tausik/cli/internal/policycmd"
)

// Run executes tausik with args and returns the process exit code
// (the README's exit codes: 0 passed, 1 blocked, 2 usage, 3 policy/config/store error,
// 4 policy tests failed).
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	g := &cmdbase.Globals{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv, Args: args}
	root := newRootCmd(g)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	code := cmdbase.ExitCode(err)
	if err != nil && !cmdbase.IsSilent(err) {
		fmt.Fprintf(stderr, "tausik: %v\n", err)
	}
	return code
}

func newRootCmd(g *cmdbase.Globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "tausik",
		Short: "Code-quality gates as declarative policies",
		Long: "tausik evaluates code-quality gates, written as Rego or CEL policies, against facts\n" +
			"gathered from a repository, and records every decision in a hash-chained log.",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.PersistentFlags().StringVar(&g.Root, "root", "", "project root (default: the nearest directory above the current one with tausik/ or .git)")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cmdbase.UsageErr(err) })
	root.AddCommand(policycmd.New(g), newFactsCmd(g), newVersionCmd(g), newMCPCmd(g), newHookCmd(g),
		newTaskCmd(g), newSessionCmd(g), newVerifyCmd(g), newKeyCmd(g), newReceiptCmd(g), logcmd.New(g), newInitCmd(g),
		newSpecCmd(g), newAdaptCmd(g), newConfigCmd(g), newBaselineCmd(g), newPushOKCmd(g))
	return root
}
