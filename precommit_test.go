package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommitHook runs the real pre-commit (Debian's package) with the
// tausik-system hook this repository declares in .pre-commit-hooks.yaml,
// the way a team adds it: a project's .pre-commit-config.yaml names the
// hook repository (a local git repository holding this file, cloned by
// pre-commit without a network) and the hook id. tausik is a freshly built
// binary on PATH (language: system). The files pre-commit passes are the
// scope: a file over filesize's limit fails `pre-commit run --all-files`,
// the same file excluded in the config is not judged, and once fixed the
// run passes.
func TestPreCommitHook(t *testing.T) {
	requirePreCommit(t)
	bin := buildBinary(t)
	base := t.TempDir()
	pc := newPreCommit(t, base, filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	decl, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(base, "hooks")
	writeAt(t, filepath.Join(hooks, ".pre-commit-hooks.yaml"), string(decl))
	work := pc.project(hooks, "tausik-system")

	writeAt(t, filepath.Join(work, "legacy", "big.sh"), strings.Repeat("x\n", 900))
	pc.blocksThenPasses(work)
	// legacy/big.sh is still 900 lines: only pre-commit's files were judged.
	if _, err := pc.run(work, bin, "policy", "eval", "--trigger", "commit"); err == nil {
		t.Errorf("tausik over the whole project passed, so the hook's pass did not come from its scope")
	}
}

// TestPreCommitGolangHook runs the real pre-commit with the hook id tausik
// (language: golang) from a PATH that has go, git and pre-commit but no
// tausik: pre-commit builds tausik from the hook repository (a copy of this
// module's source, committed) with `go install`, once per environment, and
// the hook blocks an oversized file. The module cache and build cache are
// the machine's, so the build downloads nothing.
func TestPreCommitGolangHook(t *testing.T) {
	requirePreCommit(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Dir(goBin) + string(os.PathListSeparator) + "/usr/bin" + string(os.PathListSeparator) + "/bin"
	if p, err := lookPathIn("tausik", path); err == nil {
		t.Fatalf("the bare PATH %s has a tausik (%s): the test would not show pre-commit building it", path, p)
	}
	base := t.TempDir()
	pc := newPreCommit(t, base, path)
	for _, k := range []string{"GOMODCACHE", "GOCACHE"} {
		v, err := exec.Command(goBin, "env", k).Output()
		if err != nil {
			t.Fatal(err)
		}
		pc.env = append(pc.env, k+"="+strings.TrimSpace(string(v)))
	}
	hooks := filepath.Join(base, "hooks")
	files, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		b, err := os.ReadFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		writeAt(t, filepath.Join(hooks, f), string(b))
	}
	work := pc.project(hooks, "tausik")
	pc.blocksThenPasses(work)
}

func requirePreCommit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("pre-commit is not installed (Debian package pre-commit): %v", err)
		}
		t.Skipf("pre-commit is not installed (apt-get install pre-commit): %v", err)
	}
}

// lookPathIn is exec.LookPath over the directories of path.
func lookPathIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

func writeAt(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// preCommit runs git and pre-commit in a throwaway home, with PATH as given.
type preCommit struct {
	t    *testing.T
	base string
	env  []string
}

func newPreCommit(t *testing.T, base, path string) *preCommit {
	return &preCommit{t: t, base: base, env: append(os.Environ(),
		"PATH="+path,
		"HOME="+filepath.Join(base, "home"), "PRE_COMMIT_HOME="+filepath.Join(base, "cache"),
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.test", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.test",
		"TAUSIK_USER_CONFIG=", "TAUSIK_MANAGED_CONFIG=", "TAUSIK_DB=",
	)}
}

func (pc *preCommit) run(dir string, args ...string) (string, error) {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Env = dir, pc.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (pc *preCommit) must(dir string, args ...string) string {
	pc.t.Helper()
	out, err := pc.run(dir, args...)
	if err != nil {
		pc.t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// project commits the hook repository hooks and returns a clone of a
// project whose .pre-commit-config.yaml uses its hook id (legacy/ excluded).
func (pc *preCommit) project(hooks, id string) string {
	pc.must(hooks, "git", "init", "-q", "-b", "main")
	pc.must(hooks, "git", "add", "-A")
	pc.must(hooks, "git", "commit", "-q", "-m", "hooks")
	rev := strings.TrimSpace(pc.must(hooks, "git", "rev-parse", "HEAD"))
	origin := filepath.Join(pc.base, "origin")
	writeAt(pc.t, filepath.Join(origin, "README.md"), "a small project\n")
	writeAt(pc.t, filepath.Join(origin, ".pre-commit-config.yaml"),
		"repos:\n  - repo: "+hooks+"\n    rev: "+rev+"\n    hooks:\n      - id: "+id+"\n        exclude: ^legacy/\n")
	pc.must(origin, "git", "init", "-q", "-b", "main")
	pc.must(origin, "git", "add", "-A")
	pc.must(origin, "git", "commit", "-q", "-m", "init")
	work := filepath.Join(pc.base, "work")
	pc.must(pc.base, "git", "clone", "-q", origin, work)
	return work
}

// blocksThenPasses stages a file over filesize's limit: pre-commit fails
// naming it; once shortened, pre-commit passes.
func (pc *preCommit) blocksThenPasses(work string) {
	t := pc.t
	t.Helper()
	writeAt(t, filepath.Join(work, "notes.sh"), strings.Repeat("x\n", 501))
	pc.must(work, "git", "add", "-A")
	out, err := pc.run(work, "pre-commit", "run", "--all-files")
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
	writeAt(t, filepath.Join(work, "notes.sh"), "short\n")
	pc.must(work, "git", "add", "-A")
	if out := pc.must(work, "pre-commit", "run", "--all-files"); !strings.Contains(out, "Passed") {
		t.Errorf("pre-commit run did not report the hook passing:\n%s", out)
	}
}
