// Package engine is tausik's one implementation of a gate evaluation: it loads
// gate bundles (built-in and team), resolves configuration across trust tiers,
// asks only the runners the selected gates need, evaluates each gate's Rego or
// CEL policy, and builds the decision. The CLI and the MCP server both call it
// and hold no rules of their own.
package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/guard"
	"github.com/tausik/tausik/engine/verdictcache"

	"github.com/tausik/tausik/engine/commandgate"

	"github.com/tausik/tausik/engine/config"

	"github.com/oklog/ulid/v2"

	"github.com/tausik/tausik/engine/gate"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/internal/boundedread"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/store"
	"github.com/tausik/tausik/store/receipt"
)

// Deps are what an Engine is built from.
type Deps struct {
	// Root is the project root: team bundles and the project config are read
	// below it and scoped files are relative to it.
	Root string
	// Builtin holds the built-in bundles, one directory per gate.
	Builtin fs.FS
	// Runners gathers facts; a gate may only read namespaces it provides.
	Runners *runners.Registry
	// Config names the configuration file of each trust tier.
	Config config.Paths
	// Log records every decision; nil records nothing (fixture runs).
	Log DecisionLog
	// BuiltinTests are the names of the Go test functions in tausik's own
	// sources, which excused.yaml files of built-in gates may name.
	BuiltinTests []string
	// FixtureRunners builds the runners for a tree/ fixture copied to root,
	// with whatever private state (an in-memory store) they need, and a
	// function that releases it; seed, when not nil, fills that store first
	// (a fixture's store: section). Nil reuses Runners, and a seeded fixture
	// then fails: there is no private store to fill.
	FixtureRunners func(ctx context.Context, root string, seed FixtureSeed) (*runners.Registry, func(), error)
	// Store holds tasks, sessions and verify runs for the workflow flows, and
	// is closed by Close; nil for an engine without workflow state.
	Store *store.Store
	// Requester is recorded with every decision whose request names none.
	Requester string
	// Home is the user's home directory, whose .tausik agent_authority
	// guards; empty guards none there.
	Home string
}

// Option tunes an Engine.
type Option func(*Engine)

// WithClock sets the clock decisions are stamped with.
func WithClock(now func() time.Time) Option { return func(e *Engine) { e.now = now } }

// WithLazyBuiltins defers compiling each built-in policy to its first
// evaluation (see LazyPolicy): for processes that evaluate a few gates and
// exit. Team policies are always compiled at load.
func WithLazyBuiltins() Option { return func(e *Engine) { e.lazyBuiltins = true } }

// WithLazyTeam defers compiling each team policy to its first evaluation
// too: for a hook, which evaluates only the gates listening to its trigger,
// so a team gate with a broken policy that listens only to commit does not
// refuse every write. A broken policy of a gate the hook does evaluate is a
// policy error there (COULD_NOT_RUN, which blocks); every other command
// still refuses to start on it (ErrBundle, with file and line).
func WithLazyTeam() Option { return func(e *Engine) { e.lazyTeam = true } }

// Engine evaluates gates. What it evaluates is fixed at New (it keeps only
// caches of what it read since); it is safe for concurrent use.
type Engine struct {
	root     string
	gates    []*gate.Gate
	byName   map[string]*gate.Gate
	eff      map[string]*config.Effective
	warnings []string
	runners  *runners.Registry
	log      DecisionLog
	now      func() time.Time

	lazyBuiltins bool
	lazyTeam     bool

	store          *store.Store
	requester      string
	builtinTests   []string
	fixtureRunners func(ctx context.Context, root string, seed FixtureSeed) (*runners.Registry, func(), error)

	// cmds are the command gates: the built-in specs (command.Defaults()),
	// a runner registered for each whose gate is loaded, with the gate's
	// effective exclusions, and the ones the config tiers define.
	cmds *commandgate.Set

	// verifyGates and gateSignature are the verify gate set and its
	// signature (see VerifyGates), fixed once the configuration is resolved.
	verifyGates   []receipt.VerifyGate
	gateSignature string

	// verdicts reuses policy results across evaluations; nil without a store.
	verdicts *verdictcache.Cache
	// logged holds the decisions reuse has read back from the log.
	logged loggedDecisions

	// limits bound each gate's evaluation, by limits class (engine/config/limitsconf.go, package policy).
	limits map[string]policy.Limits

	// configDigest names the configuration files this engine was built
	// from (see configDigest); every decision records it.
	configDigest string
	// guard is what agent_authority keeps from an agent (see package guard).
	guard *guard.Guard
	// tiers is what the configuration tiers set, recorded in each decision.
	tiers []config.TierSetting
	// config is what the tiers' files said, for the commands that show it.
	config config.View
	// programs names the tiers' files and the interpreter in force; every
	// decision records it (see Programs).
	programs *Programs
	// sharedStore is a store the engine was lent (Setup.Store): Close
	// leaves it open for its owner.
	sharedStore bool
}

// New loads and prepares every gate and resolves the configuration. It fails
// with ErrBundle or ErrConfig (as *Diagnostics listing every problem found)
// rather than run with part of the gates.
func New(ctx context.Context, deps Deps, opts ...Option) (*Engine, error) {
	root, err := filepath.Abs(deps.Root)
	if err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	e := newEngine(root, deps, opts)
	if err := e.loadGates(ctx, deps.Builtin); err != nil {
		return nil, err
	}
	tiers, err := config.LoadTiers(root, deps.Config)
	if err != nil {
		return nil, err
	}
	if err := e.resolve(ctx, tiers); err != nil {
		return nil, err
	}
	e.record(deps, tiers)
	return e, nil
}

