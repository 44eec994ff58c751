package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
)

// Claude Code's hook protocol: exit 0 lets the tool call run; exit 2 blocks
// it and shows stderr to the model.
const (
	claudeAllow = 0
	claudeBlock = 2
)

// maxHookPayload bounds what a hook reads from stdin.
const maxHookPayload = 8 << 20

func newHookCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "hook HOST EVENT",
		Short: "Answer an agent host's hook (e.g. Claude Code's PreToolUse) with the gates' verdict",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return usageErr(fmt.Errorf("name a host: claude")) },
	}
	claude := &cobra.Command{
		Use:   "claude EVENT",
		Short: "Claude Code hooks: pre-tool-use (judge a write before it happens), post-tool-use (count the call)",
		Long: "Reads Claude Code's hook JSON on stdin.\n\n" +
			"pre-tool-use: for Write, Edit, MultiEdit and NotebookEdit, evaluates the pre-write gates for the\n" +
			"edited paths; exit 0 allows the edit, exit 2 blocks it with the reason on stderr. Tools that do\n" +
			"not write pass untouched. A malformed or empty payload, or any error, blocks (fail closed).\n\n" +
			"post-tool-use: counts the call into the open session (never blocks).",
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usageErr(fmt.Errorf("name an event: pre-tool-use, post-tool-use"))
		},
	}
	claude.AddCommand(&cobra.Command{
		Use:   "pre-tool-use",
		Short: "Judge the file a tool is about to write; exit 2 blocks it",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runClaudePreToolUse(cmd.Context(), g) },
	}, &cobra.Command{
		Use:   "post-tool-use",
		Short: "Count a finished tool call into the open session",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runClaudePostToolUse(cmd.Context(), g) },
	})
	cmd.AddCommand(claude)
	return cmd
}

// hookEngine opens the engine for the project the payload comes from.
func (g *globals) hookEngine(ctx context.Context, cwd, host string) (*engine.Engine, error) {
	root := g.root
	if root == "" {
		if cwd == "" {
			wd, err := os.Getwd()
			if err != nil {
				return nil, err
			}
			cwd = wd
		}
		root = engine.FindRoot(cwd)
	}
	return engine.Open(ctx, engine.Setup{Root: root, Getenv: g.getenv, Requester: "hook:" + host})
}

func readPayload(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxHookPayload+1))
	if err == nil && len(b) > maxHookPayload {
		err = fmt.Errorf("payload over %d bytes", maxHookPayload)
	}
	return b, err
}

func runClaudePreToolUse(ctx context.Context, g *globals) error {
	block := func(format string, args ...any) error {
		fmt.Fprintf(g.stderr, "tausik blocked this tool call: "+format+"\n", args...)
		return hostExit{claudeBlock}
	}
	b, err := readPayload(g.stdin)
	if err != nil {
		return block("cannot read the hook payload: %v", err)
	}
	use, err := engine.ParseClaudeToolUse(b)
	if err != nil {
		return block("%v", err)
	}
	if !use.Writes {
		return nil
	}
	e, err := g.hookEngine(ctx, use.CWD, use.Host)
	if err != nil {
		return block("%v", err)
	}
	defer e.Close()
	d, err := e.Evaluate(ctx, engine.Request{Trigger: "pre-write", Files: use.Files})
	if err != nil {
		return block("%v", err)
	}
	if !d.Blocked {
		return nil
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s %s\n", use.Tool, strings.Join(use.Files, ", "))
	for _, v := range d.Gates {
		if !v.Blocks {
			continue
		}
		for _, vi := range v.Violations {
			fmt.Fprintf(&msg, "- %s: %s\n", v.Name, violationLine(vi))
		}
		for _, r := range v.Reasons {
			fmt.Fprintf(&msg, "- %s could not run (%s): %s\n", v.Name, r.Code, firstLine(r.Msg))
		}
	}
	fmt.Fprintf(&msg, "(decision %s)", d.ID)
	return block("%s", msg.String())
}

func runClaudePostToolUse(ctx context.Context, g *globals) error {
	b, err := readPayload(g.stdin)
	if err != nil {
		return err
	}
	use, err := engine.ParseClaudeToolUse(b)
	if err != nil {
		return err
	}
	e, err := g.hookEngine(ctx, use.CWD, use.Host)
	if err != nil {
		return err
	}
	defer e.Close()
	return e.CountToolCall(ctx, use.Tool)
}
