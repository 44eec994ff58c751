package stacks

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// evidence renders a tool's evidence as "file|marker" strings.
func evidence(f Facts, tool string) []string {
	var out []string
	for _, e := range f.Tools[tool].Evidence {
		out = append(out, e.File+"|"+e.Marker)
	}
	return out
}

// TestToolMarkers: each marker the docs list switches its tool on, with
// the file and marker as evidence; the look-alikes beside them do not.
func TestToolMarkers(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		tool  string
		want  []string // nil: not used
	}{
		{"ruff table", map[string]string{"pyproject.toml": "[tool.ruff]\nline-length = 100\n"}, "ruff", []string{"pyproject.toml|[tool.ruff]"}},
		{"ruff sub-table only", map[string]string{"pyproject.toml": "[tool.ruff.lint]\nselect = ['E']\n"}, "ruff", []string{"pyproject.toml|[tool.ruff]"}},
		{"ruff.toml", map[string]string{"svc/ruff.toml": ""}, "ruff", []string{"svc/ruff.toml|ruff.toml"}},
		{".ruff.toml", map[string]string{".ruff.toml": ""}, "ruff", []string{".ruff.toml|.ruff.toml"}},
		{"optional dev deps", map[string]string{"pyproject.toml": "[project.optional-dependencies]\ndev = ['Ruff>=0.5; python_version > \"3.8\"']\n"}, "ruff",
			[]string{"pyproject.toml|ruff in [project.optional-dependencies] dev"}},
		{"dependency groups", map[string]string{"pyproject.toml": "[dependency-groups]\nlint = [{include-group = 'x'}, 'ruff==0.6.9']\nx = []\n"}, "ruff",
			[]string{"pyproject.toml|ruff in [dependency-groups] lint"}},
		{"poetry group", map[string]string{"pyproject.toml": "[tool.poetry.group.dev.dependencies]\nruff = '^0.6'\n"}, "ruff",
			[]string{"pyproject.toml|ruff in [tool.poetry.group.dev.dependencies]"}},
		{"poetry legacy dev", map[string]string{"pyproject.toml": "[tool.poetry.dev-dependencies]\nRuff = '*'\n"}, "ruff",
			[]string{"pyproject.toml|ruff in [tool.poetry.dev-dependencies]"}},
		{"requirements-dev", map[string]string{"requirements-dev.txt": "-r requirements.txt\n# ruff is great\nruff[format]>=0.5  # lint\n"}, "ruff",
			[]string{"requirements-dev.txt|ruff in requirements-dev.txt"}},
		{"requirements-dev-lint", map[string]string{"requirements-dev-lint.txt": "ruff\n"}, "ruff",
			[]string{"requirements-dev-lint.txt|ruff in requirements-dev-lint.txt"}},
		{"pre-commit repo", map[string]string{".pre-commit-config.yaml": "repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit.git\n  rev: v0.6.9\n  hooks:\n  - id: ruff-format\n"}, "ruff",
			[]string{".pre-commit-config.yaml|ruff hook ruff-format"}},
		{"pre-commit local", map[string]string{".pre-commit-config.yaml": "repos:\n- repo: local\n  hooks:\n  - id: lint\n    entry: .venv/bin/ruff check\n    language: system\n"}, "ruff",
			[]string{".pre-commit-config.yaml|ruff hook lint"}},
		{"ruff in runtime deps only", map[string]string{"pyproject.toml": "[project]\nname = 'x'\ndependencies = ['ruff']\n"}, "ruff", nil},
		{"ruff-lsp is not ruff", map[string]string{"pyproject.toml": "[dependency-groups]\ndev = ['ruff-lsp']\n", "requirements-dev.txt": "ruffle\n"}, "ruff", nil},
		{"ruff in requirements.txt", map[string]string{"requirements.txt": "ruff\n"}, "ruff", nil},
		{"pre-commit without ruff", map[string]string{".pre-commit-config.yaml": "repos:\n- repo: https://github.com/psf/black\n  hooks:\n  - id: black\n"}, "ruff", nil},
		{"mypy table", map[string]string{"pyproject.toml": "[tool.mypy]\nstrict = true\n"}, "mypy", []string{"pyproject.toml|[tool.mypy]"}},
		{"mypy.ini", map[string]string{"mypy.ini": "[mypy]\n"}, "mypy", []string{"mypy.ini|mypy.ini"}},
		{".mypy.ini", map[string]string{".mypy.ini": "[mypy]\n"}, "mypy", []string{".mypy.ini|.mypy.ini"}},
		{"setup.cfg mypy", map[string]string{"setup.cfg": "[metadata]\nname = x\n\n[mypy]\nstrict = True\n"}, "mypy", []string{"setup.cfg|[mypy]"}},
		{"setup.cfg without mypy", map[string]string{"setup.cfg": "[metadata]\nname = x\n[flake8]\nmax-line-length = 9\n"}, "mypy", nil},
		{"bandit table", map[string]string{"pyproject.toml": "[tool.bandit]\nskips = ['B101']\n"}, "bandit", []string{"pyproject.toml|[tool.bandit]"}},
		{".bandit", map[string]string{".bandit": "[bandit]\n"}, "bandit", []string{".bandit|.bandit"}},
		{"pytest table", map[string]string{"pyproject.toml": "[tool.pytest.ini_options]\naddopts = '-q'\n"}, "pytest", []string{"pyproject.toml|[tool.pytest.ini_options]"}},
		{"pytest table without ini_options", map[string]string{"pyproject.toml": "[tool.pytest]\n"}, "pytest", nil},
		{"pytest.ini", map[string]string{"pytest.ini": "[pytest]\n"}, "pytest", []string{"pytest.ini|pytest.ini"}},
		{"conftest", map[string]string{"src/conftest.py": ""}, "pytest", []string{"src/conftest.py|conftest.py"}},
		{"tests dir", map[string]string{"pkg/tests/unit/test_a.py": "", "pkg/tests/test_b.py": ""}, "pytest", []string{"pkg/tests/|test_*.py in tests/"}},
		{"test file outside tests", map[string]string{"test_a.py": "", "tests/helper.py": "", "tests/a_test.py": ""}, "pytest", nil},
		{"tox.ini", map[string]string{"tox.ini": "[tox]\nenvlist = py3\n\n[pytest]\naddopts = -q\n"}, "pytest", []string{"tox.ini|[pytest]"}},
		{"setup.cfg pytest", map[string]string{"setup.cfg": "[tool:pytest]\ntestpaths = tests\n"}, "pytest", []string{"setup.cfg|[tool:pytest]"}},
		{"tox.ini without pytest", map[string]string{"tox.ini": "[tox]\nenvlist = py3\n"}, "pytest", nil},
		{"go.mod vet", map[string]string{"go.mod": "module x\n", "cmd/go.mod": "module y\n"}, "go_vet", []string{"cmd/go.mod|go.mod", "go.mod|go.mod"}},
		{"go.mod test", map[string]string{"go.mod": "module x\n"}, "go_test", []string{"go.mod|go.mod"}},
		{"go files only", map[string]string{"main.go": "package main\n", "go.sum": ""}, "go_test", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := gather(t, c.files)
			got := evidence(f, c.tool)
			if !slices.Equal(got, c.want) || f.Tools[c.tool].Used != (c.want != nil) {
				t.Fatalf("%s: used %v evidence %q, want %q", c.tool, f.Tools[c.tool].Used, got, c.want)
			}
			if len(f.Unreadable) != 0 {
				t.Fatalf("unreadable %v", f.Unreadable)
			}
			for _, other := range Tools {
				bothGo := strings.HasPrefix(other, "go_") && strings.HasPrefix(c.tool, "go_") // one go.mod switches both on
				if other != c.tool && !bothGo && f.Tools[other].Used {
					t.Errorf("%s also used: %v", other, f.Tools[other].Evidence)
				}
			}
		})
	}
}

