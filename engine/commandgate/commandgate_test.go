package commandgate

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/command"
	"github.com/tausik/tausik/runners/stacks"
)

// mkfile writes text to root/rel, making its directories; mode 0o755 makes
// an executable.
func mkfile(t *testing.T, root, rel, text string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestStackToolEnv(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "fixture")
	// A rustup install: the cargo proxy in <u>/.cargo/bin, toolchains in <u>/.rustup.
	rustupUser := filepath.Join(tmp, "u")
	mkfile(t, rustupUser, ".cargo/bin/cargo", "#!/bin/sh\n", 0o755)
	mkfile(t, rustupUser, ".rustup/toolchains/README", "", 0o644)
	// A cargo outside any .cargo/bin (a distribution's package), with a
	// .rustup two levels up that is not rustup's.
	mkfile(t, tmp, "dist/usr/bin/cargo", "#!/bin/sh\n", 0o755)
	mkfile(t, tmp, "dist/.rustup/x", "", 0o644)
	// A cargo in a .cargo/bin with no .rustup beside it.
	mkfile(t, tmp, "lone/.cargo/bin/cargo", "#!/bin/sh\n", 0o755)
	home := filepath.Join(tmp, "home")
	mkfile(t, home, ".rustup/settings.toml", "", 0o644)
	bare := filepath.Join(tmp, "bare")
	if err := os.MkdirAll(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	cargoHome := "CARGO_HOME=" + filepath.Join(dir, ".cargo")
	cases := []struct {
		name, rustupHome, path, home string
		want                         []string
	}{
		{"RUSTUP_HOME set wins", "/opt/rustup", filepath.Join(rustupUser, ".cargo", "bin"), home, []string{cargoHome, "RUSTUP_HOME=/opt/rustup"}},
		{"beside cargo's proxy", "", filepath.Join(rustupUser, ".cargo", "bin"), home, []string{cargoHome, "RUSTUP_HOME=" + filepath.Join(rustupUser, ".rustup")}},
		{"the home directory's", "", filepath.Join(tmp, "dist", "usr", "bin"), home, []string{cargoHome, "RUSTUP_HOME=" + filepath.Join(home, ".rustup")}},
		{"no .rustup beside cargo", "", filepath.Join(tmp, "lone", ".cargo", "bin"), home, []string{cargoHome, "RUSTUP_HOME=" + filepath.Join(home, ".rustup")}},
		{"no cargo, no rustup", "", bare, bare, []string{cargoHome}},
		{"cargo without rustup anywhere", "", filepath.Join(tmp, "lone", ".cargo", "bin"), bare, []string{cargoHome}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("RUSTUP_HOME", tc.rustupHome)
			t.Setenv("PATH", tc.path)
			t.Setenv("HOME", tc.home)
			if got := stackToolEnv(dir); !slices.Equal(got, tc.want) {
				t.Errorf("stackToolEnv = %q, want %q", got, tc.want)
			}
		})
	}
}

// gatherReal gathers a runner for real, counting the calls.
func gatherReal(n *int) GatherOne {
	return func(ctx context.Context, r runners.Runner, scope *runners.Scope) facts.Namespace {
		*n++
		return r.Gather(ctx, scope)
	}
}

// ruffProject is a project that uses ruff (a ruff.toml) and no other tool.
func ruffProject(t *testing.T) string {
	root := t.TempDir()
	mkfile(t, root, "ruff.toml", "line-length = 100\n", 0o644)
	mkfile(t, root, "app.py", "x = 1\n", 0o644)
	return root
}

func TestStacksFirst(t *testing.T) {
	ctx := context.Background()
	root := ruffProject(t)
	reg := runners.NewRegistry(stacks.New())
	scope := runners.NewScope(root, facts.Request{})

	var n int
	doc, took := facts.NewDocument(), map[string]int64{}
	done := StacksFirst(ctx, reg, gatherReal(&n), scope, []string{"files", stacks.Namespace, "ruff", "mypy"}, doc, took)
	if !slices.Equal(done, []string{stacks.Namespace, "mypy"}) {
		t.Errorf("done = %q, want stacks and mypy (ruff is used, files is no tool)", done)
	}
	if ns := doc.Namespaces["mypy"]; ns.Status != facts.StatusUnavailable || ns.Reason != ReasonNotUsed {
		t.Errorf("mypy = %+v, want unavailable %s", ns, ReasonNotUsed)
	}
	if _, set := doc.Namespaces["ruff"]; set {
		t.Error("ruff's namespace was set: the project uses ruff, its runner must run")
	}
	if ns := doc.Namespaces[stacks.Namespace]; ns.Status != facts.StatusOK || n != 1 {
		t.Errorf("stacks = %+v after %d gathers, want ok after one", ns.Status, n)
	}
	if _, ok := took[stacks.Namespace]; !ok {
		t.Error("the time stacks took is not recorded")
	}

	// Nothing is gathered when there is no tool namespace, no stacks
	// namespace needed, or no stacks runner.
	for _, tc := range []struct {
		name  string
		reg   *runners.Registry
		needs []string
	}{
		{"no tool", reg, []string{"files", stacks.Namespace}},
		{"stacks not needed", reg, []string{"ruff", "mypy"}},
		{"no stacks runner", runners.NewRegistry(), []string{stacks.Namespace, "mypy"}},
	} {
		n = 0
		doc := facts.NewDocument()
		if done := StacksFirst(ctx, tc.reg, gatherReal(&n), scope, tc.needs, doc, map[string]int64{}); done != nil || n != 0 || len(doc.Namespaces) != 0 {
			t.Errorf("%s: done %q after %d gathers, document %v; want nothing", tc.name, done, n, doc.Namespaces)
		}
	}
}