// newEngine is an engine over root with deps and opts applied, before any
// gate is loaded.
func newEngine(root string, deps Deps, opts []Option) *Engine {
	e := &Engine{root: root, runners: deps.Runners, log: deps.Log, now: time.Now, byName: map[string]*gate.Gate{},
		builtinTests: deps.BuiltinTests, fixtureRunners: deps.FixtureRunners, store: deps.Store, requester: deps.Requester,
		cmds: commandgate.NewSet(command.Defaults())}
	for _, o := range opts {
		o(e)
	}
	if deps.Store != nil {
		e.verdicts = verdictcache.New(deps.Store)
	}
	if e.runners == nil {
		e.runners = runners.NewRegistry()
	}
	if e.fixtureRunners == nil {
		reg := e.runners
		e.fixtureRunners = func(_ context.Context, _ string, seed FixtureSeed) (*runners.Registry, func(), error) {
			if seed != nil {
				return nil, nil, errors.New("this engine has no fixture store to seed")
			}
			return reg, func() {}, nil
		}
	}
	return e
}

// loadGates loads the built-in bundles and the project's team bundles, each
// name once, in evaluation order.
func (e *Engine) loadGates(ctx context.Context, builtin fs.FS) error {
	known := func(ns string) bool {
		_, ok := e.runners.Get(ns)
		return ok || ns == NamespaceRequest || e.cmds.Is(ns)
	}
	d := &diag.Diagnostics{Kind: diag.ErrBundle}
	gates := gate.LoadBundles(ctx, builtin, "policies", gate.SourceBuiltin, known, e.lazyBuiltins, d)
	teamDir := filepath.Join(e.root, filepath.FromSlash(gate.TeamDir))
	if info, err := os.Stat(teamDir); err == nil && info.IsDir() {
		// Every file of a team bundle is read inside the root, regular and
		// capped (boundedread), fixtures included.
		team, _ := fs.Sub(boundedread.FS(e.root, boundedread.MaxBundle), gate.TeamDir) // TeamDir is a valid path
		gates = append(gates, gate.LoadBundles(ctx, team, gate.TeamDir, gate.TeamDir, known, e.lazyTeam, d)...)
	}
	for _, g := range gates {
		if prev := e.byName[g.Name]; prev != nil {
			d.Add(g.Dir, 0, "gate %q is already defined by %s", g.Name, prev.Dir)
			continue
		}
		e.byName[g.Name] = g
	}
	if err := d.Err(); err != nil {
		return err
	}
	gate.SortGates(gates)
	e.gates = gates
	return nil
}

// resolve applies the tiers to the loaded gates: command gates, effective
// settings, limits, and the commands, MCP surface and hosts they register,
// refusing what would weaken a gate.
func (e *Engine) resolve(ctx context.Context, tiers []*config.File) error {
	if err := e.addCommandGates(ctx, tiers); err != nil {
		return err
	}
	var err error
	if e.eff, e.warnings, err = config.Resolve(e.gates, tiers, e.cmds.ToolUse(ctx, e.runners, gatherSafely, e.root)); err != nil {
		return err
	}
	limits, refused := config.ResolveLimits(tiers)
	e.limits, e.warnings = limits, append(e.warnings, refused...)
	if err := e.refuseLoopholes(ctx); err != nil {
		return err
	}
	cd := &diag.Diagnostics{Kind: diag.ErrBundle}
	if config.CheckCELCosts(e.gates, e.limits, cd); cd.Err() != nil {
		return cd
	}
	if err := e.registerCommands(tiers); err != nil {
		return err
	}
	if err := e.registerMCPSurface(tiers); err != nil {
		return err
	}
	return e.registerHosts(tiers)
}

// record fixes what every decision records of the configuration (its
// digest, tiers, programs, guarded paths, verify gate set).
func (e *Engine) record(deps Deps, tiers []*config.File) {
	e.configDigest = config.Digest(tiers)
	e.tiers = config.Settings(e.gates, e.eff, tiers)
	e.config = config.NewView(tiers, e.gates, e.eff)
	e.guard = guard.New(e.root, deps.Home, deps.Config)
	e.programs = e.programsRecord(deps.Config)
	e.verifyGates = e.verifyGateSet()
	e.gateSignature = receipt.GateSignature(e.verifyGates)
}

// Close releases the store, unless it was lent (Setup.Store), which its
// owner closes. The engine must not be used afterwards.
func (e *Engine) Close() error {
	if e.store == nil || e.sharedStore {
		return nil
	}
	return e.store.Close()
}

// Store returns the engine's store, nil when it has none.
func (e *Engine) Store() *store.Store { return e.store }

// Root returns the project root the engine judges.
func (e *Engine) Root() string { return e.root }

// Requester is recorded with every decision and task change whose request
// names none.
func (e *Engine) Requester() string { return e.requester }

// GateSignature is the signature of the verify gate set (see VerifyGates)
// that a receipt certifies.
func (e *Engine) GateSignature() string { return e.gateSignature }

// Gates returns every loaded gate in evaluation order.
func (e *Engine) Gates() []*gate.Gate { return slices.Clone(e.gates) }

// Gate returns the gate called name.
func (e *Engine) Gate(name string) (*gate.Gate, bool) {
	g, ok := e.byName[name]
	return g, ok
}

// Effective returns a gate's configuration after every tier was applied.
func (e *Engine) Effective(name string) (*config.Effective, bool) {
	eff, ok := e.eff[name]
	return eff, ok
}

// ConfigWarnings returns the weakenings the project tier asked for and was
// refused, and the command gates it switched off because their tool is unused.
func (e *Engine) ConfigWarnings() []string { return slices.Clone(e.warnings) }

// newID returns a ULID for a decision made at t.
func newID(t time.Time) string {
	return ulid.MustNew(ulid.Timestamp(t), ulid.DefaultEntropy()).String()
}
