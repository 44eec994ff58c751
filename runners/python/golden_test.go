package python

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

// cls builds an expected class: name, line, bases, public names.
func cls(name string, line int, bases, public []string) facts.PythonClass {
	if bases == nil {
		bases = []string{}
	}
	if public == nil {
		public = []string{}
	}
	return facts.PythonClass{Name: name, Line: line, Bases: bases, Public: public}
}

func ss(s ...string) []string { return s }

// goldenCase is source with facts written by hand. since is the first
// CPython minor version (3.x) that parses it; the golden facts are checked
// against that CPython too when $TAUSIK_MODERN_PY names one that new.
type goldenCase struct {
	name  string
	since int
	src   string
	want  []facts.PythonClass
}

var goldenCases = []goldenCase{
	{"pep695 generic classes and type aliases", 13, `type Vector = list[float]
type Pair[K, V] = tuple[K, V]
class Box[T]:
    item: T
    type Alias = list[T]
    type = "a name, not an alias"
    def get(self) -> T: ...
class Pair2[K: str, *Ts, **P, V = int](Base, Generic[K], metaclass=Meta):
    x = 1
`, []facts.PythonClass{
		cls("Box", 3, nil, ss("get", "item", "type")),
		cls("Pair2", 8, ss("Base"), ss("x")),
	}},
	{"pep701 f-strings with nested quotes, comments and specs", 12, `class F:
    a = f"{x["key"]}"
    b = f"{f"{f"{1}"}"}"
    c = f"{x!r:>{width}}"
    d = f"""{
        x  # a comment: class Hidden
        + 1
    }"""
    e = f"{'class Hidden: pass'}"
    g = f'{x:{"a"}}' f"{y = }" rf"\N{x}" f"\N{BULLET} {z}"
    h = f"{ {'class': 1}['class'] }"
    i = f"{x:{y:{z}}}"
    def after(self): ...
`, []facts.PythonClass{
		cls("F", 1, nil, ss("a", "after", "b", "c", "d", "e", "g", "h", "i")),
	}},
	{"match statements and soft keywords as names", 10, `match = 1
case = 2
class M:
    match = 2
    case = 3
    def f(self, v):
        match v:
            case {"class": 1}:
                class InMatch: pass
            case [*_] if (lambda: v)():
                pass
            case _:
                pass
    match(1)
    if (n := 10) > 5:
        hidden = 1
`, []facts.PythonClass{
		cls("M", 3, nil, ss("case", "f", "match")),
		cls("InMatch", 9, nil, nil),
	}},
	{"decorators, async def, dotted and odd bases", 8, `@dataclass
class D(
    Base,  # a comment with class in it
    mod.Mixin,
    *extra,
    **kw,
):
    @property
    def x(self): ...
    @x.setter
    def x(self, v): ...
    @staticmethod
    async def go(): ...
    @decorator(
        arg=1)
    class Inner(pkg.sub.Base, Generic[T], lambda a, b: 0, (Other), (a.b).c, f().d, x if y else z):
        pass
`, []facts.PythonClass{
		cls("D", 2, ss("Base", "Mixin"), ss("go", "x")),
		cls("Inner", 16, ss("Base", "Other", "c"), nil),
	}},
	{"continuations and keywords inside strings", 8, "s = \"class NotAClass: pass\"\nt = '''\nclass AlsoNot:\n    def f(self): pass\n'''\nclass \\\n    Cont \\\n    (Base):\n    a = \\\n        1\n    def \\\n        m(self): pass\n", []facts.PythonClass{
		cls("Cont", 6, ss("Base"), ss("a", "m")),
	}},
	{"tabs", 8, "class T:\n\tdef a(self):\n\t\tpass\n\tb = 1\n\tif b:\n\t\tc = 2\n", []facts.PythonClass{
		cls("T", 1, nil, ss("a", "b")),
	}},
	{"crlf and lone cr line ends", 8, "class C:\r\n    x = 1\r\n    def y(self): pass\r\nclass R:\r    z = 1\r\r    w = '''a\rb'''\r", []facts.PythonClass{
		cls("C", 1, nil, ss("x", "y")),
		cls("R", 4, nil, ss("w", "z")),
	}},
	{"one-line bodies and semicolons", 8, "class A: x = 1; y = 2;\nclass B: pass\nclass E(A): ...\n", []facts.PythonClass{
		cls("A", 1, nil, ss("x", "y")),
		cls("B", 2, nil, nil),
		cls("E", 3, ss("A"), nil),
	}},
	{"what counts as a public name", 8, `class Assign:
    a = b = 1
    c, d = 1, 2
    (e) = 3
    [f] = [4]
    g: int
    h: int = 5
    (i): int = 6
    j.k = 7
    l[0] = 8
    m += 9
    _private = 10
    __dunder__ = 11
    n = lambda x=1, y=2: x
    o = p = q = lambda: 0
    if True:
        r = 12
    try:
        s = 13
    except Exception:
        pass
    for t in range(3): pass
    with open(x) as u: pass
    global v
    w = yield_ = 14
    import os
    from sys import path
    print(x)
    x == y
    aa: "class X" = call(kw=1)
    bb = {k: v for k, v in d.items()}
`, []facts.PythonClass{
		cls("Assign", 1, nil, ss("a", "aa", "b", "bb", "e", "g", "h", "i", "n", "o", "p", "q", "w", "yield_")),
	}},
	{"classes in functions and nested classes", 8, `def outer():
    class InFunc:
        class Nested:
            y = 1
        x = 2
    return InFunc
class Top:
    class Mid:
        class Low(Mid): pass
    def m(self):
        class Local(Top.Mid): pass
`, []facts.PythonClass{
		cls("InFunc", 2, nil, ss("x")),
		cls("Nested", 3, nil, ss("y")),
		cls("Top", 7, nil, ss("m")),
		cls("Mid", 8, nil, nil),
		cls("Low", 9, ss("Mid"), nil),
		cls("Local", 11, ss("Mid"), nil),
	}},
	{"non-ascii names are NFKC-normalised", 8, "class Café:\n    ℌ = 1\n    µ = 2\n    def ｆｕｌｌ(self): pass\n    _ï = 3\n", []facts.PythonClass{
		cls("Café", 1, nil, ss("H", "full", "μ")),
	}},
	{"latin-1 coding cookie", 8, "# -*- coding: latin-1 -*-\nclass Caf\xe9:\n    \xe9t\xe9 = '\xff'\n", []facts.PythonClass{
		cls("Café", 2, nil, ss("été")),
	}},
	{"cookie on line 2 and a BOM", 8, "\xef\xbb\xbf#!/usr/bin/env python\n# vim: set fileencoding=utf-8 :\nclass B: pass\n", []facts.PythonClass{
		cls("B", 3, nil, nil),
	}},
	{"form feeds and comments between statements", 8, "\fclass A:\n\n    # comment\n\f    x = 1\n        # deeper comment\n    y = 2\n", []facts.PythonClass{
		cls("A", 1, nil, ss("x", "y")),
	}},
	{"pep750 t-strings", 14, "class T:\n    a = t\"{x!r}\"\n    b = Tr'{y:>{w}}'\n", []facts.PythonClass{
		cls("T", 1, nil, ss("a", "b")),
	}},
}

