// Package stacks is the runner of the "stacks" namespace: which technology
// stacks the project has and where (a monorepo has several roots), and
// whether the project shows that it uses each tool a built-in command gate
// runs. It looks only at file names and reads only small marker files
// (pyproject.toml, setup.cfg, a YAML file that may be a manifest), each
// bounded: it never runs a tool.
package stacks

import (
	"context"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Namespace is the key of the facts this runner gathers.
const Namespace = "stacks"

// Facts is the namespace's data.
type Facts struct {
	// Stacks holds each stack found (python, go, node…), keyed by name; a
	// stack with no root is absent.
	Stacks map[string]Stack `json:"stacks"`
	// Tools holds every tool of Tools, whether it is used or not.
	Tools map[string]Tool `json:"tools"`
	// Unreadable lists every marker file that could not be read or parsed:
	// it is evidence of nothing, and said so.
	Unreadable []Unreadable `json:"unreadable"`
}

// Stack is where one stack lives.
type Stack struct {
	Roots []Root `json:"roots"` // sorted by Dir
}

// Root is one directory holding a stack, with the files that show it.
type Root struct {
	// Dir is repo-relative, "/"-separated; "." is the project root.
	Dir string `json:"dir"`
	// Evidence are the marker files, relative to Dir, sorted.
	Evidence []string `json:"evidence"`
}

// Tool says whether the project uses one tool, and why.
type Tool struct {
	Used bool `json:"used"`
	// Evidence are the markers found, sorted by file then marker.
	Evidence []Evidence `json:"evidence"`
	// Unreadable are the files that could have held a marker for this
	// tool but could not be read or parsed.
	Unreadable []Unreadable `json:"unreadable"`
	// Roots are, for a stack tool (the registry, StackTools), the roots of
	// its stack it judges; absent for the tools of Tools.
	Roots []ToolRoot `json:"roots,omitempty"`
}

// Evidence is one marker of a tool: the file and what in it.
type Evidence struct {
	File   string `json:"file"`
	Marker string `json:"marker"` // "[tool.ruff]", "ruff.toml", "ruff in [dependency-groups] dev"
}

// Unreadable is a marker file that said nothing, and why.
type Unreadable struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// Tools are the built-in command gates whose tool the namespace reports on,
// each the name of its gate and of its facts namespace.
var Tools = []string{"ruff", "mypy", "bandit", "pytest", "go_vet", "go_test"}

// Runner gathers the "stacks" namespace. It is safe for concurrent use.
type Runner struct{}

// New returns the stacks runner.
func New() *Runner { return &Runner{} }

// Namespace implements runners.Runner.
func (*Runner) Namespace() string { return Namespace }

// Gather implements runners.Runner. It judges the whole project, whatever
// files the request names: whether a project uses ruff does not depend on
// which file is being committed.
func (*Runner) Gather(ctx context.Context, s *runners.Scope) facts.Namespace {
	f, err := ForScope(ctx, s)
	if err != nil {
		return facts.Error(err.Error())
	}
	return facts.OK(f)
}

// detected is what ForScope memoizes.
type detected struct {
	f   Facts
	err error
}

// ForScope returns the facts of the project s looks at, detected once per
// scope: the stacks runner and every stack gate's command runner, which runs
// its tool in the roots found, share them.
func ForScope(ctx context.Context, s *runners.Scope) (Facts, error) {
	r := s.Memo(Namespace, func() any {
		files, err := s.RepoFiles(ctx)
		if err != nil {
			return detected{err: err}
		}
		f, err := Detect(ctx, s.Root, files)
		return detected{f: f, err: err}
	}).(detected)
	return r.f, r.err
}

// Detect computes the facts of the project at root from its file listing
// (repo-relative, "/"-separated). Only a canceled ctx is an error; a marker
// file that cannot be read is reported in the facts.
func Detect(ctx context.Context, root string, files []string) (Facts, error) {
	d := newDetector(root)
	kept := make([]string, 0, len(files))
	venvs := map[string]bool{}
	for _, f := range files {
		switch path.Base(f) {
		case "pyvenv.cfg":
			venvs[path.Dir(f)] = true
		case "Cargo.toml", "pom.xml":
			// A build's output: Cargo and Maven write target/ beside them.
			venvs[path.Join(path.Dir(f), "target")] = true
		}
	}
	for _, f := range files {
		if !skipped(f, venvs) {
			kept = append(kept, f)
			d.present[f] = true
		}
	}
	for i, f := range kept {
		if i%256 == 0 && ctx.Err() != nil {
			return Facts{}, ctx.Err()
		}
		d.file(f)
	}
	return d.facts(), nil
}

// skipDirs are directory names whose contents are never a stack of the
// project: VCS data, dependencies, virtualenvs, caches and test data.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".tausik": true, "node_modules": true, "vendor": true,
	"testdata": true, "__pycache__": true, ".venv": true, "venv": true, ".tox": true, ".nox": true,
	".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true, ".cache": true,
}

