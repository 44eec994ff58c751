package engine

import (
	"context"
	iofs "io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tausik/tausik/engine/stdrunners"

	"github.com/tausik/tausik/policies"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/fs"
)

// bundleFS builds an in-memory bundle tree from "gate/file" → content.
func bundleFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for p, c := range files {
		m[p] = &fstest.MapFile{Data: []byte(c)}
	}
	return m
}

// newTestEngine loads the bundles in files as built-ins over root.
func newTestEngine(t *testing.T, root string, files map[string]string, opts ...Option) (*Engine, error) {
	t.Helper()
	return New(context.Background(), Deps{Root: root, Builtin: bundleFS(files), Runners: runners.NewRegistry(fs.New())},
		opts...)
}

// builtinEngine loads every built-in gate over root with the standard runners.
func builtinEngine(t testing.TB, root string) *Engine {
	t.Helper()
	e, err := New(context.Background(), Deps{Root: root, Builtin: policies.FS, Runners: stdrunners.New(nil)})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// gateYAML returns a valid gate.yaml for name in lang with extra lines appended.
func gateYAML(name, lang string, extra ...string) string {
	return strings.Join(append([]string{
		"name: " + name,
		"description: a gate used by the engine's tests",
		"prevents: a change that this test gate objects to",
		"phase: scoped",
		"triggers: [commit]",
		"severity: block",
		"enabled: true",
		"language: " + lang,
		"facts: [files]",
	}, extra...), "\n") + "\n"
}

const (
	// regoBig flags files over params.max_lines (default 3).
	regoBig = `package tausik.gates.big

could_not_run contains "files_unavailable" if input.files.status != "ok"

violations contains {"msg": sprintf("%s is big", [f.path]), "file": f.path} if {
	some f in input.files.files
	f.lines > input.params.max_lines
}
`
	celBig = `could_not_run:
  - code: files_unavailable
    when: input.files.status != "ok"
violations:
  - rule: big
    expr: >-
      input.files.files.filter(f, f.lines > input.params.max_lines)
        .map(f, {"msg": f.path + " is big", "file": f.path})
`
	paramsMaxLines = "params:\n  max_lines: {type: int, default: 3, project_may: lower, description: the limit}"
)

// builtinSubset holds only the named built-in bundles, so a flow test does
// not depend on which other gates ship.
func builtinSubset(t *testing.T, names ...string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, name := range names {
		err := iofs.WalkDir(policies.FS, name, func(p string, d iofs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := iofs.ReadFile(policies.FS, p)
			m[p] = &fstest.MapFile{Data: b}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return m
}