// TestGoldenFacts checks hand-written facts for syntax CPython 3.11 cannot
// parse (PEP 695, 701, 750) and for the corners of the rules.
func TestGoldenFacts(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			got := Scan("case.py", []byte(c.src))
			if !got.Parsed {
				t.Fatalf("not parsed: line %d: %s", got.Error.Line, got.Error.Msg)
			}
			if !reflect.DeepEqual(got.Classes, c.want) {
				g, _ := json.MarshalIndent(got.Classes, "", "  ")
				w, _ := json.MarshalIndent(c.want, "", "  ")
				t.Errorf("classes:\n%s\nwant:\n%s", g, w)
			}
		})
	}
}

// TestGoldenFactsAgainstModernCPython runs the golden cases through the
// reference with $TAUSIK_MODERN_PY (a CPython 3.12 or newer) to prove the
// hand-written facts are what that CPython's ast reports.
func TestGoldenFactsAgainstModernCPython(t *testing.T) {
	py := os.Getenv("TAUSIK_MODERN_PY")
	if py == "" {
		t.Skip("SKIP: set TAUSIK_MODERN_PY to a CPython >= 3.12 to check the golden facts against it")
	}
	minor, err := strconv.Atoi(strings.TrimPrefix(pyVersion(t, py), "3."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for i, c := range goldenCases {
		if c.since > minor {
			t.Logf("skipping %q: needs CPython 3.%d", c.name, c.since)
			continue
		}
		p := "case" + strconv.Itoa(i) + ".py"
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	ref := runRef(t, py, dir, paths, 1)
	for i, c := range goldenCases {
		w, ok := ref["case"+strconv.Itoa(i)+".py"]
		if !ok {
			continue
		}
		if !w.Parsed {
			t.Errorf("%s: CPython rejects it: line %d: %s", c.name, w.Error.Line, w.Error.Msg)
			continue
		}
		if !reflect.DeepEqual(normClasses(w.Classes), c.want) {
			t.Errorf("%s: %s", c.name, classDiff(normClasses(w.Classes), c.want))
		}
	}
}
