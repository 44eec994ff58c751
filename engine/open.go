package engine

import (
	"context"
	"os"
	"path/filepath"

	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/fs"
)

// Environment variables that locate the user and managed configuration tiers.
const (
	EnvUserConfig    = "TAUSIK_USER_CONFIG"    // default ~/.tausik/config.json
	EnvManagedConfig = "TAUSIK_MANAGED_CONFIG" // unset = no managed tier
)

// Setup is how a front end (CLI, MCP server, hook) asks for an engine.
type Setup struct {
	// Root is the project root; see FindRoot.
	Root string
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
}

// Open builds the engine for a project exactly as every front end runs it:
// the embedded built-in gates, the project's team gates, the standard runners
// and the three configuration tiers.
func Open(ctx context.Context, s Setup, opts ...Option) (*Engine, error) {
	getenv := s.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	user := getenv(EnvUserConfig)
	if user == "" {
		if home := getenv("HOME"); home != "" {
			user = filepath.Join(home, ".tausik", "config.json")
		}
	}
	return New(ctx, Deps{
		Root:         s.Root,
		Builtin:      policies.FS,
		Runners:      DefaultRunners(),
		Config:       ConfigPaths{Project: filepath.Join(s.Root, "tausik", "gates.json"), User: user, Managed: getenv(EnvManagedConfig)},
		BuiltinTests: policies.GoTests(),
	}, opts...)
}

// DefaultRunners returns the standard runners, one per namespace.
func DefaultRunners() *runners.Registry {
	return runners.NewRegistry(fs.New())
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
