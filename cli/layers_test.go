package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// architectureTree is a throwaway module named as tausik's, configured with
// the layers contracts of tausik's own tausik/gates.json, holding the import
// given by extra on top of a tree that honours every contract.
func architectureTree(t *testing.T, extra string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "tausik", "gates.json"))
	if err != nil {
		t.Fatal(err)
	}
	var own struct {
		Gates map[string]json.RawMessage `json:"gates"`
	}
	if err := json.Unmarshal(raw, &own); err != nil {
		t.Fatal(err)
	}
	if own.Gates["layers"] == nil {
		t.Fatal("tausik/gates.json configures no layers gate")
	}
	cfg, err := json.Marshal(map[string]any{"gates": map[string]json.RawMessage{"layers": own.Gates["layers"]}})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("TAUSIK_USER_CONFIG", "")
	t.Setenv("TAUSIK_MANAGED_CONFIG", "")
	t.Setenv("TAUSIK_DB", "")
	writeArchive(t, root, `-- go.mod --
module github.com/tausik/tausik

go 1.22
-- cli/cli.go --
package cli

import _ "github.com/tausik/tausik/internal/app"
-- internal/app/app.go --
package app

import (
	_ "github.com/tausik/tausik/engine"
	_ "github.com/tausik/tausik/store"
)
-- engine/engine.go --
package engine

import _ "github.com/tausik/tausik/runners/fs"
-- runners/runner.go --
package runners
-- runners/fs/fs.go --
package fs

import _ "github.com/tausik/tausik/runners"
-- runners/python/python.go --
package python

import (
	_ "github.com/tausik/tausik/runners"
	_ "github.com/tausik/tausik/runners/internal/pyscan"
)
-- runners/internal/pyscan/scan.go --
package pyscan
-- store/store.go --
package store
`+extra)
	if err := os.MkdirAll(filepath.Join(root, "tausik"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tausik", "gates.json"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestArchitectureLayersHold runs the layers gate, configured as tausik
// configures it for itself, over a tree that keeps every contract and over
// the same tree with one import that breaks one: cli, or one of its command
// packages, reaching the store around the application layer; one command
// package importing another, or the command base one above it; a source
// runner importing a sibling (class_surface the python runner, whose shared
// scanner it imports instead); a shared scanner importing the runner base;
// a package of the application layer importing its parent folder's package.
func TestArchitectureLayersHold(t *testing.T) {
	cases := []struct {
		name, extra, want string
	}{
		{"clean", "", ""},
		{"cli imports store", `-- cli/log.go --
package cli

import _ "github.com/tausik/tausik/store"
`, `cli/log.go:3: cli imports store: forbidden "front_ends_through_app"`},
		{"a command package imports store", `-- cli/internal/logcmd/log.go --
package logcmd

import _ "github.com/tausik/tausik/store"
`, `cli/internal/logcmd/log.go:3: cli/internal/logcmd imports store: forbidden "front_ends_through_app"`},
		{"a command package imports another", `-- cli/internal/logcmd/log.go --
package logcmd

import _ "github.com/tausik/tausik/cli/internal/policycmd"
-- cli/internal/policycmd/policy.go --
package policycmd
`, `cli/internal/logcmd/log.go:3: cli/internal/logcmd imports cli/internal/policycmd: "logcmd" and "policycmd" are independent siblings`},
		{"the command base imports a command package", `-- cli/internal/cmdbase/base.go --
package cmdbase

import _ "github.com/tausik/tausik/cli/internal/logcmd"
-- cli/internal/logcmd/log.go --
package logcmd
`, `cli/internal/cmdbase/base.go:3: cli/internal/cmdbase imports cli/internal/logcmd: layer "cmdbase" may not import "logcmd" above it`},
		{"runner imports a sibling", `-- runners/fs/py.go --
package fs

import _ "github.com/tausik/tausik/runners/python"
`, `runners/fs/py.go:3: runners/fs imports runners/python: runners/fs and runners/python are children of "runners"`},
		{"the surface runner imports the python runner", `-- runners/surface/surface.go --
package surface

import _ "github.com/tausik/tausik/runners/python"
`, `runners/surface/surface.go:3: runners/surface imports runners/python: runners/surface and runners/python are children of "runners"`},
		{"a shared scanner imports the runner base", `-- runners/internal/pyscan/base.go --
package pyscan

import _ "github.com/tausik/tausik/runners"
`, `runners/internal/pyscan/base.go:3: runners/internal/pyscan imports runners: layer "scanners" may not import "runners" above it`},
		{"package imports its parent", `-- internal/app/live/live.go --
package live

import _ "github.com/tausik/tausik/internal/app"
`, `internal/app/live/live.go:3: internal/app/live imports internal/app, a package it lies under`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := architectureTree(t, c.extra)
			code, out, errOut := runCLI(t, root, "policy", "eval", "--gate", "layers", "--trigger", "commit")
			if c.want == "" {
				if code != 0 || !strings.Contains(out, "PASSED") {
					t.Fatalf("a tree that keeps every contract: exit %d\n%s%s", code, out, errOut)
				}
				return
			}
			if code != 1 || !strings.Contains(out, c.want) || strings.Count(out, ".go:") != 1 {
				t.Fatalf("want exactly one violation %q, exit 1; got exit %d\n%s%s", c.want, code, out, errOut)
			}
		})
	}
}
