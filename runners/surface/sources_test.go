package surface

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tausik/tausik/runners/internal/sourcetest"
)

// TestSourcesNameEveryFileOfTheSurface: a class's sources are the files
// its count comes from besides its own: its bases' files, transitively
// (through a cycle and a diamond, each once), the files of the Go methods
// a struct and its embedded structs count, and the files of an ambiguous
// base's candidates with theirs. A class whose bases are all in its own
// file, or that has none, has no sources, never null.
func TestSourcesNameEveryFileOfTheSurface(t *testing.T) {
	root := sourcetest.GitRepo(t, map[string]string{
		"base.py":  "class Root:\n" + threeNames + "\nclass Mid(Root): pass\n",
		"left.py":  "from base import Mid\n\nclass Left(Mid): pass\n",
		"right.py": "from base import Mid\n\nclass Right(Mid): pass\n",
		"sub.py": "from left import Left\nfrom right import Right\n\nclass Sub(Left, Right): pass\n" +
			"class Alone:\n" + threeNames + "class Local(Alone): pass\n",
		"cyc_a.py":         "class CA(CB):\n" + threeNames,
		"cyc_b.py":         "class CB(CA): pass\n",
		"amb1/h.py":        "class Helper:\n" + threeNames,
		"amb2/h.py":        "from amb2.deep import Deep\n\nclass Helper(Deep): pass\n",
		"amb2/deep.py":     "class Deep:\n" + threeNames,
		"amb2/__init__.py": "",
		"user.py":          "class User(Helper): pass\n",
		"go.mod":           "module example.test\n\ngo 1.22\n",
		"g/inner.go":       "package g\n\ntype Inner struct{ A int }\n",
		"g/inner_m.go":     "package g\n\nfunc (Inner) M() {}\n",
		"g/outer.go":       "package g\n\ntype Outer struct {\n\tInner\n\tB int\n}\n\nfunc (Outer) N() {}\n",
		"g/outer_m.go":     "package g\n\nfunc (*Outer) P() {}\nfunc (*Outer) Q() {}\n",
	})
	s := gather(t, New(), root, map[string]any{"max_public_members": int64(0)})
	got := map[string]string{}
	for _, c := range s.Classes {
		if c.Sources == nil {
			t.Fatalf("%s:%s has null sources", c.Path, c.Name)
		}
		if !slices.IsSorted(c.Sources) || slices.Contains(c.Sources, c.Path) {
			t.Fatalf("%s:%s sources %v: want sorted, without its own file", c.Path, c.Name, c.Sources)
		}
		got[c.Path+":"+c.Name] = fmt.Sprint(c.Sources)
	}
	for k, want := range map[string]string{
		"base.py:Root":     "[]",
		"base.py:Mid":      "[]",
		"left.py:Left":     "[base.py]",
		"sub.py:Sub":       "[base.py left.py right.py]",
		"sub.py:Local":     "[]",
		"cyc_a.py:CA":      "[cyc_b.py]",
		"cyc_b.py:CB":      "[cyc_a.py]",
		"user.py:User":     "[amb1/h.py amb2/deep.py amb2/h.py]",
		"g/inner.go:Inner": "[g/inner_m.go]",
		"g/outer.go:Outer": "[g/inner.go g/inner_m.go g/outer_m.go]",
	} {
		if got[k] != want {
			t.Errorf("%s: sources %s, want %s", k, got[k], want)
		}
	}
}
