package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/tausik/tausik/cli/internal/cmdbase"
	"github.com/tausik/tausik/internal/app"
	"github.com/tausik/tausik/internal/project"

	"github.com/spf13/cobra"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/internal/app/live"
	"github.com/tausik/tausik/internal/gcpace"
	"github.com/tausik/tausik/internal/hookd"
	"github.com/tausik/tausik/internal/hookwire"
	"github.com/tausik/tausik/internal/hosts"
)

// newHookServeCmd is the resident evaluator the thin client (tausik-hook)
// starts on demand; it is not for people, so it is hidden.
func newHookServeCmd(g *cmdbase.Globals) *cobra.Command {
	var idle time.Duration
	cmd := &cobra.Command{
		Use:    "serve",
		Short:  "Answer hook calls forwarded by tausik-hook from warm policies, until idle",
		Hidden: true,
		Args:   cmdbase.UsageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if g.Root == "" || !filepath.IsAbs(g.Root) {
				return cmdbase.UsageErr(errors.New("hook serve needs --root, an absolute project directory"))
			}
			err := serveHooks(cmd.Context(), g, filepath.Clean(g.Root), idle)
			if errors.Is(err, hookd.ErrRunning) {
				return nil
			}
			return err
		},
	}
	cmd.Flags().DurationVar(&idle, "idle", 10*time.Minute, "exit after this long without a call")
	return cmd
}

// serveHooks runs the evaluator for root: one store, and per host one
// live.Source (the engine for the configuration on disk now, as the MCP
// server keeps it).
func serveHooks(ctx context.Context, g *cmdbase.Globals, root string, idle time.Duration) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	id, err := hookwire.Stat(self)
	if err != nil {
		return err
	}
	st, err := project.OpenExistingStore(ctx, root, g.Getenv)
	if err != nil {
		return err
	}
	defer st.Close()
	gcpace.Resident()
	ev := &evaluator{g: g, root: root, store: st, sources: map[string]*live.Source{}}
	replaced := func() bool {
		now, err := hookwire.Stat(self)
		return err != nil || !now.Same(id)
	}
	return hookd.Serve(ctx, hookd.Config{Root: root, Idle: idle, Self: id, Env: os.Environ(), Handle: ev.handle, Replaced: replaced, Log: g.Stderr})
}

// errHandBack makes hosts.Run stop at Open: the call goes back to the
// client, which judges it in process.
var errHandBack = errors.New("handed back to the client")

type evaluator struct {
	g     *cmdbase.Globals
	root  string
	store *app.Store

	mu      sync.Mutex
	sources map[string]*live.Source
}

// handle judges one forwarded call exactly as `tausik hook HOST EVENT`
// would in the client's process (its stdin, environment and working
// directory), or hands it back when it belongs to another project or the
// configuration on disk does not load (the in-process path then reports it
// in its own words).
func (ev *evaluator) handle(ctx context.Context, req *hookwire.Request) (hookwire.Answer, bool) {
	h, phase, ok := hookEvent(req.Host, req.Event)
	if !ok {
		return hookwire.Answer{Fallback: fmt.Sprintf("no hook %s %s", req.Host, req.Event)}, false
	}
	getenv := environ(req.Env)
	var out, errw bytes.Buffer
	var mu sync.Mutex // Open may still run after RunWithin gave up on it
	back, stale := "", false
	handBack := func(why string, isStale bool) (*engine.Engine, error) {
		mu.Lock()
		defer mu.Unlock()
		back, stale = why, isStale
		return nil, errHandBack
	}
	env := hookEnv(h, bytes.NewReader(req.Payload), &out, &errw, getenv, req.WD)
	env.Open = func(ctx context.Context, at hosts.Where) (*engine.Engine, error) {
		root, err := hookRoot("", at, req.WD, getenv)
		if err != nil {
			return nil, err
		}
		if root != ev.root {
			return handBack("the call comes from another project", false)
		}
		e, notices, err := ev.engine(ctx, h.Name)
		switch {
		case len(notices) > 0:
			return handBack("the tausik binary was replaced", true)
		case err != nil:
			return handBack(err.Error(), false)
		}
		return e, nil
	}
	code := hosts.RunWithin(ctx, h, phase, env, hosts.Deadline)
	mu.Lock()
	defer mu.Unlock()
	if back != "" {
		return hookwire.Answer{Fallback: back}, stale
	}
	return hookwire.Answer{Code: code, Stdout: out.Bytes(), Stderr: errw.Bytes()}, false
}

// engine is host's engine for the configuration on disk now.
func (ev *evaluator) engine(ctx context.Context, host string) (*engine.Engine, []string, error) {
	ev.mu.Lock()
	src, ok := ev.sources[host]
	if !ok {
		setup := project.Setup{Root: ev.root, Getenv: ev.g.Getenv, Requester: "hook:" + host, Store: ev.store}
		var err error
		if src, err = live.Open(ctx, setup, live.WithEngineOptions(engine.WithLazyTeam())); err != nil {
			ev.mu.Unlock()
			return nil, nil, err
		}
		ev.sources[host] = src
	}
	ev.mu.Unlock()
	return src.Engine(ctx)
}

// environ is a getenv over an os.Environ list.
func environ(env []string) func(string) string {
	m := make(map[string]string, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return func(k string) string { return m[k] }
}
