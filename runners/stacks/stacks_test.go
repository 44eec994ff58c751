package stacks

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/internal/sourcetest"
)

// gather runs the runner over a tree holding files (a walk, no git).
func gather(t *testing.T, files map[string]string) Facts {
	t.Helper()
	root := sourcetest.TempDir(t)
	for p, c := range files {
		sourcetest.WriteFile(t, root, p, c)
	}
	return gatherAt(t, root)
}

func gatherAt(t *testing.T, root string) Facts {
	t.Helper()
	ns := New().Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	return ns.Data.(Facts)
}

func roots(f Facts, stack string) []string {
	var out []string
	for _, r := range f.Stacks[stack].Roots {
		out = append(out, r.Dir+":"+strings.Join(r.Evidence, ","))
	}
	return out
}

// TestDetectMonorepo: every stack of a monorepo is found at each of its
// roots, with the file that shows it.
func TestDetectMonorepo(t *testing.T) {
	f := gather(t, map[string]string{
		"pyproject.toml":                     "[project]\nname = 'x'\n",
		"services/api/setup.py":              "",
		"services/api/requirements-dev.txt":  "pytest\n",
		"services/web/package.json":          "{}",
		"services/web/Dockerfile":            "FROM node\n",
		"services/worker/go.mod":             "module w\n",
		"services/worker/Dockerfile.dev":     "FROM golang\n",
		"crates/core/Cargo.toml":             "[package]\n",
		"php/composer.json":                  "{}",
		"java/pom.xml":                       "<project/>",
		"android/build.gradle.kts":           "",
		"deploy/chart/Chart.yaml":            "apiVersion: v2\nname: c\n",
		"deploy/chart/templates/deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n",
		"deploy/k8s/app.yaml":                "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n---\napiVersion: apps/v1\nkind: Deployment\n",
		"deploy/k8s/notes.yaml":              "title: not a manifest\nkind: of\n",
		"infra/main.tf":                      "resource \"x\" \"y\" {}\n",
		"infra/vars.tf":                      "",
		"ops/site.yml":                       "- hosts: all\n  tasks:\n    - ping:\n",
		"ops/roles/web/tasks/main.yml":       "- name: x\n  ping:\n",
		"ops/inventory.yml":                  "all:\n  hosts: {a: {}}\n",
		"tools/ansible.cfg":                  "[defaults]\n",
		".github/workflows/ci.yaml":          "on: push\njobs: {}\n",
	})
	want := map[string][]string{
		"python":     {".:pyproject.toml", "services/api:requirements-dev.txt,setup.py"},
		"node":       {"services/web:package.json"},
		"docker":     {"services/web:Dockerfile", "services/worker:Dockerfile.dev"},
		"go":         {"services/worker:go.mod"},
		"rust":       {"crates/core:Cargo.toml"},
		"php":        {"php:composer.json"},
		"java":       {"android:build.gradle.kts", "java:pom.xml"},
		"helm":       {"deploy/chart:Chart.yaml"},
		"kubernetes": {"deploy/k8s:app.yaml"},
		"terraform":  {"infra:main.tf,vars.tf"},
		"ansible":    {"ops:roles/web/tasks/main.yml,site.yml", "tools:ansible.cfg"},
	}
	for stack, w := range want {
		if got := roots(f, stack); !slices.Equal(got, w) {
			t.Errorf("%s: roots %q, want %q", stack, got, w)
		}
	}
	if len(f.Stacks) != len(want) {
		t.Errorf("stacks %v, want exactly %d", slices.Sorted(maps.Keys(f.Stacks)), len(want))
	}
}

