package cli

import (
	"context"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/project"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/internal/app/live"
	"github.com/tausik/tausik/internal/buildinfo"
	"github.com/tausik/tausik/internal/gcpace"
	"github.com/tausik/tausik/mcp"
)

func newMCPCmd(g *cmdbase.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the gates to an AI coding agent over MCP (stdio)",
		Long: "Runs an MCP server on stdin/stdout. Configure your agent host to start\n" +
			"`tausik mcp` in the project; every evaluation is recorded in the decision log\n" +
			"with requester mcp:<client name>. A changed configuration file or team policy is\n" +
			"loaded before the next call (one that does not load is a tool error naming file:line);\n" +
			"a replaced tausik binary is reported in every result until the server is restarted.",
		Args: cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCP(cmd.Context(), g)
		},
	}
}

func runMCP(ctx context.Context, g *cmdbase.Globals) error {
	// A server lives as long as its host: it goes back to Go's default
	// collector pace from the one main sets for short runs.
	gcpace.Server()
	root, err := g.ProjectRoot()
	if err != nil {
		return err
	}
	src, err := live.Open(ctx, project.Setup{Root: root, Getenv: g.Getenv, Requester: "mcp"})
	if err != nil {
		return err
	}
	defer src.Close()
	return mcp.NewWith(src, buildinfo.Read().Version).Serve(ctx, g.Stdin, g.Stdout)
}
