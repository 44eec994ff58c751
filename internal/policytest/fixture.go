package policytest

import (
	"errors"
	"io/fs"
	"maps"
	"path"
	"slices"
	"time"

	"github.com/tausik/tausik/engine/baseline"
	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/gate"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/yamlread"
)

// Case is one fixture of a gate: fixtures/<name>/case.yaml with either a
// facts.json (the facts are given) or a tree/ (a small project the real
// runners scan).
type Case struct {
	Name        string
	Dir         string // as shown in messages
	Description string
	Trigger     string
	Files       []string
	Task        string
	// Time is the evaluation time the case pretends ("request.time"), so
	// time-dependent gates (a verify run's age) have stable fixtures.
	Time         string
	Bypass       []string
	ChangedSince string
	Params       map[string]any
	// Requires names what a tree/ case's real tools need: executables on
	// PATH ("ruff") or "python:MODULE" for a module the configured Python
	// interpreter must import. See Options.RequireTools.
	Requires []string
	Expect   Expectation
	// Git, when case.yaml has a git: list, makes the copied tree a git
	// repository built by these steps before the runners look.
	Git []GitStep
	// Store, when case.yaml has a store: section, seeds a tree/ case's
	// in-memory store with tasks and verify runs (see fixture_store.go).
	Store engine.FixtureSeed
	// Tool, when case.yaml has a tool: section, is the agent tool call a
	// tree/ case is judged on (see fixture_tool.go).
	Tool *ToolSpec

	// Base names the case a mutation fixture changes ("" for none), and
	// Mutate lists its changes, applied to the base's tree or facts.
	Base   string
	Mutate []MutateStep

	facts    *facts.Document // facts-level case
	factsRaw []byte          // its facts.json, which a mutation fixture patches
	tree     fs.FS           // end-to-end case, rooted at tree/
	// baseline is the tree's tausik/baseline.json, which settles the
	// case's verdict as it settles an evaluation's (nil: none).
	baseline *baseline.File
	caseFS   fs.FS // the case directory (for git apply steps)
}

// loadCase reads one fixture of g. Problems are returned as diagnostics, and
// make the case fail rather than the whole run.
func loadCase(g *gate.Gate, name string) (*Case, *diag.Diagnostics) {
	return loadCaseFrom(g, name, nil)
}

// loadCaseFrom reads fixture name; chain lists the mutation fixtures whose
// base it is being read as, to refuse a cycle.
func loadCaseFrom(g *gate.Gate, name string, chain []string) (*Case, *diag.Diagnostics) {
	d := &diag.Diagnostics{Kind: diag.ErrBundle}
	dir := path.Join(g.Dir, gate.DirFixtures, name)
	c := &Case{Name: name, Dir: dir, Expect: Expectation{Violations: -1}}
	caseFS, err := fs.Sub(g.FS(), path.Join(gate.DirFixtures, name))
	if err != nil {
		d.Add(dir, 0, "%v", err)
		return nil, d
	}
	file := path.Join(dir, "case.yaml")
	raw, err := fs.ReadFile(caseFS, "case.yaml")
	if err != nil {
		d.Add(file, 0, "every fixture needs a case.yaml")
		return nil, d
	}
	r := yamlread.Reader{File: file, D: d}
	root := r.Parse(raw)
	if root == nil {
		return nil, d
	}
	f := r.Fields(root, "case.yaml", "description", "trigger", "files", "task", "time", "bypass", "changed_since", "params", "expect", "git", "requires", "store", "base", "mutate", "tool")
	r.Require(root, f, "case.yaml", "description", "expect")
	var base *Case
	if f["base"] != nil {
		base = loadBase(g, r, f["base"], append(chain, name))
		if base == nil {
			return nil, d
		}
		*c = *base
		c.Name, c.Dir, c.Base, c.Expect = name, dir, base.Name, Expectation{Violations: -1}
		c.Params = maps.Clone(base.Params)
	}
	cr := caseReader{g: g, r: r, f: f, root: root, d: d, caseFS: caseFS, dir: dir, base: base}
	cr.readRequest(c)
	cr.readParams(c)
	c.Expect = parseExpect(r, f["expect"])
	cr.readSetup(c)
	if len(d.Items) > 0 {
		return nil, d
	}
	return c, nil
}

// caseReader is a case.yaml being read into a Case: its fields, where it
// lies, and the base case a mutation fixture inherits from (nil for none).
type caseReader struct {
	g      *gate.Gate
	r      yamlread.Reader
	f      map[string]*yaml.Node
	root   *yaml.Node
	d      *diag.Diagnostics
	caseFS fs.FS
	dir    string
	base   *Case
}

// set reports whether the case sets key: a mutation fixture inherits every
// field of its base it does not set.
func (cr caseReader) set(key string) bool { return cr.base == nil || cr.f[key] != nil }

// readRequest reads what the case asks: trigger, files, task, time, bypass
// and changed_since.
func (cr caseReader) readRequest(c *Case) {
	r, f, d, file := cr.r, cr.f, cr.d, cr.r.File
	c.Description = r.Str(f["description"], "description")
	if cr.set("trigger") {
		c.Trigger = r.Str(f["trigger"], "trigger")
		if c.Trigger == "" && len(cr.g.Triggers) > 0 {
			c.Trigger = cr.g.Triggers[0]
		}
		if !slices.Contains(gate.Triggers, c.Trigger) {
			d.Add(file, yamlread.LineOf(f["trigger"], cr.root), "unknown trigger %q", c.Trigger)
		}
	}
	if cr.set("files") {
		c.Files = r.Strs(f["files"], "files")
	}
	if cr.set("task") {
		c.Task = r.Str(f["task"], "task")
	}
	if cr.set("time") {
		c.Time = r.Str(f["time"], "time")
		if c.Time == "" {
			c.Time = "2026-01-01T00:00:00Z"
		} else if _, err := time.Parse(time.RFC3339Nano, c.Time); err != nil {
			d.Add(file, f["time"].Line, "time: want an RFC 3339 time, got %q", c.Time)
		}
	}
	if cr.set("bypass") {
		c.Bypass = r.Strs(f["bypass"], "bypass")
	}
	if cr.set("changed_since") {
		c.ChangedSince = r.Str(f["changed_since"], "changed_since")
	}
}

