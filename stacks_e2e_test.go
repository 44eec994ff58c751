package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/project"
	"github.com/tausik/tausik/runners/git"
)

// monorepoFiles is a polyglot monorepo, each stack in its own directory: a
// TypeScript package (web/), a Rust crate (crates/core/), a Go module that
// configures golangci-lint (svc/), a Helm chart (deploy/chart/) and a
// Dockerfile (docker/). With red, each root holds one finding its tool
// reports: a type error, a compile error, a self-assignment (govet), a
// template that does not parse; the Dockerfile is the same either way.
func monorepoFiles(red bool) map[string]string {
	files := map[string]string{
		".gitignore":               "target/\nCargo.lock\n",
		"tausik/gates.json":        "{}\n",
		"web/package.json":         `{"name": "web", "version": "1.0.0", "private": true}` + "\n",
		"web/tsconfig.json":        `{"compilerOptions": {"strict": true, "noEmit": true, "target": "ES2020", "module": "commonjs"}, "include": ["src"]}` + "\n",
		"web/src/index.ts":         "export function double(n: number): number {\n  return n * 2;\n}\n\nexport const label: number = double(2);\n",
		"crates/core/Cargo.toml":   "[package]\nname = \"core_math\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
		"crates/core/src/lib.rs":   "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn one() -> i32 {\n    let s: i32 = 1;\n    s + 1\n}\n",
		"svc/go.mod":               "module example.test/svc\n\ngo 1.22\n",
		"svc/.golangci.yml":        "version: \"2\"\nlinters:\n  default: none\n  enable: [govet]\n",
		"svc/vet.go":               "package svc\n\n// Same returns x.\nfunc Same(x int) int {\n\treturn x\n}\n",
		"deploy/chart/Chart.yaml":  "apiVersion: v2\nname: chart\nversion: 0.1.0\n",
		"deploy/chart/values.yaml": "replicas: 1\n",
		"deploy/chart/templates/configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n" +
			"  replicas: \"{{ .Values.replicas }}\"\n",
		"docker/Dockerfile": "FROM debian:12\nRUN apt-get update\n",
	}
	if red {
		files["web/src/index.ts"] = strings.Replace(files["web/src/index.ts"], "label: number", "label: string", 1)
		files["crates/core/src/lib.rs"] = strings.Replace(files["crates/core/src/lib.rs"], "s: i32 = 1", `s: i32 = "one"`, 1)
		files["svc/vet.go"] = strings.Replace(files["svc/vet.go"], "\treturn x", "\tx = x\n\treturn x", 1)
		files["deploy/chart/templates/configmap.yaml"] = strings.Replace(files["deploy/chart/templates/configmap.yaml"], "replicas }}", "replicas }", 1)
	}
	return files
}

// writeMonorepo writes monorepoFiles(red) into root as a git repository
// with one commit.
func writeMonorepo(tb testing.TB, root string, red bool) {
	tb.Helper()
	for p, content := range monorepoFiles(red) {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "monorepo"}} {
		monoGit(tb, root, args...)
	}
}

func monoGit(tb testing.TB, root string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test")
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// stackToolsEnv puts the stack gates' tools the repository pins on PATH
// (testdata/stacktools: tsc from its lockfile, the Go tools .ci/run builds
// into gobin) and requires the ones the monorepo's gates run: under CI a
// missing tool fails the test, elsewhere it skips. hadolint is EXCUSED (no
// registry here serves it): its gate must say COULD_NOT_RUN, or judge when
// a developer has it.
func stackToolsEnv(tb testing.TB) {
	tb.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "stacktools"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Setenv("PATH", strings.Join([]string{filepath.Join(dir, "node_modules", ".bin"), filepath.Join(dir, "gobin"), os.Getenv("PATH")}, string(os.PathListSeparator)))
	for _, tool := range []string{"tsc", "cargo", "cargo-clippy", "go", "golangci-lint", "helm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				tb.Fatalf("%s is not installed (.ci/run installs it): %v", tool, err)
			}
			tb.Skipf("%s is not installed (run .ci/run's install steps, or npm ci --prefix testdata/stacktools): %v", tool, err)
		}
	}
	tb.Setenv("TAUSIK_USER_CONFIG", filepath.Join(tb.TempDir(), "none.json"))
	tb.Setenv("TAUSIK_MANAGED_CONFIG", "")
	tb.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	tb.Setenv("GIT_CONFIG_NOSYSTEM", "1")
}

// monoGate is one gate of a decision, as the JSON format gives it.
type monoGate struct {
	Outcome string `json:"outcome"`
	Reasons []struct {
		Code string `json:"code"`
		Msg  string `json:"msg"`
	} `json:"reasons"`
	Violations []struct {
		Msg  string `json:"msg"`
		File string `json:"file"`
		Line int    `json:"line"`
	} `json:"violations"`
}