// TestUnparsableMarkers: a marker file that does not parse is evidence of
// nothing, and is reported with where it broke for every tool it could
// have switched on.
func TestUnparsableMarkers(t *testing.T) {
	cases := []struct {
		file, content string
		tools         []string
		reason        string
	}{
		{"pyproject.toml", "[tool.ruff]\nline-length = \n", []string{"bandit", "mypy", "pytest", "ruff"}, "parse: line 2"},
		{"pyproject.toml", "[tool.mypy]\n[tool.mypy]\n", []string{"bandit", "mypy", "pytest", "ruff"}, "parse: line 2"},
		{".pre-commit-config.yaml", "repos:\n- repo: local\n  hooks: [id: ruff\n", []string{"ruff"}, "parse: yaml: line"},
		{".pre-commit-config.yaml", "repos: 3\n", []string{"ruff"}, "parse: yaml:"},
		{"setup.cfg", "[mypy\nstrict = 1\n", []string{"mypy", "pytest"}, "parse:"},
		{"tox.ini", "[pytest\n", []string{"pytest"}, "parse:"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i, c.file), func(t *testing.T) {
			f := gather(t, map[string]string{c.file: c.content})
			if len(f.Unreadable) != 1 || f.Unreadable[0].File != c.file || !strings.Contains(f.Unreadable[0].Reason, c.reason) {
				t.Fatalf("unreadable %v, want %s: %s…", f.Unreadable, c.file, c.reason)
			}
			for _, tool := range Tools {
				wantBad := slices.Contains(c.tools, tool)
				if f.Tools[tool].Used || (len(f.Tools[tool].Unreadable) == 1) != wantBad {
					t.Errorf("%s: %+v, want unused and unreadable=%v", tool, f.Tools[tool], wantBad)
				}
			}
		})
	}
}

// TestRequirementName pins the PEP 508 name normalisation.
func TestRequirementName(t *testing.T) {
	for in, want := range map[string]string{
		"ruff": "ruff", " Ruff >= 0.5": "ruff", "ruff[all]==1": "ruff", "ruff;python_version>'3'": "ruff",
		"ruff @ https://x/ruff.whl": "ruff", "Ruff_LSP": "ruff-lsp", "ruff.x": "ruff-x", "": "",
	} {
		if got := requirementName(in); got != want {
			t.Errorf("requirementName(%q) = %q, want %q", in, got, want)
		}
	}
}
