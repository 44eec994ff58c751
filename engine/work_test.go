package engine

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/store/receipt"
)

// verifyGatesOf loads the built-in bundles named with config as the project
// tier and returns the verify gate set and its signature.
func verifyGatesOf(t *testing.T, cfg string, names ...string) ([]receipt.VerifyGate, string) {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"tausik/gates.json": cfg})
	e, err := New(context.Background(), Deps{Root: root, Builtin: builtinSubset(t, names...), Runners: stdrunners.New(nil),
		Config: config.Paths{Project: filepath.Join(root, "tausik", "gates.json")}})
	if err != nil {
		t.Fatal(err)
	}
	gates := e.VerifyGates()
	return gates, e.workContext(Request{}).GateSignature
}

// The gate signature covers each verify gate's name, severity and command
// (argv and exclusions): a receipt from a weaker gate set must not certify a
// stronger one.
func TestVerifyGateSignature(t *testing.T) {
	bundles := []string{"filesize", "ruff", "verify_first"}
	base, sig := verifyGatesOf(t, `{}`, bundles...)
	var names []string
	for _, g := range base {
		names = append(names, g.Name)
	}
	if !slices.Contains(names, "ruff") || slices.Contains(names, "filesize") || slices.Contains(names, "verify_first") {
		t.Fatalf("verify gates %v: want ruff only (filesize and verify_first do not listen to verify)", names)
	}
	ruff := base[slices.Index(names, "ruff")]
	if len(ruff.Command) == 0 || !strings.Contains(strings.Join(ruff.Command, " "), "ruff") || !slices.Contains(ruff.Command, "exclude=**/testdata/") {
		t.Fatalf("ruff's command in the signature: %q", ruff.Command)
	}
	if again, sig2 := verifyGatesOf(t, `{}`, bundles...); sig2 != sig || len(again) != len(base) {
		t.Fatal("the signature is not stable across engines")
	}
	for name, cfg := range map[string]string{
		"a gate added to verify": `{"gates": {"filesize": {"triggers": ["task-done", "commit", "verify"]}}}`,
		"a path excluded":        `{"gates": {"ruff": {"params": {"exclude": ["testdata/", "**/fixtures/*/tree/", "vendor/"]}}}}`,
	} {
		if _, other := verifyGatesOf(t, cfg, bundles...); other == sig {
			t.Errorf("%s: gate signature unchanged", name)
		}
	}
}
