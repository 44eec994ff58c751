package stacks

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// The node stack's tools: tsc where a package has a tsconfig.json, eslint
// where it has an eslint config, js_test where its test script or dev
// dependencies name a test runner.
func init() {
	RegisterTool(StackTool{Name: "tsc", Stack: "node", Markers: "a tsconfig.json beside a package.json", Uses: usesTsc})
	RegisterTool(StackTool{Name: "eslint", Stack: "node", Markers: "an eslint config (eslint.config.js, .mjs, .cjs, .ts; .eslintrc*) beside a package.json", Uses: usesEslint})
	RegisterTool(StackTool{Name: "js_test", Stack: "node",
		Markers: "a package.json whose scripts.test runs node --test, jest or vitest, or jest or vitest among its devDependencies", Uses: usesJSTest})
}

// PackageJSON is what the stack tools read of a package.json.
type PackageJSON struct {
	Scripts         map[string]string `json:"scripts"`
	Dependencies    map[string]string `json:"dependencies"`
	DevDependencies map[string]string `json:"devDependencies"`
}

// packageJSON reads and parses the package.json f once; a file that cannot
// be read or parsed is recorded as unreadable for tool and every later
// asker.
func (d *detector) packageJSON(f, tool string) (PackageJSON, bool) {
	d.pkgOnce.Do(func() { d.pkgs = map[string]pkgResult{} })
	r, seen := d.pkgs[f]
	if !seen {
		r.ok = d.present[f]
		if r.ok {
			var b []byte
			b, r.ok = d.read(f)
			if r.ok {
				if err := json.Unmarshal(b, &r.pkg); err != nil {
					r.ok, r.err = false, fmt.Errorf("parse: %w", err)
					d.bad(f, r.err)
				}
			}
		}
		d.pkgs[f] = r
	}
	if r.err != nil {
		d.unreadable[tool][Unreadable{File: f, Reason: r.err.Error()}] = true
	}
	return r.pkg, r.ok
}

type pkgResult struct {
	pkg PackageJSON
	ok  bool
	err error
}

// pkgCache is the detector's parsed package.json files.
type pkgCache struct {
	pkgOnce sync.Once
	pkgs    map[string]pkgResult
}

func usesTsc(r *RootView) Use {
	if r.Has("tsconfig.json") {
		return Use{Markers: []string{"tsconfig.json"}}
	}
	return Use{}
}

// eslintConfigs are the names of an eslint config file.
var eslintConfigs = []string{
	"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts", "eslint.config.cts",
	".eslintrc", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml",
}

func usesEslint(r *RootView) Use {
	var u Use
	for _, n := range eslintConfigs {
		if r.Has(n) {
			u.Markers = append(u.Markers, n)
		}
	}
	return u
}

// testScriptRunner finds the runner a test script starts: its first
// command naming jest, vitest or node --test.
var testScriptRunner = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;&|(])(?:npx\s+|\./node_modules/\.bin/)?(jest|vitest|node\s+(?:[^;&|]*\s)?--test)(?:\s|$|[;&|)])`)
})

// usesJSTest picks the package's test runner: the one its scripts.test
// runs, else vitest or jest among its devDependencies (vitest first: a
// package that lists both runs vitest with jest-compatible APIs).
func usesJSTest(r *RootView) Use {
	pkg, ok := r.Package("js_test")
	if !ok {
		return Use{}
	}
	if m := testScriptRunner().FindStringSubmatch(pkg.Scripts["test"]); m != nil {
		v := m[1]
		if strings.HasPrefix(v, "node") {
			v = "node"
		}
		return Use{Variant: v, Markers: []string{"scripts.test runs " + v}}
	}
	for _, v := range []string{"vitest", "jest"} {
		if _, dev := pkg.DevDependencies[v]; dev {
			return Use{Variant: v, Markers: []string{v + " in devDependencies"}}
		}
	}
	return Use{}
}