// partial is a stacks namespace in error that still holds facts: nothing
// in it may be trusted.
func partial(context.Context, runners.Runner, *runners.Scope) facts.Namespace {
	return facts.Namespace{Status: facts.StatusError, Reason: "cannot list the files",
		Data: stacks.Facts{Tools: map[string]stacks.Tool{"mypy": {}, "ruff": {}}}}
}

func TestStacksFirstFailsOpenToRunning(t *testing.T) {
	ctx := context.Background()
	reg := runners.NewRegistry(stacks.New())
	broken := partial
	doc := facts.NewDocument()
	done := StacksFirst(ctx, reg, broken, runners.NewScope(t.TempDir(), facts.Request{}), []string{stacks.Namespace, "mypy", "ruff"}, doc, map[string]int64{})
	if !slices.Equal(done, []string{stacks.Namespace}) || len(doc.Namespaces) != 1 {
		t.Errorf("done %q, document %v: want only stacks set, every tool left to run", done, doc.Namespaces)
	}
}

func TestToolUse(t *testing.T) {
	ctx := context.Background()
	root := ruffProject(t)
	set := NewSet(command.Defaults())
	var n int
	unused := set.ToolUse(ctx, runners.NewRegistry(stacks.New()), gatherReal(&n), root)
	for _, tc := range []struct {
		gate string
		want bool
	}{
		{"mypy", true},
		{"bandit", true},
		{"ruff", false},
		{"secret_scan", false}, // not a command gate
		{"no_such_gate", false},
	} {
		if got := unused(tc.gate); got != tc.want {
			t.Errorf("unused(%s) = %v, want %v", tc.gate, got, tc.want)
		}
	}
	if n != 1 {
		t.Errorf("stacks gathered %d times, want once", n)
	}
	// Stacks that cannot be gathered: every tool counts as used.
	broken := set.ToolUse(ctx, runners.NewRegistry(stacks.New()), partial, root)
	if broken("mypy") {
		t.Error("stacks in error: mypy counted as unused")
	}
	if none := set.ToolUse(ctx, runners.NewRegistry(), gatherReal(&n), root); none("mypy") {
		t.Error("no stacks runner: mypy counted as unused")
	}
	var nilSet *Set
	if nilSet.ToolUse(ctx, runners.NewRegistry(stacks.New()), gatherReal(&n), root)("mypy") {
		t.Error("a nil set has a built-in mypy")
	}
}

// outcome is a policy result as a verdict names it.
func outcome(r policy.Result) string {
	switch {
	case len(r.CouldNotRun) > 0:
		return "COULD_NOT_RUN"
	case len(r.NotApplicable) > 0:
		return "NOT_APPLICABLE"
	case len(r.Violations) > 0:
		return "FAILED"
	}
	return "PASSED"
}

// TestGenericPolicyFixtures runs the generic command policy over each of
// its fixtures under a gate's own namespace name, as a team's command gate
// reads them.
func TestGenericPolicyFixtures(t *testing.T) {
	ctx := context.Background()
	gc, err := loadGenericCommand(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(gc.fixtures) != 8 || !strings.HasPrefix(gc.digest, "sha256:") {
		t.Fatalf("fixtures %q, digest %q", gc.fixtures, gc.digest)
	}
	for _, name := range gc.fixtures {
		t.Run(name, func(t *testing.T) {
			var c struct {
				Expect struct {
					Outcome    string   `yaml:"outcome"`
					Violations int      `yaml:"violations"`
					Messages   []string `yaml:"messages"`
					Reasons    []string `yaml:"reasons"`
				} `yaml:"expect"`
			}
			b, err := fs.ReadFile(gc.fsys, path.Join("fixtures", name, "case.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if err := yaml.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			b, err = fs.ReadFile(gc.fsys, path.Join("fixtures", name, "facts.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			doc["team_lint"] = doc[commandFixtureNS]
			delete(doc, commandFixtureNS)
			r, err := gc.policy.Eval(ctx, policy.NewInput(doc, map[string]any{ParamNamespace: "team_lint", ParamExclude: map[string]any{}}))
			if err != nil {
				t.Fatal(err)
			}
			if got := outcome(r); got != c.Expect.Outcome {
				t.Fatalf("outcome %s, want %s: %+v", got, c.Expect.Outcome, r)
			}
			if c.Expect.Violations > 0 && len(r.Violations) != c.Expect.Violations {
				t.Errorf("%d violations, want %d: %+v", len(r.Violations), c.Expect.Violations, r.Violations)
			}
			var said []string
			for _, v := range r.Violations {
				said = append(said, v.Msg)
			}
			var codes []string
			for _, x := range append(r.NotApplicable, r.CouldNotRun...) {
				said, codes = append(said, x.Msg), append(codes, x.Code)
			}
			for _, m := range c.Expect.Messages {
				if !slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, m) }) {
					t.Errorf("no message holds %q: %q", m, said)
				}
			}
			for _, code := range c.Expect.Reasons {
				if !slices.Contains(codes, code) {
					t.Errorf("reasons %q, want %s among them", codes, code)
				}
			}
		})
	}
}