// skipped reports whether the file f lies in a skipped directory, a
// virtualenv or a build's target/ (a directory of venvs) or a tausik gate fixture's tree
// (**/fixtures/*/tree/**), which holds deliberate violations, not the
// project's own stacks.
func skipped(f string, venvs map[string]bool) bool {
	segs := strings.Split(f, "/")
	dirs := segs[:len(segs)-1]
	for i, s := range dirs {
		if skipDirs[s] || (s == "fixtures" && i+2 < len(dirs) && dirs[i+2] == "tree") {
			return true
		}
		if len(venvs) > 0 && venvs[strings.Join(dirs[:i+1], "/")] {
			return true
		}
	}
	return false
}

// detector accumulates what the files show.
type detector struct {
	pkgCache
	root       string
	present    map[string]bool                       // the kept files
	stacks     map[string]map[string]map[string]bool // stack → dir → evidence
	tools      map[string]map[Evidence]bool
	unreadable map[string]map[Unreadable]bool // tool ("" for none) → files
	plain      map[string]bool                // see plainDir
}

func newDetector(root string) *detector {
	d := &detector{root: root, present: map[string]bool{}, stacks: map[string]map[string]map[string]bool{},
		tools: map[string]map[Evidence]bool{}, unreadable: map[string]map[Unreadable]bool{}, plain: map[string]bool{}}
	for _, t := range ToolNames() {
		d.tools[t] = map[Evidence]bool{}
		d.unreadable[t] = map[Unreadable]bool{}
	}
	d.unreadable[""] = map[Unreadable]bool{}
	return d
}

// stack records that dir holds stack, shown by evidence (relative to dir).
func (d *detector) stack(name, dir, evidence string) {
	dirs := d.stacks[name]
	if dirs == nil {
		dirs = map[string]map[string]bool{}
		d.stacks[name] = dirs
	}
	if dirs[dir] == nil {
		dirs[dir] = map[string]bool{}
	}
	dirs[dir][evidence] = true
}

// use records a marker of tool in file.
func (d *detector) use(tool, file, marker string) {
	d.tools[tool][Evidence{File: file, Marker: marker}] = true
}

// bad records a file that could have held markers for tools and said
// nothing.
func (d *detector) bad(file string, err error, tools ...string) {
	u := Unreadable{File: file, Reason: err.Error()}
	d.unreadable[""][u] = true
	for _, t := range tools {
		d.unreadable[t][u] = true
	}
}

// file looks at one kept file.
func (d *detector) file(f string) {
	dir, name := path.Split(f)
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	if s := stackOf(name); s != "" {
		d.stack(s, dir, name)
	}
	d.toolFile(f, dir, name)
	switch ext := path.Ext(name); {
	case ext == ".tf":
		d.stack("terraform", dir, name)
	case ext == ".yaml" || ext == ".yml":
		d.yamlFile(f, dir, name)
	case name == "ansible.cfg":
		d.stack("ansible", dir, name)
	}
}

// stackOf names the stack whose marker file is called name, or "".
func stackOf(name string) string {
	switch {
	case name == "pyproject.toml" || name == "setup.py" || name == "setup.cfg" ||
		strings.HasPrefix(name, "requirements") && strings.HasSuffix(name, ".txt"):
		return "python"
	case name == "go.mod":
		return "go"
	case name == "package.json" || name == "tsconfig.json":
		return "node"
	case name == "Cargo.toml":
		return "rust"
	case name == "composer.json":
		return "php"
	case name == "pom.xml" || name == "build.gradle" || name == "build.gradle.kts":
		return "java"
	case name == "Chart.yaml":
		return "helm"
	case strings.HasPrefix(name, "Dockerfile") || name == "Containerfile":
		return "docker"
	}
	return lintStackOf(name)
}

// facts returns what was found, every list sorted.
func (d *detector) facts() Facts {
	out := Facts{Stacks: map[string]Stack{}, Tools: map[string]Tool{}, Unreadable: sortedUnreadable(d.unreadable[""])}
	for name, dirs := range d.stacks {
		var st Stack
		for _, dir := range slices.Sorted(maps.Keys(dirs)) {
			st.Roots = append(st.Roots, Root{Dir: dir, Evidence: slices.Sorted(maps.Keys(dirs[dir]))})
		}
		out.Stacks[name] = st
	}
	for _, t := range Tools {
		ev := slices.SortedFunc(maps.Keys(d.tools[t]), func(a, b Evidence) int {
			if c := strings.Compare(a.File, b.File); c != 0 {
				return c
			}
			return strings.Compare(a.Marker, b.Marker)
		})
		if ev == nil {
			ev = []Evidence{}
		}
		out.Tools[t] = Tool{Used: len(ev) > 0, Evidence: ev, Unreadable: sortedUnreadable(d.unreadable[t])}
	}
	d.stackTools(out.Stacks, out.Tools)
	out.Unreadable = sortedUnreadable(d.unreadable[""])
	return out
}

func sortedUnreadable(m map[Unreadable]bool) []Unreadable {
	out := slices.SortedFunc(maps.Keys(m), func(a, b Unreadable) int { return strings.Compare(a.File, b.File) })
	if out == nil {
		out = []Unreadable{}
	}
	return out
}
