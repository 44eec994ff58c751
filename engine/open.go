package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/content"
	"github.com/tausik/tausik/runners/documents"
	"github.com/tausik/tausik/runners/fs"
	"github.com/tausik/tausik/runners/git"
	"github.com/tausik/tausik/runners/golang"
	"github.com/tausik/tausik/runners/hosts"
	"github.com/tausik/tausik/runners/imports"
	"github.com/tausik/tausik/runners/mcpsurface"
	"github.com/tausik/tausik/runners/python"
	"github.com/tausik/tausik/runners/renar"
	"github.com/tausik/tausik/runners/surface"
	"github.com/tausik/tausik/runners/work"
	"github.com/tausik/tausik/store"
)

// Environment variables that locate the configuration tiers and the store.
const (
	EnvUserConfig    = "TAUSIK_USER_CONFIG"    // default ~/.tausik/config.json
	EnvManagedConfig = "TAUSIK_MANAGED_CONFIG" // unset = no managed tier
	EnvDB            = "TAUSIK_DB"             // default <root>/.tausik/tausik.db
)

// StateDir is the project's local, uncommitted state: database and keys.
const StateDir = ".tausik"

// Setup is how a front end (CLI, MCP server, hook) asks for an engine.
type Setup struct {
	// Root is the project root; see FindRoot.
	Root string
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// Requester is recorded with every decision ("cli", "mcp:<client>", "hook:<host>").
	Requester string
	// NoStore opens no store: for commands that evaluate nothing of their own
	// (list, test), so they leave the project untouched. Decisions are not
	// logged and workflow facts are unavailable.
	NoStore bool
	// Store, when set, is the store to use instead of opening one: the
	// engine borrows it and Close leaves it open. A long-lived server that
	// rebuilds its engine when the configuration changes keeps one store.
	Store *store.Store
}

// ConfigPaths returns the configuration file of each tier for s: the
// project's tausik/gates.json, $TAUSIK_USER_CONFIG (default
// ~/.tausik/config.json) and $TAUSIK_MANAGED_CONFIG.
func (s Setup) ConfigPaths() ConfigPaths {
	getenv := s.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	return ConfigPaths{Project: filepath.Join(s.Root, "tausik", "gates.json"), User: userConfigPath(getenv), Managed: getenv(EnvManagedConfig)}
}

// Open builds the engine for a project exactly as every front end runs it:
// the embedded built-in gates, the project's team gates, the standard runners,
// the three configuration tiers and the project's store, where every decision
// is logged. Close the engine to close the store.
func Open(ctx context.Context, s Setup, opts ...Option) (*Engine, error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if err := CheckEnv(s.Root, getenv); err != nil {
		return nil, err
	}
	st := s.Store
	var log DecisionLog
	if st == nil && !s.NoStore {
		var err error
		if st, err = OpenStore(ctx, s.Root, getenv); err != nil {
			return nil, err
		}
	}
	if st != nil {
		log = StoreLog{st}
	}
	e, err := New(ctx, Deps{
		Root:         s.Root,
		Builtin:      policies.FS,
		Runners:      DefaultRunners(st),
		Config:       s.ConfigPaths(),
		Log:          log,
		Store:        st,
		BuiltinTests: policies.GoTests(),
		FixtureRunners: func(ctx context.Context, root string, seed FixtureSeed) (*runners.Registry, func(), error) {
			var opts []store.Option
			var clock atomic.Pointer[time.Time]
			if seed != nil {
				opts = append(opts, store.WithClock(func() time.Time { return *clock.Load() }))
				clock.Store(&time.Time{})
			}
			mem, err := store.OpenMemory(ctx, opts...)
			if err != nil {
				return nil, nil, err
			}
			if seed != nil {
				if err := seed(ctx, mem, func(t time.Time) { clock.Store(&t) }); err != nil {
					mem.Close()
					return nil, nil, fmt.Errorf("seed the fixture store: %w", err)
				}
			}
			return DefaultRunners(mem), func() { mem.Close() }, nil
		},
		Requester: s.Requester,
	}, append([]Option{WithLazyBuiltins()}, opts...)...)
	if err != nil {
		if st != nil && s.Store == nil {
			st.Close()
		}
		return nil, err
	}
	e.sharedStore = s.Store != nil
	return e, nil
}

