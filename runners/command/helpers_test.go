package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// ruffDir is testdata/ruff, the real ruff (WebAssembly) behind a CLI shim.
var ruffDir string

// TestMain puts the ruff shim first on PATH for every test, so the built-in
// ruff spec runs it exactly as it would run a native ruff.
func TestMain(m *testing.M) {
	abs, err := filepath.Abs(filepath.Join("..", "..", "testdata", "ruff"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ruffDir = abs
	os.Setenv("PATH", ruffDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	os.Setenv("PYTHONDONTWRITEBYTECODE", "1")
	os.Exit(m.Run())
}

// needRuff fails (never skips) when the shim's dependencies are missing: CI
// installs them, and a silently skipped lint test would prove nothing.
func needRuff(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not on PATH; the ruff tests run ruff's WebAssembly build on Node 20: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ruffDir, "node_modules", "@astral-sh", "ruff-wasm-nodejs")); err != nil {
		t.Fatalf("ruff's WebAssembly package is not installed; run `npm ci --prefix testdata/ruff` (%v)", err)
	}
}

// python returns the interpreter that has pytest: $TAUSIK_PYTHON, else
// Debian's /usr/bin/python3. It fails when pytest is missing.
func python(t *testing.T) string {
	t.Helper()
	py := os.Getenv(PythonEnv)
	if py == "" {
		py = "/usr/bin/python3"
	}
	if out, err := exec.Command(py, "-m", "pytest", "--version").CombinedOutput(); err != nil {
		t.Fatalf("%s cannot run pytest; install it with `apt-get install -y python3-pytest`: %v\n%s", py, err, out)
	}
	return py
}

// project writes files (path -> content) into a fresh temp root.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		full := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// copyTree copies testdata/<name> into a fresh temp root, so tools write
// their caches there and never into the source tree.
func copyTree(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", name)
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == "__pycache__" || d.Name() == ".pytest_cache" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// run builds a runner for spec and gathers over root; explicit files, when
// given, are the request's files.
func run(t *testing.T, spec Spec, root string, files []string, opts ...Option) (facts.Namespace, *facts.Command) {
	t.Helper()
	r, err := New(spec, opts...)
	if err != nil {
		t.Fatalf("new: %v", err)
	}
	req := facts.Request{}
	if files != nil {
		req.Files, req.Explicit = files, true
	}
	ns := r.Gather(context.Background(), runners.NewScope(root, req))
	if _, err := ns.Generic(); err != nil {
		t.Fatalf("namespace does not encode: %v", err)
	}
	c, ok := ns.Data.(*facts.Command)
	if !ok {
		t.Fatalf("data is %T (status %s, reason %q)", ns.Data, ns.Status, ns.Reason)
	}
	return ns, c
}

func spec(name string) Spec {
	for _, s := range Defaults() {
		if s.Name == name {
			return s
		}
	}
	panic("no default spec " + name)
}

func dump(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}
