package command

import (
	"slices"
	"sync"
	"time"
)

var (
	stackMu    sync.Mutex
	stackSpecs []Spec
	stackAllow [][]string
)

// RegisterStack adds a stack gate's built-in spec (PerRoot is set) and the
// argv prefixes its commands start with, which join DefaultAllowed. It is
// meant for init functions (specs_stacks.go).
func RegisterStack(spec Spec, allow ...[]string) {
	stackMu.Lock()
	defer stackMu.Unlock()
	spec.PerRoot = true
	if c, ok := cachedStacks[spec.Name]; ok {
		spec.Cache = &c
	}
	stackSpecs = append(stackSpecs, spec)
	stackAllow = append(stackAllow, allow...)
}

// StackSpecs returns the stack gates' built-in specs, sorted by name.
func StackSpecs() []Spec {
	stackMu.Lock()
	defer stackMu.Unlock()
	out := slices.Clone(stackSpecs)
	slices.SortFunc(out, func(a, b Spec) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out
}

func stackAllowed() [][]string {
	stackMu.Lock()
	defer stackMu.Unlock()
	return slices.Clone(stackAllow)
}

// jsExts are the files of a JavaScript or TypeScript package.
var jsExts = []string{".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"}

// The node stack's gates: tsc type-checks each package with its
// tsconfig.json (a whole project: tsc given files ignores the tsconfig);
// eslint lints the scoped files; js_test runs the package's own runner.
func init() {
	RegisterStack(Spec{Name: "tsc", Argv: []string{"tsc", "--noEmit", "--pretty", "false", "-p", "."},
		Extensions: append(slices.Clone(jsExts), ".json"), Exclude: DefaultExclude, Timeout: 10 * time.Minute, Parser: ParserTsc},
		[]string{"tsc"})
	RegisterStack(Spec{Name: "eslint", Argv: []string{"eslint", "-f", "json", "--no-warn-ignored", FilesArg},
		Extensions: jsExts, Exclude: DefaultExclude, Timeout: 5 * time.Minute, Parser: ParserEslint},
		[]string{"eslint"})
	node := []string{"node", "--test", "--test-reporter=junit", "--test-reporter-destination=" + ReportArg}
	RegisterStack(Spec{Name: "js_test", Argv: node, Parser: ParserNodeTest,
		Variants: map[string]Variant{
			"node":   {Argv: node, Parser: ParserNodeTest},
			"jest":   {Argv: []string{"jest", "--ci", "--json", "--outputFile=" + ReportArg}, Parser: ParserJest},
			"vitest": {Argv: []string{"vitest", "run", "--reporter=json", "--outputFile=" + ReportArg}, Parser: ParserJest},
		},
		Extensions: append(slices.Clone(jsExts), ".json"), Exclude: DefaultExclude, Timeout: 15 * time.Minute},
		[]string{"node", "--test"}, []string{"jest"}, []string{"vitest", "run"})
}

// The go, helm and kubernetes stacks' gates: golangci-lint over each
// module that configures it; helm lint of each chart; kubeconform of each
// directory's manifests, against the schemas in the root's
// .kubeconform/schemas/ first (offline, custom resources), then its
// default location.
func init() {
	RegisterStack(Spec{Name: "golangci_lint", Argv: []string{"golangci-lint", "run", "--output.json.path=stdout", "--show-stats=false", "./..."},
		Extensions: []string{".go"}, Exclude: DefaultExclude, Timeout: 10 * time.Minute, Parser: ParserGolangci},
		[]string{"golangci-lint", "run"})
	RegisterStack(Spec{Name: "helm_lint", Argv: []string{"helm", "lint", "."}, Exclude: DefaultExclude,
		Timeout: 5 * time.Minute, Parser: ParserHelm},
		[]string{"helm", "lint"})
	RegisterStack(Spec{Name: "kubeconform", Argv: []string{"kubeconform", "-output", "json", "-summary",
		"-schema-location", ".kubeconform/schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json", "-schema-location", "default", FilesArg},
		Extensions: []string{".yaml", ".yml"}, Exclude: DefaultExclude, Timeout: 5 * time.Minute, Parser: ParserKubeconform},
		[]string{"kubeconform"})
}
