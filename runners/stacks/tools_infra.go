package stacks

import (
	"path"
	"slices"
	"strings"
)

// The Java, Ansible, Terraform and Docker stacks' registry entries: javac
// and ktlint judge Java roots (a pom.xml or build.gradle*), ansible_lint
// every Ansible root, terraform_validate every directory of .tf files and
// hadolint every directory of Dockerfiles, given those files.
func init() {
	RegisterTool(StackTool{Name: "javac", Stack: "java",
		Markers: "a pom.xml, build.gradle or build.gradle.kts beside Java sources", Uses: usesJavac})
	RegisterTool(StackTool{Name: "ktlint", Stack: "java",
		Markers: "a build.gradle.kts or pom.xml beside Kotlin sources (.kt)", Uses: usesKtlint})
	RegisterTool(StackTool{Name: "ansible_lint", Stack: "ansible", Markers: "an Ansible playbook, role or ansible.cfg"})
	RegisterTool(StackTool{Name: "terraform_validate", Stack: "terraform", Markers: "a .tf file"})
	RegisterTool(StackTool{Name: "hadolint", Stack: "docker", Markers: "a Dockerfile or Containerfile",
		Uses: func(r *RootView) Use {
			return Use{Markers: slices.Clone(r.Evidence), Files: slices.Clone(r.Evidence)}
		}})
}

// sources returns the project's files under the root with the extension
// ext, relative to it, leaving out those of a nested root of the same
// stack (another module judges them) and, when skipTests, those under a
// src/test/ directory (tests compile against libraries javac alone does
// not have).
func (r *RootView) sources(ext string, skipTests bool) []string {
	var out []string
	prefix := r.Dir + "/"
	for f := range r.d.present {
		rel := f
		if r.Dir != "." {
			if !strings.HasPrefix(f, prefix) {
				continue
			}
			rel = f[len(prefix):]
		}
		if path.Ext(f) != ext || skipTests && (strings.HasPrefix(rel, "src/test/") || strings.Contains(rel, "/src/test/")) {
			continue
		}
		if r.nested(rel) {
			continue
		}
		out = append(out, rel)
	}
	slices.Sort(out)
	return out
}

// nested reports whether rel (relative to the root) lies in a deeper
// directory holding a build file of the java stack.
func (r *RootView) nested(rel string) bool {
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		for _, b := range []string{"pom.xml", "build.gradle", "build.gradle.kts"} {
			if r.Has(path.Join(dir, b)) {
				return true
			}
		}
	}
	return false
}

// usesJavac accepts a Java root with Java sources, and gives javac all of
// them but the tests: it compiles them together.
func usesJavac(r *RootView) Use {
	files := r.sources(".java", true)
	if len(files) == 0 {
		return Use{}
	}
	return Use{Markers: slices.Clone(r.Evidence), Files: files}
}

// usesKtlint accepts a Java root with Kotlin sources.
func usesKtlint(r *RootView) Use {
	if len(r.sources(".kt", false)) == 0 && len(r.sources(".kts", false)) == 0 {
		return Use{}
	}
	return Use{Markers: append(slices.Clone(r.Evidence), "Kotlin sources")}
}
