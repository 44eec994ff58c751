package runcache

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
)

// TestKeepable pins which root runs are kept: a result (exit 0, or a
// non-zero exit with a located finding), never a run that did not reach
// an exit code, whose output did not parse, or that exited non-zero
// without a finding (a crash or a broken config).
func TestKeepable(t *testing.T) {
	for _, c := range []struct {
		name string
		run  facts.RootRun
		want bool
	}{
		{"clean", facts.RootRun{Ran: true}, true},
		{"findings", facts.RootRun{Ran: true, ExitCode: 2, Findings: 3}, true},
		{"warnings at exit 0", facts.RootRun{Ran: true, Findings: 1}, true},
		{"crash", facts.RootRun{Ran: true, ExitCode: 1}, false},
		{"parse error", facts.RootRun{Ran: true, ExitCode: 1, Reason: "parse_error", Findings: 0}, false},
		{"timeout", facts.RootRun{ExitCode: -1, Reason: "timeout"}, false},
		{"not found", facts.RootRun{ExitCode: -1, Reason: "not_found"}, false},
		{"killed", facts.RootRun{ExitCode: -1, Reason: "killed"}, false},
		{"canceled", facts.RootRun{ExitCode: -1, Reason: "canceled"}, false},
	} {
		if got := Keepable(c.run); got != c.want {
			t.Errorf("%s: Keepable = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestKeyEnv: the key takes the last value of each variable, sorted, and
// leaves out only the volatile ones.
func TestKeyEnv(t *testing.T) {
	got := keyEnv([]string{"PWD=/a", "GOFLAGS=-x", "SHLVL=2", "GITHUB_RUN_ID=7", "TERM_SESSION_ID=9", "GOFLAGS=-mod=mod", "CUSTOM=1"})
	if want := []string{"CUSTOM=1", "GOFLAGS=-mod=mod"}; !slices.Equal(got, want) {
		t.Errorf("keyEnv = %q, want %q", got, want)
	}
}

// TestTreeDigest: content counts, and a listed directory (a submodule's
// work tree, whose files git does not list) makes the tree unkeyable.
func TestTreeDigest(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	write("a.txt", "one")
	write("b/c.txt", "two")
	git("init", "-q")
	d1 := treeDigest(ctx, nil, runners.NewScope(root, facts.Request{}))
	write("a.txt", "uno")
	d2 := treeDigest(ctx, nil, runners.NewScope(root, facts.Request{}))
	if d1 == "" || d2 == "" || d1 == d2 {
		t.Fatalf("digests %q, %q: want two different ones", d1, d2)
	}
	write("sub/inner.txt", "not listed")
	git("update-index", "--add", "--cacheinfo", "160000,"+strings.Repeat("ab", 20)+",sub")
	if d := treeDigest(ctx, nil, runners.NewScope(root, facts.Request{})); d != "" {
		t.Errorf("a tree with a submodule digests to %q, want none", d)
	}
}

// TestFileIDInterpreter: a script's identity names the interpreter its #!
// line runs, through env and its options.
func TestFileIDInterpreter(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	sh, _ = filepath.EvalSymlinks(sh)
	dir := t.TempDir()
	for _, line := range []string{"#!/usr/bin/env sh", "#!/usr/bin/env -S sh -e", "#!" + sh} {
		p := filepath.Join(dir, "tool")
		if err := os.WriteFile(p, []byte(line+"\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		id, interp := fileID(cache.LoadIndex(context.Background(), nil, "t", "1", "/"), p)
		if id == "" || interp == "" {
			t.Fatalf("%s: id %q, interpreter %q", line, id, interp)
		}
		if got, _ := filepath.EvalSymlinks(interp); got != sh {
			t.Errorf("%s: interpreter %q, want %q", line, interp, sh)
		}
	}
}
