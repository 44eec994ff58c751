package command

import "github.com/tausik/tausik/runners/command/runcache"

// TriggerVerify is the trigger at which no kept run is reused.
const TriggerVerify = "verify"

// cachedStacks are the stack gates whose runs are kept (runcache), by
// name, with how to ask each tool its version.
var cachedStacks = map[string]runcache.Spec{
	"tsc":           {},
	"eslint":        {},
	"golangci_lint": {Also: [][]string{{"go", "version"}}},
	"cargo_check":   {},
	"clippy":        {Version: []string{"cargo", "clippy", "--version"}},
	"helm_lint":     {Version: []string{"helm", "version"}},
	"shellcheck":    {},
	"yamllint":      {},
	"hadolint":      {},
	"phpcs":         {},
	"phpstan":       {},
	"javac":         {Version: []string{"javac", "-version"}},
	"ktlint":        {},
}

// WithCache keeps the runs of a spec with a Cache in st (runcache), under
// the running tausik's identity: a root whose run key is unchanged since a
// kept run is not run again, and its facts are that run's, marked cached.
// A nil st keeps nothing.
func WithCache(st runcache.Store, identity string) Option {
	return func(o *options) { o.rc = runcache.New(st, identity) }
}
