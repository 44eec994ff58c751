package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/cli"
)

// legacyTree writes, as a git repository, the shape of a popular project
// tausik meets on day one: a long changelog, lockfile, documentation, test
// data, vendored and generated files beside one source file that really is
// too long; a framework's god class with eight thin subclasses and one
// wide one, an IntEnum, a class defined only for type checkers, a Protocol
// and a test class, each over the class cap.
func legacyTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	lines := func(n int, line string) string { return strings.Repeat(line+"\n", n) }
	names := func(n int, prefix string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "    def %s_%d(self):\n        return %d\n", prefix, i, i)
		}
		return b.String()
	}
	files := map[string]string{
		"CHANGES.rst":                         lines(900, "- fixed a thing"),
		"uv.lock":                             lines(3000, `name = "dep"`),
		"docs/big.rst":                        lines(800, "Some prose."),
		"tests/data/big.json":                 "[\n" + lines(800, "  1,") + "  1\n]\n",
		"test-data/x.py":                      lines(800, "x = 1"),
		"vendor/typeshed/stdlib/builtins.pyi": "class str:\n" + lines(1200, "    def m(self) -> int: ..."),
		"vendor/lib/six.py":                   lines(900, "y = 2"),
		"gen/api_pb2.py":                      lines(1000, "z = 3"),
		".gitattributes":                      "gen/** linguist-generated\n",
		"src/app/huge.py":                     lines(650, "w = 4"),
		"src/app/core.py":                     "class Flask:\n" + names(65, "route"),
		"src/app/typing_only.py":              "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    class Stub:\n" + indent(names(70, "stub")),
		"src/app/proto.py":                    "from typing import Protocol\n\n\nclass Store(Protocol):\n" + names(70, "op"),
		"tests/test_app.py":                   "class BigCase:\n" + names(70, "case"),
	}
	// The enum's members need distinct names.
	var enum strings.Builder
	enum.WriteString("import enum\n\n\nclass Status(enum.IntEnum):\n")
	for i := range 80 {
		fmt.Fprintf(&enum, "    S_%d = %d\n", i, 200+i)
	}
	files["src/app/status.py"] = enum.String()
	var subs strings.Builder
	subs.WriteString("from app.core import Flask\n")
	for i := range 8 {
		fmt.Fprintf(&subs, "\n\nclass Variant%d(Flask):\n%s", i, names(1+i%3, fmt.Sprintf("v%d", i)))
	}
	subs.WriteString("\n\nclass Blueprint(Flask):\n" + names(70, "bp"))
	files["src/app/variants.py"] = subs.String()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "legacy"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

// indent moves a class body one level in (under an if).
func indent(body string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(body, "\n"), "\n", "\n    ") + "\n"
}

// TestAdoptionLegacyTree runs filesize and class_surface with their
// defaults on legacyTree: filesize reports only the long source file,
// class_surface only the god class (naming its eight thin inheritors) and
// the subclass whose own 70 names take it over the cap.
func TestAdoptionLegacyTree(t *testing.T) {
	root := legacyTree(t)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	var stdout, stderr bytes.Buffer
	code := cli.Run(context.Background(), []string{"--root", root, "policy", "eval", "--trigger", "commit",
		"--gate", "filesize", "--gate", "class_surface", "--format", "json"}, strings.NewReader(""), &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (blocked)\nstdout: %s\nstderr: %s", code, stdout.String(), stderr.String())
	}
	var doc struct {
		Gates []struct {
			Name       string `json:"name"`
			Outcome    string `json:"outcome"`
			Violations []struct {
				Msg string `json:"msg"`
			} `json:"violations"`
		} `json:"gates"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("decision: %v\n%s", err, stdout.String())
	}
	got := map[string][]string{}
	for _, g := range doc.Gates {
		for _, v := range g.Violations {
			got[g.Name] = append(got[g.Name], v.Msg)
		}
		slices.Sort(got[g.Name])
	}
	want := map[string][]string{
		"filesize": {"src/app/huge.py: 650 lines (max 500)"},
		"class_surface": {
			"src/app/core.py:1: class Flask has 65 public members (max 60; all its own; inherited by 8 classes over the cap only through it)",
			"src/app/variants.py:58: class Blueprint has 135 public members (max 60; 70 own, 65 more from Flask)",
		},
	}
	for gate, msgs := range want {
		if len(got[gate]) != len(msgs) {
			t.Errorf("%s: %d violations, want %d:\n%s\n%s", gate, len(got[gate]), len(msgs), strings.Join(got[gate], "\n"), stdout.String())
			continue
		}
		for i, m := range msgs {
			if !strings.HasPrefix(got[gate][i], m) {
				t.Errorf("%s: violation %q, want it to start %q", gate, got[gate][i], m)
			}
		}
	}
}
