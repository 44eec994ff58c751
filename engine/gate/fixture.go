package gate

import (
	"context"
	"io/fs"
	"path"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/facts"
)

// What the policy harness (fixture runs, mutation testing) needs from a
// loaded gate.

// FS returns the gate's bundle directory (gate.yaml, the policy, fixtures/).
func (g *Gate) FS() fs.FS { return g.BundleFS }

// AliasFacts renames the namespaces of a facts.json fixture to the ones the
// gate reads: a config-defined command gate runs the generic command
// policy's fixtures, which give their facts under one shared namespace.
func (g *Gate) AliasFacts(doc *facts.Document) {
	for from, to := range g.FactsAlias {
		if ns, ok := doc.Namespaces[from]; ok {
			delete(doc.Namespaces, from)
			doc.Namespaces[to] = ns
		}
	}
}

// DefaultParams returns a fresh copy of the gate's param defaults, which a
// caller may change without touching the gate.
func (g *Gate) DefaultParams() map[string]any {
	out := make(map[string]any, len(g.Params))
	for _, p := range g.Params {
		out[p.Name] = CloneValue(p.Default)
	}
	return out
}

// PolicySource returns the bytes of g's policy file.
func (g *Gate) PolicySource() ([]byte, error) {
	return fs.ReadFile(g.BundleFS, path.Base(g.PolicyFile))
}

// WithPolicySource returns a copy of g whose policy is compiled from src
// instead of its bundle's file (a mutant, in mutation testing); g itself is
// not changed. A source that does not compile, or whose rules return the
// wrong shape, is refused as ErrBundle diagnostics.
func (g *Gate) WithPolicySource(ctx context.Context, src []byte) (*Gate, error) {
	cp := *g
	cp.PolicyDigest = facts.DigestBytes(src)
	d := &diag.Diagnostics{Kind: diag.ErrBundle}
	if cp.Policy = CompilePolicy(ctx, &cp, src, d); cp.Policy == nil {
		if len(d.Items) == 0 {
			d.Add(g.PolicyFile, 0, "the policy did not compile")
		}
		return nil, d
	}
	return &cp, nil
}