// readParams sets the case's params over the gate's defaults (or its
// base's), each checked against the gate's param of that name.
func (cr caseReader) readParams(c *Case) {
	r, d, file := cr.r, cr.d, cr.r.File
	if cr.base == nil {
		c.Params = cr.g.DefaultParams()
	}
	for _, kv := range r.Pairs(cr.f["params"], "params") {
		p, ok := cr.g.Param(kv[0].Value)
		if !ok {
			d.Add(file, kv[0].Line, "params.%s: the gate has no such param", kv[0].Value)
			continue
		}
		v, err := gate.CoerceParam(p.Type, r.Value(kv[1], "params."+p.Name))
		if err != nil {
			d.Add(file, kv[1].Line, "params.%s: %v", p.Name, err)
			continue
		}
		c.Params[p.Name] = v
	}
}

// readSetup reads what the case sets up before it runs (requires, git
// steps, a store seed, a tool call) and its content: the facts or tree it
// gives, or the mutation of its base.
func (cr caseReader) readSetup(c *Case) {
	r, f, d, file, caseFS, dir := cr.r, cr.f, cr.d, cr.r.File, cr.caseFS, cr.dir
	if cr.set("requires") {
		c.Requires = r.Strs(f["requires"], "requires")
	}
	if cr.set("git") {
		c.Git, c.caseFS = parseGitSteps(r, f["git"], caseFS, dir), caseFS
	}
	if cr.set("store") {
		c.Store = parseStoreSeed(r, f["store"], c.Time)
	}
	if cr.set("tool") && f["tool"] != nil {
		c.Tool = parseToolSpec(r, f["tool"])
	}
	if cr.base != nil {
		mutateCase(cr.g, r, d, c, f["mutate"], overrides(f), caseFS, dir)
		return
	}
	if f["mutate"] != nil {
		d.Add(file, f["mutate"].Line, "mutate: a mutation fixture names the case it changes (base: <case>)")
	}
	loadContent(cr.g, r, c, f["git"], caseFS, dir)
	if c.facts != nil && f["store"] != nil {
		d.Add(file, f["store"].Line, "store: only a tree/ fixture has a store to seed")
	}
	if c.facts != nil && f["tool"] != nil {
		d.Add(file, f["tool"].Line, "tool: only a tree/ fixture has files a tool call acts on (a facts.json fixture gives the tool namespace itself)")
	}
}

// overrides reports whether a case sets a field it would otherwise inherit
// from its base: such a mutation fixture needs no mutate steps.
func overrides(f map[string]*yaml.Node) bool {
	for _, k := range []string{"trigger", "files", "task", "time", "bypass", "changed_since", "params", "git", "tool"} {
		if f[k] != nil {
			return true
		}
	}
	return false
}

// loadContent reads the facts.json or tree/ of a case that has no base.
func loadContent(g *gate.Gate, r yamlread.Reader, c *Case, git *yaml.Node, caseFS fs.FS, dir string) {
	hasFacts := fileExists(caseFS, "facts.json")
	tree, treeErr := fs.Sub(caseFS, "tree")
	hasTree := treeErr == nil && dirExists(caseFS, "tree")
	switch {
	case hasFacts && hasTree:
		r.D.Add(dir, 0, "a fixture has either facts.json or tree/, not both")
	case hasFacts:
		if git != nil {
			r.D.Add(r.File, git.Line, "git: only a tree/ fixture can become a git repository")
		}
		c.factsRaw, _ = fs.ReadFile(caseFS, "facts.json")
		c.facts = parseFacts(g, r.D, path.Join(dir, "facts.json"), c.factsRaw)
	case hasTree:
		c.tree = tree
		c.baseline = parseCaseBaseline(r.D, dir, tree)
	default:
		r.D.Add(dir, 0, "a fixture needs a facts.json or a tree/ directory (or a base: to mutate)")
	}
}

// parseFacts parses a facts.json fixture and checks it gives every
// namespace the gate reads.
func parseFacts(g *gate.Gate, d yamlread.Sink, file string, b []byte) *facts.Document {
	doc, err := facts.Parse(b)
	if err != nil {
		d.Add(file, 0, "%v", err)
		return nil
	}
	g.AliasFacts(doc)
	for _, ns := range g.Facts {
		if _, ok := doc.Namespaces[ns]; !ok {
			d.Add(file, 0, "the gate reads namespace %q, which this fixture does not give (give it, with a status)", ns)
		}
	}
	return doc
}

func fileExists(fsys fs.FS, name string) bool {
	info, err := fs.Stat(fsys, name)
	return err == nil && !info.IsDir()
}

func dirExists(fsys fs.FS, name string) bool {
	info, err := fs.Stat(fsys, name)
	return err == nil && info.IsDir()
}

// parseCaseBaseline reads a tree case's tausik/baseline.json, if it has one.
func parseCaseBaseline(d yamlread.Sink, dir string, tree fs.FS) *baseline.File {
	b, err := fs.ReadFile(tree, baseline.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil {
		var bl *baseline.File
		if bl, err = baseline.Parse(b); err == nil {
			return bl
		}
	}
	d.Add(path.Join(dir, "tree", baseline.Path), 0, "%v", err)
	return nil
}
