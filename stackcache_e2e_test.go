package main

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// cacheGates are the stack gates the run-cache attack drives, each with
// the prefix of the log line (see logShims) of a run of its tool proper,
// as opposed to a version probe.
var cacheGates = map[string]string{
	"tsc":           "tsc --noEmit",
	"cargo_check":   "cargo check",
	"clippy":        "cargo clippy --all-targets",
	"golangci_lint": "golangci-lint run",
	"shellcheck":    "shellcheck -f",
}

// cacheTree is a monorepo with one finding for each of cacheGates: a type
// error (web/), an unknown name (crates/core/), a self-assignment (svc/),
// an unquoted expansion (scripts/). .shellcheckrc and Cargo.lock are
// ignored, so only the inputs around a root can show them.
func cacheTree() map[string]string {
	return map[string]string{
		".gitignore":             "target/\nCargo.lock\n.shellcheckrc\n",
		"tausik/gates.json":      "{}\n",
		"web/package.json":       `{"name": "web", "version": "1.0.0", "private": true}` + "\n",
		"web/tsconfig.json":      `{"compilerOptions": {"strict": true, "noEmit": true, "target": "ES2020", "module": "commonjs"}, "include": ["src"]}` + "\n",
		"web/src/index.ts":       "export function double(n: number): number {\n  return n * 2;\n}\n\nexport const label: string = double(2);\n",
		"crates/core/Cargo.toml": "[package]\nname = \"core_math\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n",
		"crates/core/src/lib.rs": "pub fn one() -> i32 {\n    let s: i32 = 1;\n    s + x\n}\n",
		"svc/go.mod":             "module example.test/svc\n\ngo 1.22\n",
		"svc/.golangci.yml":      "version: \"2\"\nlinters:\n  default: none\n  enable: [govet]\n",
		"svc/vet.go":             "package svc\n\n// Sum returns x+y.\nfunc Sum(x, y int) int {\n\tx = x\n\treturn x + y\n}\n",
		"scripts/copy.sh":        "#!/bin/sh\ncp --  $1  \"$2\"\n",
	}
}

// cacheEdits are same-size edits of cacheTree, each giving its gate
// another finding.
var cacheEdits = map[string][2]string{
	"web/src/index.ts":       {"label: string", "flag: boolean"},
	"crates/core/src/lib.rs": {"s + x", "s + y"},
	"svc/vet.go":             {"\tx = x", "\ty = y"},
	"scripts/copy.sh":        {`cp --  $1  "$2"`, `cp -- "$1"  $2 `},
}

// realTools finds the tools the shims stand in front of.
func realTools(t *testing.T) map[string]string {
	t.Helper()
	reals := map[string]string{}
	for _, tool := range []string{"tsc", "cargo", "golangci-lint", "shellcheck"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Fatal(err)
		}
		if reals[tool], err = filepath.Abs(p); err != nil {
			t.Fatal(err)
		}
	}
	return reals
}

