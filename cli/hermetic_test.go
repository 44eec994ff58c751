package cli_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/tausik/tausik/cli"
)

// hermeticProject is a project whose team gates have end-to-end (tree/)
// fixtures, one in each policy language, next to an EXCUSED gate backed by
// the project's own Go tests.
const hermeticProject = `
-- tausik/gates.json --
{"gates": {"filesize": {"params": {"max_lines": 400}}}}
-- src/main.py --
print("main")
-- pkg/x_test.go --
package pkg

import "testing"

func TestNetRed(t *testing.T) {}

func TestNetGreen(t *testing.T) {}
-- tausik/policies/no_tmp/gate.yaml --
name: no_tmp
description: fails on files with a .tmp extension
prevents: committing editor temp files
phase: scoped
triggers: [commit]
severity: block
enabled: true
language: cel
facts: [files]
-- tausik/policies/no_tmp/policy.cel.yaml --
violations:
  - rule: tmp
    expr: >-
      input.files.files.filter(f, f.exists && f.ext == ".tmp")
        .map(f, {"msg": f.path + " is a temp file", "file": f.path})
-- tausik/policies/no_tmp/fixtures/violating/case.yaml --
description: a temp file in the tree fails
expect: {outcome: FAILED, violations: 1, messages: ["src/a.tmp is a temp file"]}
-- tausik/policies/no_tmp/fixtures/violating/tree/src/a.tmp --
x
-- tausik/policies/no_tmp/fixtures/clean/case.yaml --
description: a tree without temp files passes
expect: {outcome: PASSED}
-- tausik/policies/no_tmp/fixtures/clean/tree/src/a.txt --
x
-- tausik/policies/no_empty/gate.yaml --
name: no_empty
description: fails on empty files, which are usually mistakes
prevents: committing an empty file
phase: scoped
triggers: [commit]
severity: warn
enabled: true
language: rego
facts: [files]
-- tausik/policies/no_empty/policy.rego --
package tausik.gates.no_empty

violations contains v if {
	some f in input.files.files
	f.exists
	f.size == 0
	v := {"msg": sprintf("%s is empty", [f.path]), "file": f.path}
}
-- tausik/policies/no_empty/fixtures/violating/case.yaml --
description: an empty file in the tree fails
expect: {outcome: FAILED, violations: 1, messages: ["docs/empty.md is empty"]}
-- tausik/policies/no_empty/fixtures/violating/tree/docs/empty.md --
-- tausik/policies/no_empty/fixtures/violating/tree/docs/full.md --
# full
-- tausik/policies/no_empty/fixtures/clean/case.yaml --
description: a tree without empty files passes
expect: {outcome: PASSED}
-- tausik/policies/no_empty/fixtures/clean/tree/docs/full.md --
# full
-- tausik/policies/host_wired/gate.yaml --
name: host_wired
description: fails unless the claude generator wires a Stop hook
prevents: a host wiring without its Stop hook
phase: scoped
triggers: [commit]
severity: warn
enabled: true
language: rego
facts: [hosts]
-- tausik/policies/host_wired/policy.rego --
package tausik.gates.host_wired

violations contains {"msg": "no Stop hook"} if {
	not input.hosts.hosts.claude.generated.capabilities["hook:Stop:done.py"]
}
-- tausik/policies/host_wired/fixtures/wired/case.yaml --
description: a generator that writes its wiring, and tries HOME, TMPDIR and its working directory too
expect: {outcome: PASSED}
-- tausik/policies/host_wired/fixtures/wired/tree/tausik/gates.json --
{"generators": {"claude": {"argv": ["python3", "gen.py", "{out}"], "format": "claude-settings"}}}
-- tausik/policies/host_wired/fixtures/wired/tree/gen.py --
import json, os, sys
os.makedirs(os.path.join(sys.argv[1], ".claude"))
json.dump({"hooks": {"Stop": [{"hooks": [{"command": "python3 done.py"}]}]}}, open(os.path.join(sys.argv[1], ".claude", "settings.json"), "w"))
for d in (os.path.expanduser("~"), os.environ.get("TMPDIR", "/tmp"), os.getcwd()):
    open(os.path.join(d, "generator-was-here"), "w").write("x")
-- tausik/policies/host_wired/fixtures/unwired/case.yaml --
description: a generator that wires nothing the gate wants
expect: {outcome: FAILED}
-- tausik/policies/host_wired/fixtures/unwired/tree/tausik/gates.json --
{"generators": {"claude": {"argv": ["python3", "gen.py", "{out}"], "format": "claude-settings"}}}
-- tausik/policies/host_wired/fixtures/unwired/tree/gen.py --
import json, os, sys
os.makedirs(os.path.join(sys.argv[1], ".claude"))
json.dump({"hooks": {}}, open(os.path.join(sys.argv[1], ".claude", "settings.json"), "w"))
-- tausik/policies/net_check/gate.yaml --
name: net_check
description: checks a live service that no fixture can stand in for
prevents: a commit while the service check fails
phase: scoped
triggers: [commit]
severity: warn
enabled: false
language: cel
facts: [files]
-- tausik/policies/net_check/policy.cel.yaml --
violations:
  - rule: never
    expr: '[]'
-- tausik/policies/net_check/excused.yaml --
reason: the verdict depends on a live network service that no fixture can stand in for
red_test: TestNetRed
green_test: TestNetGreen
`

