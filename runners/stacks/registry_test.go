package stacks

import (
	"encoding/json"
	"slices"
	"testing"
)

func toolRoots(f Facts, tool string) []string {
	var out []string
	for _, r := range f.Tools[tool].Roots {
		s := r.Dir + ":" + r.Variant
		for _, m := range r.Markers {
			s += "|" + m
		}
		for _, x := range r.Files {
			s += "+" + x
		}
		out = append(out, s)
	}
	return out
}

// TestStackToolRoots: in a monorepo each stack tool judges the roots of its
// stack that show it is used, with the runner a package's tests use, and
// never a dependency's or a build's copy of a marker.
func TestStackToolRoots(t *testing.T) {
	f := gather(t, map[string]string{
		"web/package.json":                        `{"scripts": {"test": "jest --ci"}, "devDependencies": {"vitest": "3"}}`,
		"web/tsconfig.json":                       "{}",
		"web/eslint.config.mjs":                   "export default [];",
		"web/node_modules/left-pad/package.json":  `{"scripts": {"test": "jest"}}`,
		"web/node_modules/left-pad/tsconfig.json": "{}",
		"api/package.json":                        `{"scripts": {"test": "node --experimental-strip-types --test"}}`,
		"api/plugins/x/package.json":              `{"devDependencies": {"vitest": "3", "jest": "30"}}`,
		"api/plugins/y/package.json":              `{"scripts": {"test": "echo \"Error: no test specified\" && exit 1"}}`,
		"broken/package.json":                     `{"scripts": `,
		"svc/go.mod":                              "module svc\n",
		"svc/.golangci.yml":                       "version: \"2\"\n",
		"tools/go.mod":                            "module tools\n",
		"crates/core/Cargo.toml":                  "[package]\n",
		"crates/core/target/x/Cargo.toml":         "[package]\n",
		"crates/core/target/tsconfig.json":        "{}",
		"deploy/chart/Chart.yaml":                 "apiVersion: v2\nname: c\n",
		"deploy/k8s/app.yaml":                     "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n",
		"deploy/k8s/values.yaml":                  "replicas: 2\n",
		"deploy/k8s/db.yml":                       "---\napiVersion: apps/v1\nkind: StatefulSet\n",
		"policies/x/fixtures/a/tree/package.json": `{"devDependencies": {"jest": "30"}}`,
		"ts-only/tsconfig.json":                   "{}",
	})
	for tool, want := range map[string][]string{
		"tsc":           {"ts-only:|tsconfig.json", "web:|tsconfig.json"},
		"eslint":        {"web:|eslint.config.mjs"},
		"js_test":       {"api:node|scripts.test runs node", "api/plugins/x:vitest|vitest in devDependencies", "web:jest|scripts.test runs jest"},
		"golangci_lint": {"svc:|.golangci.yml"},
		"helm_lint":     {"deploy/chart:|Chart.yaml"},
		"kubeconform":   {"deploy/k8s:|Kubernetes manifests+app.yaml+db.yml"},
	} {
		if got := toolRoots(f, tool); !slices.Equal(got, want) {
			t.Errorf("%s roots = %q, want %q", tool, got, want)
		}
		if used := f.Tools[tool].Used; used != (len(want) > 0) {
			t.Errorf("%s used = %v", tool, used)
		}
	}
	if got := roots(f, "rust"); !slices.Equal(got, []string{"crates/core:Cargo.toml"}) {
		t.Errorf("rust roots = %q (a build's target/ is not a root)", got)
	}
	if u := f.Tools["js_test"].Unreadable; len(u) != 1 || u[0].File != "broken/package.json" {
		t.Errorf("js_test unreadable = %+v, want broken/package.json", u)
	}
	if !slices.ContainsFunc(f.Unreadable, func(u Unreadable) bool { return u.File == "broken/package.json" }) {
		t.Errorf("unreadable = %+v, want broken/package.json", f.Unreadable)
	}
	b, err := json.Marshal(f.Tools["go_vet"])
	if err != nil || string(b) != `{"used":true,"evidence":[{"file":"svc/go.mod","marker":"go.mod"},{"file":"tools/go.mod","marker":"go.mod"}],"unreadable":[]}` {
		t.Errorf("go_vet = %s, %v: the tools of Tools keep their shape", b, err)
	}
}

// TestNoStackNoTool: a stack tool of a stack the project lacks is reported,
// unused, with no roots.
func TestNoStackNoTool(t *testing.T) {
	f := gather(t, map[string]string{"README.md": "x"})
	for _, n := range ToolNames() {
		tool, ok := f.Tools[n]
		if !ok || tool.Used || len(tool.Roots) != 0 {
			t.Errorf("%s = %+v, %v; want reported, unused", n, tool, ok)
		}
	}
}

// TestOwner: a file belongs to the deepest root holding it.
func TestOwner(t *testing.T) {
	dirs := []string{".", "api", "api/plugins/x", "apiv2"}
	for f, want := range map[string]string{
		"main.go": ".", "api/a.ts": "api", "api/plugins/x/b.ts": "api/plugins/x", "apiv2/c.ts": "apiv2", "api/plugins/xy/d.ts": "api",
	} {
		if got, ok := Owner(dirs, f); !ok || got != want {
			t.Errorf("Owner(%s) = %q, %v; want %q", f, got, ok, want)
		}
	}
	if got, ok := Owner([]string{"web"}, "api/x.ts"); ok {
		t.Errorf("Owner outside every root = %q", got)
	}
}
