package stacks

// The go stack's registry entries: golangci_lint where a module keeps a
// golangci-lint config (go_vet and go_test are in Tools).
func init() {
	RegisterTool(StackTool{Name: "golangci_lint", Stack: "go",
		Markers: "a golangci-lint config (.golangci.yml, .yaml, .toml, .json) beside a go.mod", Uses: usesGolangci})
}

// golangciConfigs are the names of a golangci-lint config file.
var golangciConfigs = []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"}

func usesGolangci(r *RootView) Use {
	var u Use
	for _, n := range golangciConfigs {
		if r.Has(n) {
			u.Markers = append(u.Markers, n)
		}
	}
	return u
}
