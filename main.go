// Command tausik evaluates code-quality gates written as Rego or CEL policies.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/tausik/tausik/cli"
	"github.com/tausik/tausik/internal/gcpace"
)

func main() {
	// A run is short: unless the user paces the collector, it collects only
	// once its memory reaches gcpace.Free (internal/gcpace).
	// `tausik mcp`, a server that lives as long as its host, goes back to
	// Go's default.
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		gcpace.Short()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
