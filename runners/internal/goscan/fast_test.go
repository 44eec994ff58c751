package goscan

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/runners/internal/goscan/internal/fastscan"
)

// gorootSources lists every .go file under GOROOT/src with its bytes.
func gorootSources(t testing.TB) (paths []string, srcs [][]byte) {
	t.Helper()
	root := filepath.Join(runtime.GOROOT(), "src")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		paths = append(paths, filepath.ToSlash(rel))
		srcs = append(srcs, b)
		return nil
	})
	if err != nil || len(paths) < 1000 {
		t.Fatalf("GOROOT/src: %d files, %v", len(paths), err)
	}
	return paths, srcs
}

// TestFastScanMatchesGoParserOnGoroot: over every .go file of the Go
// installation (testdata with its broken files included), each file the
// fast path accepts is one go/parser accepts, with exactly go/parser's
// facts; and the fast path accepts nearly all of them, or it would not be
// fast.
func TestFastScanMatchesGoParserOnGoroot(t *testing.T) {
	paths, srcs := gorootSources(t)
	fast, broken := 0, 0
	for i, p := range paths {
		want := parseScan(p, srcs[i])
		if !want.Parsed {
			broken++
		}
		got, ok := fastscan.Scan(p, srcs[i])
		if !ok {
			if testing.Verbose() && want.Parsed {
				t.Logf("slow path: %s", p)
			}
			continue
		}
		fast++
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: fast path\n%+v\ngo/parser\n%+v", p, got, want)
		}
	}
	t.Logf("%d files, %d on the fast path, %d go/parser rejects", len(paths), fast, broken)
	if fast < (len(paths)-broken)*95/100 {
		t.Errorf("only %d of %d parseable files on the fast path", fast, len(paths)-broken)
	}
}

// agree fails t when the fast path accepts src and go/parser does not, or
// gives other facts.
func agree(t *testing.T, name string, src []byte) bool {
	t.Helper()
	got, ok := fastscan.Scan(name, src)
	if !ok {
		return false
	}
	if want := parseScan(name, src); !reflect.DeepEqual(got, want) {
		line := ""
		if want.Error != nil {
			line = fmt.Sprintf("go/parser: line %d: %s: %q", want.Error.Line, want.Error.Msg, strings.Split(string(src), "\n")[want.Error.Line-1])
		}
		t.Errorf("%s: fast path\n%+v\ngo/parser\n%+v\n%s", name, got, want, line)
	}
	return true
}

// TestFastScanRefusesDamagedGoroot: a fast path that accepts a file only
// when go/parser does must hold on broken Go too, which GOROOT has little
// of. Every 25th GOROOT file is damaged in 40 ways each (one byte deleted,
// doubled or replaced by a bracket, a comma, a semicolon, a newline or a
// keyword-breaking letter) and each version must get go/parser's verdict
// and facts whenever the fast path takes it.
func TestFastScanRefusesDamagedGoroot(t *testing.T) {
	paths, srcs := gorootSources(t)
	edits := []func(src []byte, i int) []byte{
		func(src []byte, i int) []byte { return append(slices.Clone(src[:i]), src[i+1:]...) },
		func(src []byte, i int) []byte { return append(slices.Clone(src[:i+1]), src[i:]...) },
	}
	for _, c := range []byte("{}()[],;\n=:.*x_0\"`'") {
		edits = append(edits, func(src []byte, i int) []byte {
			out := slices.Clone(src)
			out[i] = c
			return out
		})
	}
	accepted, tried := 0, 0
	for n := 0; n < len(paths); n += 25 {
		src := srcs[n]
		if len(src) < 2 {
			continue
		}
		for k := range 40 {
			i := (k*7919 + n*104729) % len(src)
			edit := edits[(k+n)%len(edits)]
			tried++
			if agree(t, fmt.Sprintf("%s edit %d at %d", paths[n], (k+n)%len(edits), i), edit(src, i)) {
				accepted++
			}
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d damaged files, %d taken by the fast path", tried, accepted)
}

// FuzzFastScanAgrees: whatever the bytes, a file the fast path takes is
// one go/parser accepts, with the same facts.
func FuzzFastScanAgrees(f *testing.F) {
	for _, seed := range append(slices.Clone(fuzzSeeds), fastSeeds...) {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) { agree(t, "f.go", src) })
}

// fastSeeds are forms the fast path reads and their near misses.
var fastSeeds = []string{
	"package a\n\nfunc f(a, b int, c ...string) (x int, err error) {\n\tfor i := range 10 {\n\t\tif v, ok := m[i]; ok && v > 0 {\n\t\t\tcontinue\n\t\t}\n\t}\n\treturn\n}\n",
	"package a\n\nfunc f(x any) {\n\tswitch y := x.(type) {\n\tcase []int, map[string]T:\n\t\t_ = y\n\tdefault:\n\t}\n\tselect {\n\tcase v, ok := <-c:\n\t\t_ = v\n\tcase c <- 1:\n\t}\n}\n",
	"package a\n\ntype T[P any] struct {\n\ta [4]int\n\tB []T[P]\n\tlib.Base[P]\n\t*X `json:\"x\"`\n}\n\nfunc (t *T[P]) M() { _ = T[int]{B: nil}; _ = [...]int{1, 2}; go func() {}() }\n",
	"package a\n\nvar x = s[1:2:3]\nconst (\n\tA = iota\n\tB\n)\n\nfunc f() { if x == (T{}) {}; defer (g)() }\n",
}
