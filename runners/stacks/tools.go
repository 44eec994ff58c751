package stacks

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"gopkg.in/ini.v1"
	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/internal/boundedread"
)

// maxMarker caps a marker file the runner parses (pyproject.toml, setup.cfg,
// tox.ini, requirements, .pre-commit-config.yaml); real ones are a few
// kilobytes.
const maxMarker = 1 << 20

// The tools whose markers live in pyproject.toml, in the order they are
// looked for.
var pyprojectTables = []struct{ tool, table string }{
	{"ruff", "tool.ruff"}, {"mypy", "tool.mypy"}, {"bandit", "tool.bandit"}, {"pytest", "tool.pytest.ini_options"},
}

// toolFile looks for the markers of the built-in tools in the file f, named
// name in dir.
func (d *detector) toolFile(f, dir, name string) {
	switch {
	case name == "pyproject.toml":
		d.pyproject(f)
	case name == "ruff.toml" || name == ".ruff.toml":
		d.named("ruff", f, name)
	case name == "mypy.ini" || name == ".mypy.ini":
		d.named("mypy", f, name)
	case name == ".bandit":
		d.named("bandit", f, name)
	case name == "pytest.ini" || name == "conftest.py":
		d.named("pytest", f, name)
	case name == "go.mod":
		d.named("go_vet", f, name)
		d.named("go_test", f, name)
	case name == "setup.cfg":
		d.iniSections(f, map[string]string{"mypy": "mypy", "tool:pytest": "pytest"})
	case name == "tox.ini":
		d.iniSections(f, map[string]string{"pytest": "pytest"})
	case strings.HasPrefix(name, "requirements-dev") && strings.HasSuffix(name, ".txt"):
		d.requirements(f)
	case name == ".pre-commit-config.yaml":
		d.preCommit(f)
	}
	if strings.HasPrefix(name, "test_") && strings.HasSuffix(name, ".py") {
		if i := slices.Index(strings.Split(dir, "/"), "tests"); i >= 0 {
			tests := strings.Join(strings.Split(dir, "/")[:i+1], "/")
			if d.exists(f) {
				d.use("pytest", tests+"/", "test_*.py in tests/")
			}
		}
	}
}

// named records a marker that is a file's very name (ruff.toml, go.mod):
// its presence shows the tool is used, whatever it holds, so the tool runs
// and says itself what is wrong with it.
func (d *detector) named(tool, f, name string) {
	if d.exists(f) {
		d.use(tool, f, name)
	}
}

// exists reports whether the listed file f is on disk: git lists a tracked
// file deleted from the work tree.
func (d *detector) exists(f string) bool {
	_, err := os.Lstat(filepath.Join(d.root, filepath.FromSlash(f)))
	return err == nil
}

// read returns the bytes of the marker file f; ok is false when it does not
// exist. A file that exists and cannot be read is recorded as unreadable for
// tools.
func (d *detector) read(f string, tools ...string) ([]byte, bool) {
	b, err := boundedread.In(d.root, f, maxMarker)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		d.bad(f, fmt.Errorf("read: %w", err), tools...)
		return nil, false
	}
	return b, true
}

// pyproject reads the tool tables and the dev dependencies of a
// pyproject.toml.
func (d *detector) pyproject(f string) {
	tools := []string{"ruff", "mypy", "bandit", "pytest"}
	b, ok := d.read(f, tools...)
	if !ok {
		return
	}
	var doc map[string]any
	if err := toml.Unmarshal(b, &doc); err != nil {
		d.bad(f, tomlError(err), tools...)
		return
	}
	for _, t := range pyprojectTables {
		if _, ok := lookup(doc, strings.Split(t.table, ".")...).(map[string]any); ok {
			d.use(t.tool, f, "["+t.table+"]")
		}
	}
	if groups, ok := lookup(doc, "project", "optional-dependencies").(map[string]any); ok {
		d.requirementGroups(f, "[project.optional-dependencies]", groups)
	}
	if groups, ok := lookup(doc, "dependency-groups").(map[string]any); ok {
		d.requirementGroups(f, "[dependency-groups]", groups)
	}
	if deps, ok := lookup(doc, "tool", "poetry", "dev-dependencies").(map[string]any); ok && hasRuff(keys(deps)) {
		d.use("ruff", f, "ruff in [tool.poetry.dev-dependencies]")
	}
	if groups, ok := lookup(doc, "tool", "poetry", "group").(map[string]any); ok {
		for g, v := range groups {
			if deps, ok := lookup(v, "dependencies").(map[string]any); ok && hasRuff(keys(deps)) {
				d.use("ruff", f, fmt.Sprintf("ruff in [tool.poetry.group.%s.dependencies]", g))
			}
		}
	}
}

