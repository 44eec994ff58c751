package gate

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
)

// Where a gate comes from.
const (
	SourceBuiltin = "builtin"
	// TeamDir is where a project keeps its own gate bundles, relative to the root.
	TeamDir = "tausik/policies"
)

// Closed-list tables (docs/writing-gates.md).
const (
	TableCovered = "COVERED"
	TableExcused = "EXCUSED"
)

// Bundle file names.
const (
	fileGate = "gate.yaml"
	FileRego = "policy.rego"
	fileCEL  = "policy.cel.yaml"
	// FileExcused is the closed list's excuse: why no fixture can drive
	// the gate, and the Go tests that prove it red and green instead.
	FileExcused = "excused.yaml"
	// DirFixtures holds one directory per fixture case.
	DirFixtures = "fixtures"
	// FileMutants declares the policy's equivalent mutants (see
	// internal/policytest's mutation testing).
	FileMutants = "mutants.yaml"
)

// Gate is one loaded gate bundle: its metadata, its prepared policy and where
// its fixtures are. Built-in and team gates are the same type.
type Gate struct {
	Meta
	// Source is "builtin" or the team bundle's directory relative to the root.
	Source string
	// Dir is the bundle's path as shown in messages ("policies/filesize").
	Dir string
	// PolicyFile is the policy's path as shown in messages.
	PolicyFile string
	// PolicyDigest is "sha256:<hex>" of the policy file's bytes.
	PolicyDigest string
	// Fixtures are the names of the directories under fixtures/, sorted.
	Fixtures []string
	// HasExcused reports an excused.yaml in the bundle.
	HasExcused bool

	// Policy is the prepared policy.
	Policy policy.Policy
	// BundleFS is the bundle directory (see FS).
	BundleFS fs.FS
	// FactsAlias renames namespaces of the gate's facts.json fixtures
	// (fixture name → the gate's): a config-defined command gate runs the
	// generic command policy's fixtures against its own namespace.
	FactsAlias map[string]string
}

// Table reports the closed-list table the gate claims: COVERED when it has
// fixtures, EXCUSED when it has excused.yaml, "" for neither and "BOTH" for both
// (the last two fail `policy test`).
func (g *Gate) Table() string {
	switch {
	case len(g.Fixtures) > 0 && g.HasExcused:
		return "BOTH"
	case len(g.Fixtures) > 0:
		return TableCovered
	case g.HasExcused:
		return TableExcused
	}
	return ""
}

// allowedFiles are the entries a bundle directory may hold.
var allowedFiles = []string{fileGate, FileRego, fileCEL, FileExcused, FileMutants, DirFixtures, "README.md"}

// LoadBundles loads every bundle directory in fsys. prefix is the directory
// shown in messages; source is SourceBuiltin or the team directory.
func LoadBundles(ctx context.Context, fsys fs.FS, prefix, source string, known func(string) bool, lazy bool, d *diag.Diagnostics) []*Gate {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		d.Add(prefix, 0, "read bundles: %v", err)
		return nil
	}
	var gates []*Gate
	for _, e := range entries {
		dir := path.Join(prefix, e.Name())
		if !e.IsDir() {
			if source != SourceBuiltin {
				d.Add(dir, 0, "only gate bundle directories belong in %s", prefix)
			}
			continue
		}
		sub, err := fs.Sub(fsys, e.Name())
		if err != nil {
			d.Add(dir, 0, "%v", err)
			continue
		}
		src := source
		if source != SourceBuiltin {
			src = dir // a team gate's source is its own bundle directory
		}
		if g := loadBundle(ctx, sub, dir, e.Name(), src, known, lazy, d); g != nil {
			gates = append(gates, g)
		}
	}
	return gates
}

// loadBundle loads one bundle; on any problem it records diagnostics and
// returns nil, so nothing of a broken bundle is used.
func loadBundle(ctx context.Context, fsys fs.FS, dir, name, source string, known func(string) bool, lazy bool, d *diag.Diagnostics) *Gate {
	n0 := len(d.Items)
	present, ok := bundleEntries(fsys, dir, d)
	if !ok {
		return nil
	}
	gateFile := path.Join(dir, fileGate)
	raw, err := fs.ReadFile(fsys, fileGate)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = errors.Unwrap(err)
			d.Add(gateFile, 0, "every gate bundle needs a gate.yaml: %v", err)
		} else {
			d.Add(gateFile, 0, "%v", err) // a special file, one too large, a symlink out
		}
		return nil
	}
	g := &Gate{Meta: parseMeta(gateFile, name, raw, known, d), Source: source, Dir: dir, BundleFS: fsys}
	if len(d.Items) > n0 {
		return nil
	}
	src, ok := readPolicy(g, fsys, present, d)
	if !ok {
		return nil
	}
	g.PolicyDigest = facts.DigestBytes(src)
	if lazy {
		g.Policy = &LazyPolicy{compile: func(ctx context.Context) (policy.Policy, error) {
			ld := &diag.Diagnostics{Kind: diag.ErrBundle}
			if p := CompilePolicy(ctx, g, src, ld); p != nil {
				return p, nil
			}
			return nil, ld
		}}
	} else {
		g.Policy = CompilePolicy(ctx, g, src, d)
	}
	g.HasExcused = present[FileExcused]
	if present[DirFixtures] {
		listFixtures(g, fsys, d)
	}
	if len(d.Items) > n0 || g.Policy == nil {
		return nil
	}
	return g
}

