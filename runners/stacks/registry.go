package stacks

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"sync"
)

// StackTool is one entry of the stack gates' tool registry: the tool a
// stack gate runs, the stack whose roots it judges and what in a root shows
// that the project uses it there. Each stack keeps its entries in its own
// file (tools_node.go, tools_go.go…), registered from an init function.
type StackTool struct {
	// Name is the gate's name and its facts namespace ("tsc").
	Name string
	// Stack is the stack whose roots the tool judges ("node").
	Stack string
	// Markers says in words what shows the tool is used, for the hint of a
	// gate that judges nothing ("a tsconfig.json in a package").
	Markers string
	// Uses looks at one root of Stack and says whether the tool judges it,
	// with the markers that show it. Nil: every root of the stack.
	Uses func(r *RootView) Use
}

// Use is what one root shows of a stack tool.
type Use struct {
	// Markers are what shows the tool is used there ("tsconfig.json",
	// "jest in devDependencies"); none means the root is not judged.
	Markers []string
	// Variant names which of the tool's commands the root uses, when it
	// has several (js_test: "node", "jest" or "vitest"); "" for the one.
	Variant string
	// Files, when set, are the only files (relative to the root) the tool
	// is given there: kubeconform judges the manifests, not every YAML file.
	Files []string
}

// RootView is one root of a stack as a StackTool's Uses sees it.
type RootView struct {
	// Dir is the root, repo-relative ("." for the project root).
	Dir string
	// Evidence are the stack's marker files there, relative to Dir.
	Evidence []string
	d        *detector
}

// Has reports whether the file name (relative to the root) is one of the
// project's files.
func (r *RootView) Has(name string) bool { return r.d.present[path.Join(r.Dir, name)] }

// Package returns the root's package.json, parsed; ok is false when the
// root has none or it could not be read (then recorded as unreadable for
// tool).
func (r *RootView) Package(tool string) (PackageJSON, bool) {
	return r.d.packageJSON(path.Join(r.Dir, "package.json"), tool)
}

var (
	registryMu sync.Mutex
	registry   = map[string]StackTool{}
)

// RegisterTool adds t to the registry. It is meant for init functions; a
// second entry of the same name, or one naming no stack, is a programming
// error and panics at start-up.
func RegisterTool(t StackTool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if t.Name == "" || t.Stack == "" {
		panic(fmt.Sprintf("stacks: tool %q registered without a name or stack", t.Name))
	}
	if _, dup := registry[t.Name]; dup || slices.Contains(Tools, t.Name) {
		panic(fmt.Sprintf("stacks: tool %q registered twice", t.Name))
	}
	registry[t.Name] = t
}

// LookupTool returns the registry's entry called name.
func LookupTool(name string) (StackTool, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	t, ok := registry[name]
	return t, ok
}

// StackTools returns the registry's entries, sorted by name.
func StackTools() []StackTool {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := make([]StackTool, 0, len(registry))
	for _, n := range slices.Sorted(maps.Keys(registry)) {
		out = append(out, registry[n])
	}
	return out
}

// ToolNames returns every tool the namespace reports on: Tools, then the
// registry's stack tools by name.
func ToolNames() []string {
	out := slices.Clone(Tools)
	for _, t := range StackTools() {
		out = append(out, t.Name)
	}
	return out
}

// stackTools fills the facts of the registry's tools from the stacks found:
// each root of a tool's stack that Uses accepts.
func (d *detector) stackTools(stacks map[string]Stack, out map[string]Tool) {
	for _, t := range StackTools() {
		tool := Tool{Evidence: []Evidence{}, Roots: []ToolRoot{}}
		for _, root := range stacks[t.Stack].Roots {
			rv := &RootView{Dir: root.Dir, Evidence: root.Evidence, d: d}
			u := Use{Markers: slices.Clone(root.Evidence)}
			if t.Uses != nil {
				u = t.Uses(rv)
			}
			if len(u.Markers) == 0 {
				continue
			}
			slices.Sort(u.Markers)
			tr := ToolRoot{Dir: root.Dir, Markers: u.Markers, Variant: u.Variant, Files: u.Files}
			if tr.Files != nil {
				tr.Files = slices.Sorted(slices.Values(tr.Files))
			}
			tool.Roots = append(tool.Roots, tr)
			for _, m := range u.Markers {
				tool.Evidence = append(tool.Evidence, Evidence{File: root.Dir, Marker: m})
			}
		}
		tool.Used = len(tool.Roots) > 0
		tool.Unreadable = sortedUnreadable(d.unreadable[t.Name])
		out[t.Name] = tool
	}
}

// ToolRoot is one root a stack tool judges.
type ToolRoot struct {
	// Dir is the root, repo-relative ("." for the project root).
	Dir string `json:"dir"`
	// Markers are what shows the tool is used there, sorted.
	Markers []string `json:"markers"`
	// Variant names the tool's command the root uses ("jest"); "" for the
	// only one.
	Variant string `json:"variant,omitempty"`
	// Files, when not nil, are the only files (relative to Dir) the tool
	// is given there, sorted.
	Files []string `json:"files,omitempty"`
}

// Owner returns, of dirs (repo-relative roots), the deepest that holds the
// repo-relative file f, and false when none does: in a monorepo with nested
// roots a file belongs to its nearest root.
func Owner(dirs []string, f string) (string, bool) {
	best, found := "", false
	for _, d := range dirs {
		if d == "." || f == d || len(f) > len(d) && f[:len(d)] == d && f[len(d)] == '/' {
			if !found || depth(d) > depth(best) {
				best, found = d, true
			}
		}
	}
	return best, found
}

func depth(dir string) int {
	if dir == "." {
		return 0
	}
	n := 1
	for i := 0; i < len(dir); i++ {
		if dir[i] == '/' {
			n++
		}
	}
	return n
}