// OpenStore opens the project's store where LocateStore says it lives: a
// PostgreSQL server (its fact cache in .tausik/cache.db), else the SQLite
// file $TAUSIK_DB or .tausik/tausik.db. The state directory gets a
// .gitignore so its files are never committed or judged as project files.
// A server that cannot be reached is ErrStore: there is no fall-back to a
// local file, which would split the log.
func OpenStore(ctx context.Context, root string, getenv func(string) string) (*store.Store, error) {
	loc, err := LocateStore(root, getenv)
	if err != nil {
		return nil, err
	}
	if loc.URL == "" {
		if getenv(EnvDB) == "" {
			if _, err := EnsureStateDir(root); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrStore, err)
			}
		}
		st, err := store.Open(ctx, loc.Path)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrStore, loc.Path, err)
		}
		return st, nil
	}
	dir, err := EnsureStateDir(root)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrStore, err)
	}
	st, err := store.OpenPostgres(ctx, loc.URL, store.WithFactCache(filepath.Join(dir, "cache.db")))
	if err != nil {
		return nil, fmt.Errorf("%w: %v (the store named by %s; tausik never falls back to a local file)", ErrStore, err, loc.From)
	}
	return st, nil
}

// EnsureStateDir creates the project's state directory (mode 0700) with a
// .gitignore, so its files (database, keys) are never committed or judged
// as project files, and returns its path.
func EnsureStateDir(root string) (string, error) {
	dir := filepath.Join(root, StateDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(ignore); os.IsNotExist(err) {
		_ = os.WriteFile(ignore, []byte("# tausik's local state: never commit it\n*\n"), 0o644)
	}
	return dir, nil
}

// DefaultRunners returns the standard runners, one per namespace, reading
// workflow state from st and keeping file-derived facts (fs, python, go,
// documents, imports) in its fact cache. The content runner reads its files
// every time: its cached facts are the text itself, and reading them back
// from the store measured slower than reading the files
// (BenchmarkGather10k, docs/performance.md).
func DefaultRunners(st *store.Store) *runners.Registry {
	return runners.NewRegistry(append([]runners.Runner{fsRunner(st), git.New(), goRunner(st), pythonRunner(st), surface.New(cached(st)...), mcpsurface.New(nil, 0),
		content.New(), documents.New(cached(st)...), imports.New(cached(st)...), hosts.New(nil), renar.New(st)}, work.New(st)...)...)
}

// cached is the source option that keeps a runner's facts in st, none when
// there is no store.
func cached(st *store.Store) []runners.SourceOption {
	if st == nil {
		return nil
	}
	return []runners.SourceOption{runners.WithCache(st)}
}

// fsRunner is the files runner, caching file facts in st when there is one.
func fsRunner(st *store.Store) *fs.Runner {
	if st == nil {
		return fs.New()
	}
	return fs.New(fs.WithCache(st))
}

// pythonRunner is the python runner, caching class facts in st when there is
// one.
func pythonRunner(st *store.Store) *python.Runner {
	if st == nil {
		return python.New()
	}
	return python.New(runners.WithCache(st))
}

// goRunner is the go runner, caching Go facts in st when there is one.
func goRunner(st *store.Store) *golang.Runner {
	if st == nil {
		return golang.New()
	}
	return golang.New(runners.WithCache(st))
}

// FindRoot returns the project root for dir: the nearest ancestor (or dir
// itself) holding a tausik/ directory or a .git entry, else dir.
func FindRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		if info, err := os.Stat(filepath.Join(d, "tausik")); err == nil && info.IsDir() {
			return d
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return abs
		}
		d = parent
	}
}