// evalMonorepo runs `tausik policy eval --trigger commit` (args added) on
// root and returns the exit code and each gate by name.
func evalMonorepo(t *testing.T, root string, args ...string) (int, map[string]monoGate) {
	t.Helper()
	code, out, errOut := tausikIn(t, root, append([]string{"policy", "eval", "--trigger", "commit", "--format", "json"}, args...)...)
	var doc struct {
		Gates []struct {
			Name string `json:"name"`
			monoGate
		} `json:"gates"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("exit %d: decision: %v\n%s\n%s", code, err, out, errOut)
	}
	gates := map[string]monoGate{}
	for _, g := range doc.Gates {
		gates[g.Name] = g.monoGate
	}
	return code, gates
}

// rootRuns gathers the stack gates' namespaces for a commit, as policy eval
// does (since is --changed-since, "" for the whole project: the files in
// scope are those the engine takes for --changed-since, from the git
// runner), and returns per gate the roots its tool ran in, and each
// namespace's reason.
func rootRuns(t *testing.T, root, since string, gates []string) (map[string][]string, map[string]string) {
	t.Helper()
	ctx := context.Background()
	e, err := project.Open(ctx, project.Setup{Root: root, NoStore: true, Requester: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	req := engine.Request{Trigger: "commit", ChangedSince: since}
	if since != "" {
		if req.Files, err = git.New().ChangedFiles(ctx, root, since); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(req.Files, []string{"crates/core/src/lib.rs"}) {
			t.Fatalf("files changed since %s: %q", since, req.Files)
		}
	}
	doc, err := e.Facts(ctx, req, gates)
	if err != nil {
		t.Fatal(err)
	}
	runs, reasons := map[string][]string{}, map[string]string{}
	for _, g := range gates {
		ns := doc.Namespaces[g]
		reasons[g] = ns.Reason
		b, err := json.Marshal(ns.Data)
		if err != nil {
			t.Fatal(err)
		}
		var c facts.Command
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatalf("%s: %v\n%s", g, err, b)
		}
		runs[g] = []string{}
		for _, r := range c.Roots {
			if r.Reason != "not_found" {
				runs[g] = append(runs[g], r.Dir)
			}
		}
	}
	return runs, reasons
}

// TestStackGatesMonorepo is the stack gates' acceptance: on a monorepo with
// a TypeScript package, a Rust crate, a Go module, a Helm chart and a
// Dockerfile, `policy eval --trigger commit` runs each stack's gates with
// the real tools in its own root, and their findings carry file:line
// relative to the repository; after a change limited to the crate,
// `--changed-since` runs only the crate's tools, and passes while the other
// roots are still red.
func TestStackGatesMonorepo(t *testing.T) {
	stackToolsEnv(t)
	root := t.TempDir()
	writeMonorepo(t, root, true)
	base := monoGit(t, root, "rev-parse", "HEAD")
	stackGates := []string{"tsc", "cargo_check", "clippy", "golangci_lint", "helm_lint", "hadolint"}

	code, gates := evalMonorepo(t, root)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (blocked by the red roots): %+v", code, gates)
	}
	want := map[string]string{
		"tsc":           "web/src/index.ts:5:14: TS2322 Type 'number' is not assignable to type 'string'.",
		"cargo_check":   "crates/core/src/lib.rs:6:18: mismatched types: expected `i32`, found `&str` (E0308)",
		"clippy":        "crates/core/src/lib.rs:6:18: mismatched types: expected `i32`, found `&str` (E0308)",
		"golangci_lint": "svc/vet.go:5:2: assign: self-assignment of x (govet)",
		"helm_lint":     "deploy/chart/templates/configmap.yaml:6: parse error at (chart/templates/configmap.yaml:6): unexpected \"}\" in operand",
	}
	for g, msg := range want {
		got := gates[g]
		if got.Outcome != "FAILED" || len(got.Violations) != 1 || got.Violations[0].Msg != msg {
			t.Errorf("%s: %+v, want FAILED with the one violation %q", g, got, msg)
		}
	}
	if _, err := exec.LookPath("hadolint"); err != nil {
		if h := gates["hadolint"]; h.Outcome != "COULD_NOT_RUN" || len(h.Reasons) != 1 || h.Reasons[0].Code != "tool_not_found" {
			t.Errorf("hadolint (EXCUSED, not installed): %+v, want COULD_NOT_RUN tool_not_found", h)
		}
	}
	runs, _ := rootRuns(t, root, "", stackGates)
	wantRuns := map[string][]string{"tsc": {"web"}, "cargo_check": {"crates/core"}, "clippy": {"crates/core"},
		"golangci_lint": {"svc"}, "helm_lint": {"deploy/chart"}, "hadolint": {}}
	if _, err := exec.LookPath("hadolint"); err == nil {
		wantRuns["hadolint"] = []string{"docker"}
	}
	for g, dirs := range wantRuns {
		if !slices.Equal(runs[g], dirs) {
			t.Errorf("whole tree: %s ran in %q, want %q", g, runs[g], dirs)
		}
	}

	// A change limited to the crate: its compile error fixed.
	writeIn(t, root, "crates/core/src/lib.rs", monorepoFiles(false)["crates/core/src/lib.rs"])
	code, gates = evalMonorepo(t, root, "--changed-since", base)
	if code != 0 {
		t.Errorf("--changed-since: exit %d, want 0 (only the fixed crate is judged): %+v", code, gates)
	}
	for _, g := range []string{"cargo_check", "clippy"} {
		if gates[g].Outcome != "PASSED" {
			t.Errorf("--changed-since: %s %+v, want PASSED", g, gates[g])
		}
	}
	for _, g := range []string{"tsc", "golangci_lint", "helm_lint", "hadolint"} {
		if got := gates[g]; got.Outcome != "NOT_APPLICABLE" || len(got.Reasons) != 1 || got.Reasons[0].Code != "no_files" {
			t.Errorf("--changed-since: %s %+v, want NOT_APPLICABLE no_files", g, got)
		}
	}
	runs, reasons := rootRuns(t, root, base, stackGates)
	for _, g := range stackGates {
		want, wantReason := []string{}, "no_files"
		if g == "cargo_check" || g == "clippy" {
			want, wantReason = []string{"crates/core"}, ""
		}
		if !slices.Equal(runs[g], want) || reasons[g] != wantReason {
			t.Errorf("--changed-since: %s ran in %q (reason %q), want %q (%q)", g, runs[g], reasons[g], want, wantReason)
		}
	}
}
