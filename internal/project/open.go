package project

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/config"

	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

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
	// ExistingStore opens the project's store only where it already is and
	// creates neither it nor the state directory (OpenExistingStore): a hook
	// judges a call against a project a person set up, never a new one.
	ExistingStore bool
}

// ConfigPaths returns the configuration file of each tier for s: the
// project's tausik/gates.json, $TAUSIK_USER_CONFIG (default
// ~/.tausik/config.json) and $TAUSIK_MANAGED_CONFIG.
func (s Setup) ConfigPaths() config.Paths {
	getenv := s.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	return config.Paths{Project: filepath.Join(s.Root, "tausik", "gates.json"), User: config.UserConfigPath(getenv), Managed: getenv(config.EnvManagedConfig)}
}

// Open builds the engine for a project exactly as every front end runs it:
// the embedded built-in gates, the project's team gates, the standard runners,
// the three configuration tiers and the project's store, where every decision
// is logged. Close the engine to close the store.
func Open(ctx context.Context, s Setup, opts ...engine.Option) (*engine.Engine, error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if err := config.CheckEnv(s.Root, getenv); err != nil {
		return nil, err
	}
	st := s.Store
	var log engine.DecisionLog
	if st == nil && !s.NoStore {
		open := OpenStore
		if s.ExistingStore {
			open = OpenExistingStore
		}
		var err error
		if st, err = open(ctx, s.Root, getenv); err != nil {
			return nil, err
		}
	}
	if st != nil {
		log = engine.StoreLog{Store: st}
	}
	e, err := engine.New(ctx, engine.Deps{
		Root:    s.Root,
		Builtin: policies.FS,
		Runners: stdrunners.New(st),
		Config:  s.ConfigPaths(),
		Log:     log,
		Store:   st,
		FixtureRunners: func(ctx context.Context, root string, seed engine.FixtureSeed) (*runners.Registry, func(), error) {
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
			return stdrunners.New(mem), func() { mem.Close() }, nil
		},
		Requester: s.Requester,
		Home:      getenv("HOME"),
	}, append(lent(s.Store), opts...)...)
	if err != nil {
		if st != nil && s.Store == nil {
			st.Close()
		}
		return nil, err
	}
	return e, nil
}

// lent is the options that open an engine over st, a store the caller may
// have lent (and then closes itself).
func lent(st *store.Store) []engine.Option {
	if st == nil {
		return []engine.Option{engine.WithLazyBuiltins()}
	}
	return []engine.Option{engine.WithLazyBuiltins(), engine.WithLentStore()}
}

// OpenStore opens the project's store where LocateStore says it lives: a
// PostgreSQL server (its fact cache in .tausik/cache.db), else the SQLite
// file $TAUSIK_DB or .tausik/tausik.db. The state directory gets a
// .gitignore so its files are never committed or judged as project files.
// A server that cannot be reached is ErrStore: there is no fall-back to a
// local file, which would split the log.
func OpenStore(ctx context.Context, root string, getenv func(string) string) (*store.Store, error) {
	loc, err := config.LocateStore(root, getenv)
	if err != nil {
		return nil, err
	}
	if loc.URL == "" {
		if getenv(config.EnvDB) == "" {
			if _, err := EnsureStateDir(root); err != nil {
				return nil, fmt.Errorf("%w: %v", diag.ErrStore, err)
			}
		}
		st, err := store.Open(ctx, loc.Path)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", diag.ErrStore, loc.Path, err)
		}
		return st, nil
	}
	dir, err := EnsureStateDir(root)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", diag.ErrStore, err)
	}
	st, err := store.OpenPostgres(ctx, loc.URL, store.WithFactCache(filepath.Join(dir, "cache.db")))
	if err != nil {
		return nil, fmt.Errorf("%w: %v (the store named by %s; tausik never falls back to a local file)", diag.ErrStore, err, loc.From)
	}
	return st, nil
}

// OpenExistingStore is OpenStore for a store that must already be there:
// the SQLite file, or for a server the state directory its fact cache lives
// in. It creates no file and no directory; a project without its store is
// ErrNoProject.
func OpenExistingStore(ctx context.Context, root string, getenv func(string) string) (*store.Store, error) {
	loc, err := config.LocateStore(root, getenv)
	if err != nil {
		return nil, err
	}
	if loc.URL == "" {
		if info, err := os.Stat(loc.Path); err != nil || !info.Mode().IsRegular() {
			return nil, fmt.Errorf("%w (no %s)", ErrNoProject, loc.Path)
		}
		st, err := store.Open(ctx, loc.Path)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", diag.ErrStore, loc.Path, err)
		}
		return st, nil
	}
	dir := filepath.Join(root, config.StateDir)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("%w (no %s)", ErrNoProject, dir)
	}
	st, err := store.OpenPostgres(ctx, loc.URL, store.WithFactCache(filepath.Join(dir, "cache.db")))
	if err != nil {
		return nil, fmt.Errorf("%w: %v (the store named by %s; tausik never falls back to a local file)", diag.ErrStore, err, loc.From)
	}
	return st, nil
}

