// Command tausik evaluates code-quality gates written as Rego or CEL policies.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/tausik/tausik/cli"
)

// gcPercent is the collector's target unless GOGC says otherwise. A run is
// short and its heap peaks at tens of megabytes, where Go's default (a cycle
// each time the heap doubles, from 4 MB) ran a dozen cycles and ~10% of a
// warm class_surface evaluation's CPU on the stdlib tree; at 400 it runs two
// or three, for ~35 MB more at peak (docs/performance-warm.md). `tausik mcp`,
// a server that lives as long as its host, goes back to Go's default.
const gcPercent = 400

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
