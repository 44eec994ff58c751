// Command tausik evaluates code-quality gates written as Rego or CEL policies.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/tausik/tausik/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := cli.Run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