// logShims puts on PATH, before the real tools, a script per tool that
// appends its arguments to log and execs the real tool: the count of a
// tool's runs, independent of what tausik says it did.
func logShims(t *testing.T, dir, log string, reals map[string]string) {
	t.Helper()
	writeShims(t, dir, log, reals, "")
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// writeShims writes logShims' scripts into dir, each with the comment
// mark.
func writeShims(t *testing.T, dir, log string, reals map[string]string, mark string) {
	t.Helper()
	for tool, real := range reals {
		shim := fmt.Sprintf("#!/bin/sh\n# %s\necho \"%s $*\" >> '%s'\nexec '%s' \"$@\"\n", mark, tool, log, real)
		if err := os.WriteFile(filepath.Join(dir, tool), []byte(shim), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// toolRuns reads and empties log, and returns how often each gate's tool
// ran (version probes left out).
func toolRuns(t *testing.T, log string) map[string]int {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	runs := map[string]int{}
	for _, line := range strings.Split(string(b), "\n") {
		for g, prefix := range cacheGates {
			if strings.HasPrefix(line, prefix) {
				runs[g]++
			}
		}
	}
	return runs
}

// cacheEval evaluates cacheGates at commit and returns each gate's
// outcome and violation messages, and how often each tool ran.
func cacheEval(t *testing.T, root, log string) (map[string]string, map[string]int) {
	t.Helper()
	args := []string{}
	for g := range cacheGates {
		args = append(args, "--gate", g)
	}
	_, gates := evalMonorepo(t, root, args...)
	got := map[string]string{}
	for g := range cacheGates {
		s := gates[g].Outcome
		for _, v := range gates[g].Violations {
			s += " | " + v.Msg
		}
		got[g] = s
	}
	return got, toolRuns(t, log)
}

// TestStackRunCacheAttack attacks the stack gates' run cache with the real
// tools (tsc, cargo check, clippy, golangci-lint, shellcheck) in a
// throwaway monorepo: an unchanged tree runs no tool and gives the same
// verdicts; a same-size edit with the old mtime, a changed or ignored
// config, another binary, or turning the cache off runs them again; a run
// that failed is not kept; files and tools written again with the same
// bytes (a CI job restoring .tausik) hit.
func TestStackRunCacheAttack(t *testing.T) {
	stackToolsEnv(t)
	if _, err := exec.LookPath("shellcheck"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shellcheck is not installed: %v", err)
		}
		t.Skipf("shellcheck is not installed: %v", err)
	}
	t.Setenv("TAUSIK_COMMAND_CACHE", "")
	a := &cacheAttack{t: t, shims: t.TempDir(), root: t.TempDir(), old: time.Now().Add(-time.Hour).Truncate(time.Second)}
	a.log = filepath.Join(a.shims, "calls.log")
	a.reals = realTools(t)
	logShims(t, a.shims, a.log, a.reals)
	for p, content := range cacheTree() {
		writeOld(t, a.root, p, content, a.old)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "tree"}} {
		monoGit(t, a.root, args...)
	}
	a.unchanged()
	a.sameSizeEdits()
	a.configs()
	a.binaries()
	a.failures()
	a.off()
	a.restored()
}

// cacheAttack is the state TestStackRunCacheAttack's steps share.
type cacheAttack struct {
	t                *testing.T
	root, shims, log string
	other            string // a second directory of shims, earlier on PATH
	reals            map[string]string
	old              time.Time
}

var (
	allRuns = map[string]int{"tsc": 1, "cargo_check": 1, "clippy": 1, "golangci_lint": 1, "shellcheck": 1}
	noRuns  = map[string]int{}
)

// eval is cacheEval in the attack's tree.
func (a *cacheAttack) eval() (map[string]string, map[string]int) {
	return cacheEval(a.t, a.root, a.log)
}

// unchanged: findings F, then the same verdicts from an unchanged tree,
// no tool run.
func (a *cacheAttack) unchanged() {
	t := a.t
	first, runs := a.eval()
	wantRuns(t, "first eval", runs, allRuns)
	for g, s := range first {
		if !strings.HasPrefix(s, "FAILED | ") {
			t.Errorf("first eval: %s = %s, want FAILED with a finding", g, s)
		}
	}
	// cargo wrote the crate's Cargo.lock, an input (ignored by git, read
	// around the root) that changed while it ran: that run was not kept.
	again, runs := a.eval()
	wantRuns(t, "Cargo.lock written", runs, map[string]int{"cargo_check": 1, "clippy": 1})
	wantSame(t, "Cargo.lock written", again, first)
	again, runs = a.eval()
	wantRuns(t, "unchanged tree", runs, noRuns)
	wantSame(t, "unchanged tree", again, first)
	// A task's verification runs every tool again, whatever is kept.
	args := []string{"--trigger", "verify"}
	for g := range cacheGates {
		args = append(args, "--gate", g)
	}
	evalMonorepo(t, a.root, args...)
	wantRuns(t, "verify", toolRuns(t, a.log), allRuns)
}

// sameSizeEdits: edits keeping each file's size, its mtime set back: each
// tool runs and the new finding shows.
func (a *cacheAttack) sameSizeEdits() {
	t := a.t
	for p, e := range cacheEdits {
		content := strings.Replace(cacheTree()[p], e[0], e[1], 1)
		if len(content) != len(cacheTree()[p]) {
			t.Fatalf("%s: the edit changes the size", p)
		}
		writeOld(t, a.root, p, content, a.old)
	}
	edited, runs := a.eval()
	wantRuns(t, "same-size edits", runs, allRuns)
	for g, want := range map[string]string{"tsc": "'boolean'", "cargo_check": "`y`", "clippy": "`y`",
		"golangci_lint": "self-assignment of y", "shellcheck": "scripts/copy.sh:2:13:"} {
		if !strings.Contains(edited[g], want) {
			t.Errorf("same-size edits: %s = %s, want a finding with %q", g, edited[g], want)
		}
	}
}

// configs: each tool's config changed; then a .shellcheckrc that git
// ignores.
func (a *cacheAttack) configs() {
	t := a.t
	appendIn(t, a.root, "web/tsconfig.json", "\n")
	appendIn(t, a.root, "crates/core/Cargo.toml", "# lints\n")
	appendIn(t, a.root, "svc/.golangci.yml", "# same linters\n")
	_, runs := a.eval()
	wantRuns(t, "configs changed", runs, allRuns)
	writeOld(t, a.root, ".shellcheckrc", "disable=SC2086\n", a.old)
	config, runs := a.eval()
	wantRuns(t, "ignored .shellcheckrc", runs, allRuns)
	if config["shellcheck"] != "PASSED" {
		t.Errorf("shellcheck with SC2086 disabled in the ignored .shellcheckrc: %s, want PASSED", config["shellcheck"])
	}
	_, runs = a.eval()
	wantRuns(t, "configs unchanged", runs, noRuns)
}

// binaries: each tool replaced where it is (PATH unchanged), then another
// binary of each tool earlier on PATH.
func (a *cacheAttack) binaries() {
	t := a.t
	writeShims(t, a.shims, a.log, a.reals, "rebuilt")
	_, runs := a.eval()
	wantRuns(t, "binaries replaced", runs, allRuns)
	a.other = t.TempDir()
	logShims(t, a.other, a.log, a.reals)
	_, runs = a.eval()
	wantRuns(t, "other binaries", runs, allRuns)
}

// failures: tools that fail run again: golangci-lint on a broken config
// (its output does not parse), cargo on a broken manifest (exit 101, no
// finding).
func (a *cacheAttack) failures() {
	t := a.t
	writeOld(t, a.root, "svc/.golangci.yml", "version: \"2\"\nlinters: [\n", a.old)
	writeOld(t, a.root, "crates/core/Cargo.toml", "[package\n", a.old)
	for i := range 2 {
		broken, runs := a.eval()
		for _, g := range []string{"golangci_lint", "cargo_check", "clippy"} {
			if !strings.HasPrefix(broken[g], "COULD_NOT_RUN") || runs[g] != 1 {
				t.Errorf("broken config, eval %d: %s %s ran %d times, want COULD_NOT_RUN and one run", i+1, g, broken[g], runs[g])
			}
		}
	}
}

// off: the cache turned off by the environment, then by the user tier.
func (a *cacheAttack) off() {
	t := a.t
	t.Setenv("TAUSIK_COMMAND_CACHE", "off")
	_, runs := a.eval()
	wantRuns(t, "TAUSIK_COMMAND_CACHE=off", runs, allRuns)
	t.Setenv("TAUSIK_COMMAND_CACHE", "")
	user := filepath.Join(t.TempDir(), "user.json")
	if err := os.WriteFile(user, []byte(`{"command_cache": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TAUSIK_USER_CONFIG", user)
	_, runs = a.eval()
	wantRuns(t, "command_cache: false", runs, allRuns)
	t.Setenv("TAUSIK_USER_CONFIG", filepath.Join(t.TempDir(), "none.json"))
}

// restored: a CI job restoring .tausik onto a fresh checkout at the same
// path and freshly installed tools of the same build: every file and tool
// written again with the same bytes (new stamps) runs no tool.
func (a *cacheAttack) restored() {
	t := a.t
	for p, content := range cacheTree() {
		writeOld(t, a.root, p, content, a.old)
	}
	a.eval()
	a.eval() // cargo's run is kept once its Cargo.lock is there
	if _, runs := a.eval(); len(runs) != 0 {
		t.Fatalf("the tree unchanged: runs %v, want none", runs)
	}
	for _, p := range append(slices.Collect(maps.Keys(cacheTree())), "crates/core/Cargo.lock", ".shellcheckrc") {
		content := readIn(t, a.root, p)
		if err := os.Remove(filepath.Join(a.root, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
		writeIn(t, a.root, p, content)
	}
	writeShims(t, a.other, a.log, a.reals, "")
	_, runs := a.eval()
	wantRuns(t, "files and tools rewritten with the same bytes", runs, noRuns)
}

// writeOld writes content at rel under root with old as its times.
func writeOld(t *testing.T, root, rel, content string, old time.Time) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
}

func appendIn(t *testing.T, root, rel, more string) {
	t.Helper()
	writeIn(t, root, rel, readIn(t, root, rel)+more)
}

// wantRuns checks how often each gate's tool ran (absent: 0).
func wantRuns(t *testing.T, step string, got, want map[string]int) {
	t.Helper()
	for g := range cacheGates {
		if got[g] != want[g] {
			t.Errorf("%s: %s ran %d times, want %d", step, g, got[g], want[g])
		}
	}
}

// wantSame checks that every gate has the verdict it had.
func wantSame(t *testing.T, step string, got, want map[string]string) {
	t.Helper()
	for g := range cacheGates {
		if got[g] != want[g] {
			t.Errorf("%s: %s = %s, want %s as before", step, g, got[g], want[g])
		}
	}
}