// TestDetectSkips: dependencies, virtualenvs, test data and gate fixture
// trees hold other projects' markers, never this one's.
func TestDetectSkips(t *testing.T) {
	f := gather(t, map[string]string{
		"node_modules/left-pad/package.json":                "{}",
		"vendor/github.com/x/go.mod":                        "module x\n",
		"testdata/ruff/package.json":                        "{}",
		"env/pyvenv.cfg":                                    "home = /usr\n",
		"env/lib/site-packages/pkg/pyproject.toml":          "[tool.ruff]\n",
		"policies/ruff/fixtures/clean/tree/ruff.toml":       "",
		"policies/ruff/fixtures/clean/tree/pyproject.toml":  "[tool.mypy]\n",
		"tausik/policies/g/fixtures/c/tree/tests/test_a.py": "",
		"a/fixtures/notes/conftest.py":                      "",
	})
	if len(f.Stacks) != 0 {
		t.Errorf("stacks %v, want none", f.Stacks)
	}
	for _, tool := range Tools {
		if tool == "pytest" {
			continue
		}
		if f.Tools[tool].Used {
			t.Errorf("%s used by %v, want unused", tool, f.Tools[tool].Evidence)
		}
	}
	// fixtures/<case>/ without a tree/ below it is an ordinary directory.
	if ev := f.Tools["pytest"].Evidence; len(ev) != 1 || ev[0].File != "a/fixtures/notes/conftest.py" {
		t.Errorf("pytest evidence %v, want only a/fixtures/notes/conftest.py", ev)
	}
}

// TestGitIgnoredMarkers: in a git work tree the listing is git's, so an
// ignored ruff.toml shows nothing, a committed one does.
func TestGitIgnoredMarkers(t *testing.T) {
	root := sourcetest.GitRepo(t, map[string]string{".gitignore": "build/\n", "build/ruff.toml": "", "a.py": ""})
	if f := gatherAt(t, root); f.Tools["ruff"].Used {
		t.Fatalf("an ignored ruff.toml counted: %v", f.Tools["ruff"].Evidence)
	}
	sourcetest.WriteFile(t, root, "ruff.toml", "")
	if f := gatherAt(t, root); !f.Tools["ruff"].Used {
		t.Fatal("an untracked, not ignored ruff.toml did not count")
	}
}

// TestMarkerFileRefused: a marker file that is a FIFO or too large is
// reported as unreadable, without blocking or failing the namespace.
func TestMarkerFileRefused(t *testing.T) {
	root := sourcetest.TempDir(t)
	if err := syscall.Mkfifo(filepath.Join(root, "pyproject.toml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	sourcetest.WriteFile(t, root, "setup.cfg", "[mypy]\n"+strings.Repeat("# pad\n", maxMarker/6+1))
	f := gatherAt(t, root)
	got := map[string]string{}
	for _, u := range f.Unreadable {
		got[u.File] = u.Reason
	}
	if !strings.Contains(got["pyproject.toml"], "not a regular file") || !strings.Contains(got["setup.cfg"], "too large") {
		t.Fatalf("unreadable %v, want the FIFO and the oversized setup.cfg", f.Unreadable)
	}
	if f.Tools["mypy"].Used || len(f.Tools["mypy"].Unreadable) != 2 || len(f.Tools["bandit"].Unreadable) != 1 {
		t.Fatalf("mypy %+v bandit %+v", f.Tools["mypy"], f.Tools["bandit"])
	}
}

// TestCanceled: a canceled gathering is an error, not facts that say
// nothing is used.
func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Detect(ctx, t.TempDir(), []string{"go.mod"}); err == nil {
		t.Fatal("a canceled detection returned facts")
	}
}

// BenchmarkGather10k times the runner over the generated 10,000-file tree
// (2,000 YAML, JSON and TOML documents among them), listing included.
func BenchmarkGather10k(b *testing.B) {
	root := sourcetest.Tree10k(b)
	r := New()
	for b.Loop() {
		ns := r.Gather(context.Background(), runners.NewScope(root, facts.Request{}))
		if ns.Status != facts.StatusOK {
			b.Fatal(ns.Reason)
		}
	}
}

// BenchmarkDetect10k times the detection alone, the listing given.
func BenchmarkDetect10k(b *testing.B) {
	root := sourcetest.Tree10k(b)
	files, err := runners.ListFiles(context.Background(), root)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Detect(context.Background(), root, files); err != nil {
			b.Fatal(err)
		}
	}
}
