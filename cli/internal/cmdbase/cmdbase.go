// Package cmdbase is what every tausik command shares: the globals (streams,
// environment, --root), opening the project's engine or store, who asked,
// the errors that carry an exit code, and the helpers that build cobra
// commands. The root command (package cli) and the per-noun command
// packages under it all build on it; it imports none of them.
package cmdbase

import (
	"io"

	"github.com/spf13/cobra"
)

// Globals are the flags and streams every command shares. Writers are
// injected, never taken from os, so commands can be tested in-process.
type Globals struct {
	// Root is --root: the project root, or "" to find it above the
	// working directory.
	Root   string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Args is the command line after the program name, as run: what a
	// command that changes the guard is judged by (JudgeGuardChange).
	Args []string
}

// NewGroupCmd is a command that only holds subcommands; bare, it prints its
// help. It is runnable so that cobra checks Args: an unknown subcommand is a
// usage error, not a help page that exits 0.
func NewGroupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  UsageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(subs...)
	return cmd
}

// UsageArgs wraps a positional-args check so its failure is a usage error.
func UsageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return UsageErr(err)
		}
		return nil
	}
}