// EnsureStateDir creates the project's state directory (mode 0700) with a
// .gitignore, so its files (database, keys) are never committed or judged
// as project files, and returns its path.
func EnsureStateDir(root string) (string, error) {
	dir := filepath.Join(root, config.StateDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	ignore := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(ignore); os.IsNotExist(err) {
		_ = os.WriteFile(ignore, []byte("# tausik's local state: never commit it\n*\n"), 0o644)
	}
	return dir, nil
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

// EnvRoot names the project root of a hook when no --root flag does.
const EnvRoot = "TAUSIK_ROOT"

// ErrNoProject marks a hook call that comes from no project with a tausik
// store: there is nothing to judge it against, so it is refused. The text is
// for the agent, who must not set a store up itself.
var ErrNoProject = errors.New("the project has no tausik store; a person must set it up")

// ErrOutsideProject marks a hook call whose working directory does not
// exist or lies outside the project it is judged in.
var ErrOutsideProject = errors.New("the call's working directory is not inside the project")

// HookPlace is what a hook knows of where a call comes from.
type HookPlace struct {
	// Root is the project a person named (--root, $TAUSIK_ROOT), if any.
	Root string
	// Project is the host's own project directory ($CLAUDE_PROJECT_DIR,
	// Cursor's workspace_roots…), if it names one.
	Project string
	// CWD is the call's working directory (the payload's, else the hook
	// process's).
	CWD string
}

// HookRoot returns the project a hook call is judged in. The root never
// follows the agent: it is Root when a person named one, else the host's
// project directory (or, when that holds no store, the outermost directory
// above it that does), else the outermost directory at or above the call's
// working directory holding a store (.tausik/tausik.db, or the .tausik/
// cache.db of a server store). The outermost, not the nearest: a nested
// repository, tausik/ directory or store inside the project — which an agent
// can create — does not re-root it, and neither .git nor tausik/ counts.
// Home, the temporary directory and / are never a project found by the walk
// (home's .tausik is the user tier). The root must hold its store (ErrNoProject) and
// the working directory must exist inside it (ErrOutsideProject).
func HookRoot(p HookPlace, getenv func(string) string) (string, error) {
	if p.CWD == "" || !filepath.IsAbs(p.CWD) {
		return "", fmt.Errorf("%w: no absolute working directory (%q)", ErrOutsideProject, p.CWD)
	}
	cwd, err := filepath.EvalSymlinks(p.CWD)
	if info, serr := os.Stat(cwd); err != nil || serr != nil || !info.IsDir() {
		return "", fmt.Errorf("%w: %s does not exist", ErrOutsideProject, p.CWD)
	}
	var root string
	switch {
	case p.Root != "":
		if root, err = filepath.Abs(p.Root); err != nil {
			return "", err
		}
	case p.Project != "":
		if !filepath.IsAbs(p.Project) {
			return "", fmt.Errorf("%w: the host's project directory %q is not absolute", ErrNoProject, p.Project)
		}
		root = filepath.Clean(p.Project)
		if !hasStore(root) {
			if outer := outermostStore(root, getenv); outer != "" {
				root = outer
			}
		}
	default:
		if root = outermostStore(cwd, getenv); root == "" {
			return "", fmt.Errorf("%w (no %s at or above %s)", ErrNoProject, filepath.Join(config.StateDir, "tausik.db"), p.CWD)
		}
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("%w (%s does not exist)", ErrNoProject, root)
	}
	if rel, err := filepath.Rel(realRoot, cwd); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %s is outside %s", ErrOutsideProject, p.CWD, root)
	}
	return root, nil
}

// hasStore reports whether dir holds a tausik store: the SQLite file, or
// the fact cache of a server store.
func hasStore(dir string) bool {
	for _, name := range []string{"tausik.db", "cache.db"} {
		if info, err := os.Stat(filepath.Join(dir, config.StateDir, name)); err == nil && info.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// outermostStore is the outermost directory at or above dir that holds a
// store, skipping home, the temporary directory and /; "" when none does.
func outermostStore(dir string, getenv func(string) string) string {
	skip := map[string]bool{os.TempDir(): true}
	if home := getenv("HOME"); home != "" {
		skip[filepath.Clean(home)] = true
	}
	for _, d := range []string{os.TempDir(), getenv("HOME")} {
		if real, err := filepath.EvalSymlinks(d); err == nil && d != "" {
			skip[real] = true
		}
	}
	found := ""
	for d := filepath.Clean(dir); ; {
		parent := filepath.Dir(d)
		if parent == d {
			return found // d is /, never a project
		}
		if !skip[d] && hasStore(d) {
			found = d
		}
		d = parent
	}
}
