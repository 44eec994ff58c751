package sourcetest

import (
	"fmt"
	"testing"
)

// Tree10k writes a generated 10,000-file polyglot tree under a temp root,
// as the content, documents and imports benchmarks read it: 100 Python
// packages of 60 modules (__init__.py included) (each ~40 lines, importing absolutely and
// relatively), 40 Go packages of 50 files in one module, and 2,000 YAML,
// JSON and TOML documents. It returns the root.
func Tree10k(tb testing.TB) string {
	tb.Helper()
	root := TempDir(tb)
	WriteFile(tb, root, "go.mod", "module example.com/big\n\ngo 1.22\n")
	n := 1
	for p := range 100 {
		WriteFile(tb, root, fmt.Sprintf("pkg%d/__init__.py", p), "")
		n++
		for m := range 59 {
			src := fmt.Sprintf("import os\nimport pkg%d.mod%d\nfrom . import mod%d\nfrom ..pkg%d import mod1\n", (p+1)%100, m, (m+1)%59, (p+2)%100)
			for i := range 18 {
				src += fmt.Sprintf("\ndef f%d(x):\n    return x + %d  # print(x)\n", i, i)
			}
			WriteFile(tb, root, fmt.Sprintf("pkg%d/mod%d.py", p, m), src)
			n++
		}
	}
	for p := range 40 {
		for f := range 50 {
			WriteFile(tb, root, fmt.Sprintf("gopkg%d/f%d.go", p, f),
				fmt.Sprintf("package gopkg%d\n\nimport (\n\t\"fmt\"\n\t\"example.com/big/gopkg%d\"\n)\n\nfunc F%d() { fmt.Println(gopkg%d.X) }\n", p, (p+1)%40, f, (p+1)%40))
			n++
		}
	}
	for d := range 2000 {
		switch d % 3 {
		case 0:
			WriteFile(tb, root, fmt.Sprintf("conf/c%d.yaml", d), fmt.Sprintf("name: c%d\nsteps:\n  - uses: actions/checkout@v4\n  - run: make\nn: %d\nf: 1.5\n---\nsecond: true\n", d, d))
		case 1:
			WriteFile(tb, root, fmt.Sprintf("conf/c%d.json", d), fmt.Sprintf(`{"name": "c%d", "n": %d, "deps": {"a": "^1.2.3", "b": "~2"}}`, d, d))
		default:
			WriteFile(tb, root, fmt.Sprintf("conf/c%d.toml", d), fmt.Sprintf("[tool]\nname = \"c%d\"\nn = %d\n", d, d))
		}
		n++
	}
	if n != 10_001 { // go.mod included
		tb.Fatalf("generated %d files, want 10,001", n)
	}
	return root
}
