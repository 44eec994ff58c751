package policytest

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tausik/tausik/engine"
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
func newTestEngine(t testing.TB, root string, files map[string]string) (*engine.Engine, error) {
	t.Helper()
	return engine.New(context.Background(), engine.Deps{Root: root, Builtin: bundleFS(files), Runners: runners.NewRegistry(fs.New())})
}

// gateYAML returns a valid gate.yaml for name in lang with extra lines appended.
func gateYAML(name, lang string, extra ...string) string {
	return strings.Join(append([]string{
		"name: " + name,
		"description: a gate used by the harness's tests",
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
	paramsMaxLines = "params:\n  max_lines: {type: int, default: 3, project_may: lower, description: the limit}"
)
