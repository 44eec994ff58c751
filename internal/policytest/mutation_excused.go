package policytest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/gate"
)

// excusedKiller readies an excused gate's mutants: its red and green Go
// tests are found in the project's sources, their package's test binary is
// built once, and each mutant runs both tests with gate.EnvMutantBundle
// naming a directory that holds only that mutant. A mutant is killed when
// either test fails. The tests must drive the engine in-process (a test
// that runs the tausik binary would not see the mutant).
func excusedKiller(ctx context.Context, e *engine.Engine, g *gate.Gate, r *gateRun) (func(context.Context, []byte) mutantResult, []string) {
	rep := r.rep
	projectTests := func() (map[string]bool, error) { return projectGoTests(e.Root()) }
	ex, problems := checkExcused(e, g, projectTests)
	if len(problems) > 0 {
		rep.Problems = append(rep.Problems, problems...)
		return nil, nil
	}
	pkg, err := testPackage(e.Root(), ex.RedTest, ex.GreenTest)
	if err != nil {
		rep.NotMutated = err.Error()
		return nil, nil
	}
	work, err := os.MkdirTemp("", "tausik-mutate-")
	if err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("temp dir: %v", err))
		return nil, nil
	}
	r.cleanup = func() { _ = removeFixtureDir(work) } // after every mutant ran
	bin := filepath.Join(work, "excused.test")
	build := exec.CommandContext(ctx, "go", "test", "-c", "-o", bin, ".")
	build.Dir = pkg
	if out, err := build.CombinedOutput(); err != nil {
		rep.NotMutated = fmt.Sprintf("its Go tests' package %s does not build: %v: %s", pkg, err, strings.TrimSpace(string(out)))
		return nil, nil
	}
	pattern := "^(" + ex.RedTest + "|" + ex.GreenTest + ")$"
	run := func(ctx context.Context, bundle string) error {
		cmd := exec.CommandContext(ctx, bin, "-test.run", pattern, "-test.count=1")
		cmd.Dir = pkg
		cmd.Env = append(os.Environ(), gate.EnvMutantBundle+"="+bundle)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%v: %s", err, strings.TrimSpace(out.String()))
		}
		if !strings.Contains(out.String(), "PASS") {
			return fmt.Errorf("the tests did not run: %s", strings.TrimSpace(out.String()))
		}
		return nil
	}
	if err := run(ctx, ""); err != nil {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%s and %s fail on the unmutated policy: %v", ex.RedTest, ex.GreenTest, err))
		return nil, nil
	}
	policyFile := path.Base(g.PolicyFile)
	kill := func(ctx context.Context, src []byte) mutantResult {
		if _, err := g.WithPolicySource(ctx, src); err != nil {
			return resultDiscarded
		}
		dir, err := os.MkdirTemp(work, "mutant-")
		if err != nil {
			return resultKilled
		}
		defer os.RemoveAll(dir)
		if err := os.MkdirAll(filepath.Join(dir, g.Name), 0o755); err != nil {
			return resultKilled
		}
		if err := os.WriteFile(filepath.Join(dir, g.Name, policyFile), src, 0o644); err != nil {
			return resultKilled
		}
		if run(ctx, dir) != nil {
			return resultKilled
		}
		return resultSurvived
	}
	return kill, []string{ex.RedTest, ex.GreenTest}
}

// testPackage returns the directory of the Go package below root that
// declares both tests.
func testPackage(root, red, green string) (string, error) {
	found := map[string]string{}
	err := walkTestFiles(root, func(p string) error {
		known := map[string]bool{}
		if err := scanTestFuncs(p, known); err != nil {
			return err
		}
		for _, t := range []string{red, green} {
			if known[t] {
				found[t] = filepath.Dir(p)
			}
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("list the project's Go tests: %w", err)
	}
	switch {
	case found[red] == "" || found[green] == "":
		return "", fmt.Errorf("its Go tests %s and %s are not both in the sources below %s (a built-in gate's are in tausik's own repository)", red, green, root)
	case found[red] != found[green]:
		return "", fmt.Errorf("its Go tests %s and %s are in different packages (%s, %s); mutation testing runs one test binary", red, green, found[red], found[green])
	}
	return found[red], nil
}
