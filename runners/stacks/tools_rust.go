package stacks

import (
	"path"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// The rust stack's registry entries: cargo_check, clippy and cargo_test
// judge every crate root (a Cargo.toml) but a workspace's members, which
// cargo judges from the workspace root.
func init() {
	for _, name := range []string{"cargo_check", "clippy", "cargo_test"} {
		RegisterTool(StackTool{Name: name, Stack: "rust", Markers: "a Cargo.toml", Uses: usesCargo(name)})
	}
}

// usesCargo accepts a crate root unless an enclosing directory's
// Cargo.toml declares a [workspace]: cargo run there covers the members.
// A Cargo.toml that cannot be read or parsed is recorded as unreadable and
// the root is judged on its own.
func usesCargo(tool string) func(r *RootView) Use {
	return func(r *RootView) Use {
		for dir := r.Dir; dir != "."; {
			dir = path.Dir(dir)
			if r.d.cargoWorkspace(path.Join(dir, "Cargo.toml"), tool) {
				return Use{}
			}
		}
		return Use{Markers: []string{"Cargo.toml"}}
	}
}

// cargoWorkspace reports whether the project file f is a Cargo.toml with a
// [workspace] table.
func (d *detector) cargoWorkspace(f, tool string) bool {
	if !d.present[f] {
		return false
	}
	b, ok := d.read(f, tool)
	if !ok {
		return false
	}
	if !strings.Contains(string(b), "workspace") {
		return false
	}
	var doc map[string]any
	if err := toml.Unmarshal(b, &doc); err != nil {
		d.bad(f, tomlError(err), tool)
		return false
	}
	_, ok = doc["workspace"].(map[string]any)
	return ok
}