// requirementGroups records ruff named in one of groups, each a list of PEP
// 508 requirements (an include-group table is no requirement).
func (d *detector) requirementGroups(f, table string, groups map[string]any) {
	for g, v := range groups {
		list, _ := v.([]any)
		var reqs []string
		for _, r := range list {
			if s, ok := r.(string); ok {
				reqs = append(reqs, s)
			}
		}
		if hasRuff(reqs) {
			d.use("ruff", f, fmt.Sprintf("ruff in %s %s", table, g))
		}
	}
}

// requirements reads a requirements-dev*.txt for ruff.
func (d *detector) requirements(f string) {
	b, ok := d.read(f, "ruff")
	if !ok {
		return
	}
	var reqs []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), maxMarker)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "-") {
			reqs = append(reqs, line)
		}
	}
	if hasRuff(reqs) {
		d.use("ruff", f, "ruff in "+path.Base(f))
	}
}

// preCommit reads a .pre-commit-config.yaml for a ruff hook: one from
// ruff's pre-commit repository, one whose id is ruff's, or a local hook that
// runs ruff.
func (d *detector) preCommit(f string) {
	b, ok := d.read(f, "ruff")
	if !ok {
		return
	}
	var cfg struct {
		Repos []struct {
			Repo  string `yaml:"repo"`
			Hooks []struct {
				ID    string `yaml:"id"`
				Entry string `yaml:"entry"`
			} `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		d.bad(f, fmt.Errorf("parse: %w", err), "ruff")
		return
	}
	for _, r := range cfg.Repos {
		fromRuff := strings.HasSuffix(strings.TrimSuffix(strings.TrimSuffix(r.Repo, "/"), ".git"), "/ruff-pre-commit")
		for _, h := range r.Hooks {
			entry := strings.Fields(h.Entry)
			if fromRuff || h.ID == "ruff" || h.ID == "ruff-check" || len(entry) > 0 && path.Base(entry[0]) == "ruff" {
				d.use("ruff", f, "ruff hook "+h.ID)
			}
		}
	}
}

// iniSections reads an INI file (setup.cfg, tox.ini) for sections, each
// the marker of a tool.
func (d *detector) iniSections(f string, sections map[string]string) {
	var tools []string
	for _, t := range sections {
		tools = append(tools, t)
	}
	b, ok := d.read(f, tools...)
	if !ok {
		return
	}
	cfg, err := ini.LoadSources(ini.LoadOptions{AllowBooleanKeys: true, SpaceBeforeInlineComment: true}, b)
	if err != nil {
		d.bad(f, fmt.Errorf("parse: %w", err), tools...)
		return
	}
	for section, tool := range sections {
		if cfg.HasSection(section) {
			d.use(tool, f, "["+section+"]")
		}
	}
}

// hasRuff reports whether one of the PEP 508 requirements names ruff.
func hasRuff(reqs []string) bool {
	return slices.ContainsFunc(reqs, func(r string) bool { return requirementName(r) == "ruff" })
}

// requirementName is the normalised project name a PEP 508 requirement
// starts with ("Ruff>=0.5; python_version>'3.8'" → "ruff").
func requirementName(r string) string {
	r = strings.TrimSpace(r)
	end := strings.IndexFunc(r, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-')
	})
	if end >= 0 {
		r = r[:end]
	}
	return strings.NewReplacer("_", "-", ".", "-").Replace(strings.ToLower(r))
}

// lookup follows keys through nested tables; nil when one is missing.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// tomlError says where a TOML file broke.
func tomlError(err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		return fmt.Errorf("parse: line %d: %s", line, de.Error())
	}
	return fmt.Errorf("parse: %w", err)
}
