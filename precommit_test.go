package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommitHook runs the real pre-commit (Debian's package) with the
// hook this repository declares in .pre-commit-hooks.yaml, the way a team
// adds it: a project's .pre-commit-config.yaml names the hook repository (a
// local git repository holding this file, cloned by pre-commit without a
// network) and the hook id. tausik is a freshly built binary on PATH
// (language: system). The files pre-commit passes are the scope: a file
// over filesize's limit fails `pre-commit run --all-files`, the same file
// excluded in the config is not judged, and once fixed the run passes.
func TestPreCommitHook(t *testing.T) {
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("pre-commit is not installed (Debian package pre-commit): %v", err)
		}
		t.Skipf("pre-commit is not installed (apt-get install pre-commit): %v", err)
	}
	bin := buildBinary(t)
	base := t.TempDir()
	env := append(os.Environ(),
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+filepath.Join(base, "home"), "PRE_COMMIT_HOME="+filepath.Join(base, "cache"),
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test",
		"TAUSIK_USER_CONFIG=", "TAUSIK_MANAGED_CONFIG=", "TAUSIK_DB=",
	)
	run := func(dir string, args ...string) (string, error) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(dir string, args ...string) string {
		t.Helper()
		out, err := run(dir, args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	write := func(p, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The hook repository: this repository's hook declaration, committed.
	hooks := filepath.Join(base, "hooks")
	decl, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(hooks, ".pre-commit-hooks.yaml"), string(decl))
	must(hooks, "git", "init", "-q", "-b", "main")
	must(hooks, "git", "add", "-A")
	must(hooks, "git", "commit", "-q", "-m", "hooks")
	rev := strings.TrimSpace(must(hooks, "git", "rev-parse", "HEAD"))

	// The project: a local clone of a temporary repository.
	origin := filepath.Join(base, "origin")
	write(filepath.Join(origin, "README.md"), "a small project\n")
	write(filepath.Join(origin, ".pre-commit-config.yaml"),
		"repos:\n  - repo: "+hooks+"\n    rev: "+rev+"\n    hooks:\n      - id: tausik\n        exclude: ^legacy/\n")
	must(origin, "git", "init", "-q", "-b", "main")
	must(origin, "git", "add", "-A")
	must(origin, "git", "commit", "-q", "-m", "init")
	work := filepath.Join(base, "work")
	must(base, "git", "clone", "-q", origin, work)

	long := strings.Repeat("x\n", 501)
	write(filepath.Join(work, "notes.sh"), long)
	write(filepath.Join(work, "legacy", "big.sh"), strings.Repeat("x\n", 900))
	must(work, "git", "add", "-A")
	out, err := run(work, "pre-commit", "run", "--all-files")
	if err == nil {
		t.Fatalf("pre-commit run passed with notes.sh over the limit:\n%s", out)
	}
	for _, want := range []string{"tausik policy eval", "Failed", "notes.sh: 501 lines (max 500)"} {
		if !strings.Contains(out, want) {
			t.Errorf("pre-commit output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "legacy/big.sh") {
		t.Errorf("legacy/big.sh, excluded in the config, was judged:\n%s", out)
	}

	write(filepath.Join(work, "notes.sh"), "short\n")
	must(work, "git", "add", "-A")
	out = must(work, "pre-commit", "run", "--all-files")
	if !strings.Contains(out, "Passed") {
		t.Errorf("pre-commit run did not report the hook passing:\n%s", out)
	}
	// legacy/big.sh is still 900 lines: only pre-commit's files were judged.
	if _, err := run(work, bin, "policy", "eval", "--trigger", "commit"); err == nil {
		t.Errorf("tausik over the whole project passed, so the hook's pass did not come from its scope")
	}
}
