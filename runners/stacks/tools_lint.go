package stacks

import (
	"path"
	"slices"
)

// The shell and yaml stacks' registry entries: shellcheck judges every
// directory of shell scripts (.sh, .bash), given those scripts; yamllint
// every directory that keeps a yamllint config (.yamllint, .yamllint.yaml,
// .yamllint.yml), over the YAML files under it.
func init() {
	RegisterTool(StackTool{Name: "shellcheck", Stack: "shell", Markers: "a shell script (.sh, .bash)",
		Uses: func(r *RootView) Use {
			return Use{Markers: slices.Clone(r.Evidence), Files: slices.Clone(r.Evidence)}
		}})
	RegisterTool(StackTool{Name: "yamllint", Stack: "yaml", Markers: "a yamllint config (.yamllint, .yamllint.yaml, .yamllint.yml)"})
}

// lintStackOf names the stack whose marker file is called name: a shell
// script, or a yamllint config; "" for neither.
func lintStackOf(name string) string {
	switch {
	case name == ".yamllint" || name == ".yamllint.yaml" || name == ".yamllint.yml":
		return "yaml"
	case path.Ext(name) == ".sh" || path.Ext(name) == ".bash":
		return "shell"
	}
	return ""
}