// TestPolicyTestIsHermetic runs a full `policy test` in-process over a copy
// of hermeticProject and proves docs/command-gates.md's promise that fixture runs are
// hermetic: afterwards the project tree, HOME and the working directory are
// byte-identical (paths, modes, contents) and TMPDIR, where the fixture
// copies go, is empty again. A fixture runner that forgot to remove its
// temporary copy, or wrote into the project or HOME, fails this test; so
// does a host generator (host_wired's fixtures run one that writes into
// HOME, TMPDIR and its working directory) that is not kept in its temp dir.
func TestPolicyTestIsHermetic(t *testing.T) {
	base := t.TempDir()
	dirs := map[string]string{}
	for _, name := range []string{"project", "home", "tmp", "cwd"} {
		dirs[name] = filepath.Join(base, name)
		if err := os.MkdirAll(dirs[name], 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeArchive(t, dirs["project"], hermeticProject)
	writeArchive(t, dirs["home"], "-- .tausik/config.json --\n{\"gates\": {}}\n")
	t.Setenv("HOME", dirs["home"])
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dirs["home"], ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(dirs["home"], ".cache"))
	t.Setenv("TMPDIR", dirs["tmp"])
	t.Setenv("TAUSIK_USER_CONFIG", "")
	t.Setenv("TAUSIK_MANAGED_CONFIG", "")
	t.Chdir(dirs["cwd"])

	before := map[string]map[string]string{}
	for _, name := range []string{"project", "home", "cwd"} {
		before[name] = snapshot(t, dirs[name])
	}

	var stdout, stderr strings.Builder
	code := cli.Run(context.Background(), []string{"--root", dirs["project"], "policy", "test", "-v"},
		strings.NewReader(""), &stdout, &stderr)
	if code != 0 {
		t.Fatalf("policy test exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	// The tree fixtures really ran, so there was something to clean up.
	for _, want := range []string{
		"ok    no_tmp/violating (FAILED)", "ok    no_tmp/clean (PASSED)",
		"ok    no_empty/violating (FAILED)", "ok    no_empty/clean (PASSED)",
		"ok    net_check (EXCUSED: TestNetRed, TestNetGreen)",
		"ok    host_wired/wired (PASSED)", "ok    host_wired/unwired (FAILED)",
		"ok    filesize/over_limit (FAILED)",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}

	for _, name := range []string{"project", "home", "cwd"} {
		if diff := diffSnapshots(before[name], snapshot(t, dirs[name])); diff != "" {
			t.Errorf("policy test changed %s:\n%s", name, diff)
		}
	}
	if left := snapshot(t, dirs["tmp"]); len(left) > 0 {
		t.Errorf("policy test left files in TMPDIR:\n%s", diffSnapshots(nil, left))
	}
}

// TestPolicyTestUsesTMPDIR shows that tree fixtures are copied under
// $TMPDIR, so that TestPolicyTestIsHermetic's empty-TMPDIR check watches the
// place where the copies really go: with TMPDIR missing, they cannot run.
func TestPolicyTestUsesTMPDIR(t *testing.T) {
	base := t.TempDir()
	project := filepath.Join(base, "project")
	writeArchive(t, project, hermeticProject)
	t.Setenv("HOME", filepath.Join(base, "home"))
	t.Setenv("TMPDIR", filepath.Join(base, "no-such-dir"))
	t.Setenv("TAUSIK_USER_CONFIG", "")
	t.Setenv("TAUSIK_MANAGED_CONFIG", "")

	var stdout, stderr strings.Builder
	code := cli.Run(context.Background(), []string{"--root", project, "policy", "test", "--gate", "no_tmp"},
		strings.NewReader(""), &stdout, &stderr)
	if code != 4 {
		t.Fatalf("policy test exited %d, want 4\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "fixture temp dir: ") || !strings.Contains(stdout.String(), "no-such-dir") {
		t.Errorf("stdout does not blame the missing TMPDIR:\n%s", stdout.String())
	}
}

// writeArchive writes the files of a txtar archive under dir.
func writeArchive(t *testing.T, dir, archive string) {
	t.Helper()
	for _, f := range txtar.Parse([]byte(archive)).Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshot describes every entry below dir by its slash-separated relative
// path: its mode, and the sha256 of a file's content or a symlink's target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		desc := info.Mode().String()
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out[filepath.ToSlash(rel)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffSnapshots lists what was added, removed or changed from a to b.
func diffSnapshots(a, b map[string]string) string {
	var lines []string
	for p, d := range a {
		switch bd, ok := b[p]; {
		case !ok:
			lines = append(lines, "- "+p)
		case bd != d:
			lines = append(lines, fmt.Sprintf("~ %s: %s => %s", p, d, bd))
		}
	}
	for p, d := range b {
		if _, ok := a[p]; !ok {
			lines = append(lines, "+ "+p+" "+d)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