// bundleEntries lists the entries of a bundle directory, reporting those a
// bundle may not hold; ok is false when the directory cannot be read.
func bundleEntries(fsys fs.FS, dir string, d *diag.Diagnostics) (present map[string]bool, ok bool) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		d.Add(dir, 0, "%v", err)
		return nil, false
	}
	present = map[string]bool{}
	for _, e := range entries {
		present[e.Name()] = true
		if !slices.Contains(allowedFiles, e.Name()) {
			d.Add(path.Join(dir, e.Name()), 0, "unexpected file in a gate bundle (allowed: %v)", allowedFiles)
		}
	}
	return present, true
}

// readPolicy sets g's policy file by its language and reads it (or the
// mutant a test run names instead); ok is false when it cannot be read.
func readPolicy(g *Gate, fsys fs.FS, present map[string]bool, d *diag.Diagnostics) ([]byte, bool) {
	policyName, other := FileRego, fileCEL
	if g.Language == LangCEL {
		policyName, other = fileCEL, FileRego
	}
	g.PolicyFile = path.Join(g.Dir, policyName)
	if present[other] {
		d.Add(path.Join(g.Dir, other), 0, "language is %s, so this bundle's policy is %s; remove %s", g.Language, policyName, other)
	}
	src, err := fs.ReadFile(fsys, policyName)
	if errors.Is(err, fs.ErrNotExist) {
		d.Add(g.PolicyFile, 0, "missing policy file for language %s", g.Language)
		return nil, false
	}
	if err != nil {
		d.Add(g.PolicyFile, 0, "%v", err)
		return nil, false
	}
	if mutated, ok := mutantOverride(g.Name, policyName); ok {
		src = mutated
	}
	return src, true
}

// listFixtures records the case directories under the bundle's fixtures/,
// sorted, reporting anything else found there.
func listFixtures(g *Gate, fsys fs.FS, d *diag.Diagnostics) {
	fx, err := fs.ReadDir(fsys, DirFixtures)
	if err != nil {
		d.Add(path.Join(g.Dir, DirFixtures), 0, "%v", err)
	}
	for _, e := range fx {
		if e.IsDir() {
			g.Fixtures = append(g.Fixtures, e.Name())
		} else {
			d.Add(path.Join(g.Dir, DirFixtures, e.Name()), 0, "fixtures/ holds one directory per case")
		}
	}
	sort.Strings(g.Fixtures)
}

// CompilePolicy compiles g's policy source, recording problems in d.
func CompilePolicy(ctx context.Context, g *Gate, src []byte, d *diag.Diagnostics) policy.Policy {
	switch g.Language {
	case LangRego:
		return policy.CompileRego(ctx, g.Name, g.PolicyFile, src, d)
	case LangCEL:
		return policy.CompileCEL(g.PolicyFile, src, g.Source != SourceBuiltin, d)
	}
	return nil
}

// LazyPolicy compiles a built-in policy on its first evaluation. Built-in
// bundles are fixed when the binary is built and a test compiles every one
// of them, so deferring their compilation cannot hide a broken bundle; it
// keeps a process that evaluates two gates (a pre-write hook) from paying
// for the other twenty. Team bundles are compiled eagerly, so their errors
// stop every command, except in a hook (WithLazyTeam), where a broken team
// policy is an error only for the trigger its gate listens to.
type LazyPolicy struct {
	once    sync.Once
	done    atomic.Bool
	compile func(ctx context.Context) (policy.Policy, error)
	policy  policy.Policy
	err     error
}

// Compiled reports whether the policy has been compiled (or failed to).
func (l *LazyPolicy) Compiled() bool { return l.done.Load() }

// Eval implements Policy.
func (l *LazyPolicy) Eval(ctx context.Context, in *policy.Input) (policy.Result, error) {
	// The compilation is kept for the process: not cut short by this
	// evaluation's deadline (EvalBounded), which bounds the policy's run.
	l.once.Do(func() { l.policy, l.err = l.compile(context.WithoutCancel(ctx)); l.done.Store(true) })
	if l.err != nil {
		return policy.Result{}, l.err
	}
	return l.policy.Eval(ctx, in)
}

// InputUse is the compiled policy's (compiling it if no evaluation did yet).
func (l *LazyPolicy) InputUse() policy.InputUse {
	l.once.Do(func() { l.policy, l.err = l.compile(context.Background()); l.done.Store(true) })
	if l.err != nil {
		return policy.InputUse{Any: true}
	}
	return policy.UseOf(l.policy)
}

// SortGates orders gates by phase, then name: the order of every evaluation.
func SortGates(gates []*Gate) {
	sort.Slice(gates, func(i, j int) bool {
		pi, pj := slices.Index(Phases, gates[i].Phase), slices.Index(Phases, gates[j].Phase)
		if pi != pj {
			return pi < pj
		}
		return gates[i].Name < gates[j].Name
	})
}
