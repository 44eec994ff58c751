// Package pyscantest holds what the Python scanner's tests and the python
// runner's tests share: the golden cases (source with hand-written facts),
// the edge cases (snippets with the line CPython rejects them at) and the
// listing of a tree's .py files.
package pyscantest

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

// Cls builds an expected class: name, line, bases, public names.
func Cls(name string, line int, bases, public []string) facts.PythonClass {
	if bases == nil {
		bases = []string{}
	}
	if public == nil {
		public = []string{}
	}
	return facts.PythonClass{Name: name, Line: line, Bases: bases, Public: public}
}

func ss(s ...string) []string { return s }

// Golden is source with facts written by hand. since is the first
// CPython minor version (3.x) that parses it; the golden facts are checked
// against that CPython too when $TAUSIK_MODERN_PY names one that new.
type Golden struct {
	Name  string
	Since int
	Src   string
	Want  []facts.PythonClass
}

// GoldenCases are the golden cases the scanner's tests and the fuzz seeds use.
var GoldenCases = []Golden{
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
		Cls("Box", 3, nil, ss("get", "item", "type")),
		Cls("Pair2", 8, ss("Base"), ss("x")),
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
		Cls("F", 1, nil, ss("a", "after", "b", "c", "d", "e", "g", "h", "i")),
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
		Cls("M", 3, nil, ss("case", "f", "match")),
		Cls("InMatch", 9, nil, nil),
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
		Cls("D", 2, ss("Base", "Mixin"), ss("go", "x")),
		Cls("Inner", 16, ss("Base", "Other", "c"), nil),
	}},
	{"continuations and keywords inside strings", 8, "s = \"class NotAClass: pass\"\nt = '''\nclass AlsoNot:\n    def f(self): pass\n'''\nclass \\\n    Cont \\\n    (Base):\n    a = \\\n        1\n    def \\\n        m(self): pass\n", []facts.PythonClass{
		Cls("Cont", 6, ss("Base"), ss("a", "m")),
	}},
	{"tabs", 8, "class T:\n\tdef a(self):\n\t\tpass\n\tb = 1\n\tif b:\n\t\tc = 2\n", []facts.PythonClass{
		Cls("T", 1, nil, ss("a", "b")),
	}},
	{"crlf and lone cr line ends", 8, "class C:\r\n    x = 1\r\n    def y(self): pass\r\nclass R:\r    z = 1\r\r    w = '''a\rb'''\r", []facts.PythonClass{
		Cls("C", 1, nil, ss("x", "y")),
		Cls("R", 4, nil, ss("w", "z")),
	}},
	{"one-line bodies and semicolons", 8, "class A: x = 1; y = 2;\nclass B: pass\nclass E(A): ...\n", []facts.PythonClass{
		Cls("A", 1, nil, ss("x", "y")),
		Cls("B", 2, nil, nil),
		Cls("E", 3, ss("A"), nil),
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
		Cls("Assign", 1, nil, ss("a", "aa", "b", "bb", "e", "g", "h", "i", "n", "o", "p", "q", "w", "yield_")),
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
		Cls("InFunc", 2, nil, ss("x")),
		Cls("Nested", 3, nil, ss("y")),
		Cls("Top", 7, nil, ss("m")),
		Cls("Mid", 8, nil, nil),
		Cls("Low", 9, ss("Mid"), nil),
		Cls("Local", 11, ss("Mid"), nil),
	}},
	{"non-ascii names are NFKC-normalised", 8, "class Café:\n    ℌ = 1\n    µ = 2\n    def ｆｕｌｌ(self): pass\n    _ï = 3\n", []facts.PythonClass{
		Cls("Café", 1, nil, ss("H", "full", "μ")),
	}},
	{"latin-1 coding cookie", 8, "# -*- coding: latin-1 -*-\nclass Caf\xe9:\n    \xe9t\xe9 = '\xff'\n", []facts.PythonClass{
		Cls("Café", 2, nil, ss("été")),
	}},
	{"cookie on line 2 and a BOM", 8, "\xef\xbb\xbf#!/usr/bin/env python\n# vim: set fileencoding=utf-8 :\nclass B: pass\n", []facts.PythonClass{
		Cls("B", 3, nil, nil),
	}},
	{"form feeds and comments between statements", 8, "\fclass A:\n\n    # comment\n\f    x = 1\n        # deeper comment\n    y = 2\n", []facts.PythonClass{
		Cls("A", 1, nil, ss("x", "y")),
	}},
	{"pep750 t-strings", 14, "class T:\n    a = t\"{x!r}\"\n    b = Tr'{y:>{w}}'\n", []facts.PythonClass{
		Cls("T", 1, nil, ss("a", "b")),
	}},
}

// Edge is a snippet and the line the scanner must reject it at (0: it
// must parse). since is the first CPython 3.x that agrees (0 for none: the
// expectation follows newer CPython than any the tests can run).
type Edge struct {
	Src   string
	Line  int
	Since int
}

// EdgeCases are the snippets the scanner must accept or reject at a line.
var EdgeCases = []Edge{
	// Numbers: what may follow a literal, underscores, leading zeros.
	{"1if 1 else 2\n", 0, 8}, {"0x1for x in y\n", 0, 8}, {"[0x1for x in y]\n", 0, 8}, {"1and 2\n", 0, 8},
	{"0in x\n", 0, 8}, {"1_000\n", 0, 8}, {"0_0\n", 0, 8}, {"00\n", 0, 8}, {"1e5j\n", 0, 8}, {"1.e5\n", 0, 8},
	{"1.j\n", 0, 8}, {".5\n", 0, 8}, {"09.5\n", 0, 8}, {"09j\n", 0, 8}, {"09e1\n", 0, 8}, {"x = 1 .real\n", 0, 8},
	{"1__0\n", 1, 8}, {"1_\n", 1, 8}, {"0_1\n", 1, 8}, {"01\n", 1, 8}, {"1e\n", 1, 8}, {"1e+\n", 1, 8},
	{"0b12\n", 1, 8}, {"0o8\n", 1, 8}, {"0x\n", 1, 8}, {"1_e5\n", 1, 8}, {"1e_5\n", 1, 8}, {"1.5_j\n", 1, 8},
	{"1._5\n", 1, 8}, {"1_.5\n", 1, 8}, {"x = 1abc\n", 1, 8}, {"0x1g\n", 1, 8}, {"1Else\n", 1, 8}, {"x = 10L\n", 1, 8},
	{"x = 1\n0777\n", 2, 8}, {"1\xc3\xa9\n", 1, 8},
	// Characters no token or rule accepts.
	{"`x`\n", 1, 8}, {"a $ b\n", 1, 8}, {"a ? b\n", 1, 8}, {"a <> b\n", 1, 8}, {"!a\n", 1, 8},
	{"x = 1\x1a\n", 1, 8}, {"x = 1 \x0b\n", 1, 8}, {"x\xc2\xa0= 1\n", 1, 8}, {"\xe2\x82\xac = 1\n", 1, 8},
	{"x = 1\n\x00\n", 2, 8}, {"a = 1\x0c\n", 0, 8},
	// Encodings, BOMs and cookies; invalid UTF-8 is fine in comments only.
	{"# \xff\nx = 1\n", 0, 8}, {"x = 1 # \xff\n", 0, 8}, {"x = \"\xff\"\n", 1, 8}, {"x = b\"\xff\"\n", 1, 8},
	{"\xef\xbb\xbfx = 1\n", 0, 8}, {"\xef\xbb\xbf# coding: utf-8-sig\nx = 1\n", 0, 8},
	{"\xef\xbb\xbf# coding: latin-1\nx = 1\n", 1, 8}, {"# coding: latin-1\r\nx = \"\xff\"\r\n", 0, 8},
	{"# coding: latin-1\rx = \"\xff\"\r", 0, 8}, {"x=1\n# coding: latin-1\nx = \"\xff\"\n", 3, 8},
	{"\n\n# coding: latin-1\nx = \"\xff\"\n", 4, 8}, {"# coding: cp1252\nx = \"\x81\"\n", 2, 8},
	{"# coding=utf8\nx = 1 # \xff\n", 2, 8}, {"# coding: bogus\nx = 1\n", 1, 8}, {"# coding: ascii\n# \xc3\xa9\n", 2, 8},
	{"#!/usr/bin/python\n# -*- coding: koi8-r -*-\nx = '\xc1'\n", 0, 8}, {"\xc3\xa9 = 1\n", 0, 8}, {"\xc2\xb5 = 1\n", 0, 8},
	// Strings.
	{"x = \"a\rb\"\n", 1, 8}, {"x = \"\"\"a\rb\"\"\"\n", 0, 8}, {"\"\"\"abc\n", 1, 8}, {"'abc\n", 1, 8},
	{"x = 1\ns = '''abc\ndef", 2, 8}, {"x = '''\n\\\n'''\n", 0, 8}, {"x = 'a\\\nb'\n", 0, 8},
	{"x = 'a' b'b'\n", 1, 8}, {"x = b'a' B'b' rb'c' Br'd'\n", 0, 8}, {"x = U'a' R'b' u'c'\n", 0, 8},
	{"x = ur'a'\n", 1, 8}, {"x = \"\\x4\"\n", 1, 8}, {"x = b\"\\x4\"\n", 1, 8}, {"x = \"\\U00110000\"\n", 1, 8},
	{"x = \"\\N\"\n", 1, 8}, {"x = \"\\N{}\"\n", 1, 8}, {"x = b\"\\N\\u\\U\"\n", 0, 8}, {"x = r\"\\x\\N\"\n", 0, 8},
	{"x = \"\\q\"\n", 0, 8},
	// Indentation, continuations, brackets.
	{"if 1:\n\tx = 1\n        y = 2\n", 3, 8}, {"if 1:\n        x = 1\n\ty = 2\n", 3, 8}, {"if 1:\n  \tx = 1\n\ty = 2\n", 3, 8},
	{"if 1:\n x = 1\n  \\\n y = 2\n", 4, 8}, {"if True:\n  \\\n  x = 1\n", 0, 8}, {"x = 1\\\n", 1, 8}, {"x = 1\\", 1, 8},
	{"x = 1 \\ \n", 1, 8}, {"x = 1 + \\\n    2\n", 0, 8}, {"(\n", 1, 8}, {"x = (]\n", 1, 8}, {")\n", 1, 8},
	{"x = (\n1,\n", 1, 8}, {"x = [1,\n(2\n", 2, 8}, {"if 1:\n  x\n y\n", 3, 8}, {"x = 1\n  \n\t\n# c\n", 0, 8},
	{"if x:\n\n  # c\n  pass\n", 0, 8}, {"\x0c\nif 1:\n\x0c  x=1\n", 0, 8}, {"if 1:\n  x = 1\n\x0c  y = 2\n", 0, 8},
	{"if 1:\n    x = 1\n  \x0c  y = 2\n", 3, 8}, {"x = 1\r\n  y = 2\r\n", 2, 8}, {"def f():\n  pass\n    pass\n", 3, 8},
	{"if x:\n    pass\n  else:\n    pass\n", 3, 8}, {strings.Repeat("(", 199) + strings.Repeat(")", 199) + "\n", 0, 8},
	{strings.Repeat("[", 201) + strings.Repeat("]", 201) + "\n", 1, 8}, {nestedIfs(99), 0, 8}, {nestedIfs(101), 101, 8},
	// Statements.
	{"a = 1;\n", 0, 8}, {"a = 1;;\n", 1, 8}, {";\n", 1, 8}, {"if x: y = 1; z = 2\n", 0, 8}, {"x = 1; if y: pass\n", 1, 8},
	{"if x: if y: pass\n", 1, 8}, {"class A\n", 1, 8}, {"class A:\npass\n", 2, 8}, {"def f():\nreturn\n", 2, 8},
	{"class A(B) C: pass\n", 1, 8}, {"class 1: pass\n", 1, 8}, {"class def: pass\n", 1, 8}, {"x = class\n", 1, 8},
	{"f(class=1)\n", 1, 8}, {"x.None\n", 1, 8}, {"x.def = 1\n", 1, 8}, {"async = 1\n", 1, 8}, {"pass x\n", 1, 8},
	{"@dec\nx = 1\n", 2, 8}, {"@dec\n\nclass A: pass\n", 0, 8}, {"print \"x\"\n", 1, 8}, {"exec \"x\" in d\n", 1, 8},
	{"print >>f, x\n", 0, 8}, {"raise E, 'message'\n", 1, 8}, {"raise (E, F)\nraise E(a, b) from f(c, d)\n", 0, 8}, {"from . import x\nfrom .. import (a, b)\nfrom ... import c\n", 0, 8}, {"True.real\n", 0, 8},
	{"x = [i async for i in y]\n", 0, 8}, {"async def f():\n    async with a as b, c:\n        async for x in y:\n            await z\n", 0, 8},
	{"def f():\n    return (yield)\n", 0, 8}, {"x = not y or a is not b and c not in d\n", 0, 8},
	{"@property\ndef f(): pass\n@a.b(c)\nclass A: pass\n@(lambda f: f)\ndef g(): pass\n", 0, 9},
	{"if x:\n    pass\nelif y:\n    pass\nelse:\n    pass\n", 0, 8}, {"try:\n    pass\nexcept* E:\n    pass\n", 0, 11},
	{"while x: pass\nelse: pass\n", 0, 8}, {"with (a as b, c as d):\n    pass\n", 0, 9}, {"def f(a, /, b, *, c): pass\n", 0, 8},
	{"x: int\n(y): int = 1\n", 0, 8}, {"x = {**a, 'b': 1}\nprint(*a, **k)\n", 0, 8},
	{"if lambda: 1: pass\n", 0, 8}, {"def f() -> lambda: 1: pass\n", 0, 8},
	{"match x:\n    case 1 | 2:\n        pass\n    case {\"a\": b, **rest}:\n        pass\n    case Point(x=0) as p if p:\n        pass\n", 0, 10},
	{"case = 1\nmatch = 2\ntype = 3\nprint(match, case, type)\nmatch(x)\nmatch[x] = 1\nmatch.x\ntype(x)\n", 0, 10},
	{"type X = int\ntype Y[T: (int, str), *Ts] = list[T]\nclass A:\n    type Z = X\n", 0, 12}, {"type X\n", 1, 12},
	{"type X[T]\n", 1, 12}, {"type X =\n", 1, 12}, {"type = 1\ntype.x = 2\ntype[0] = 3\ntype(x)\n", 0, 8},
	{"match x:\n    pass\n", 2, 10}, {"match x:\n    case 1: pass\n    x = 1\n", 3, 10},
	{"del x, y[0], z.a\nassert x, 'msg'\nraise E from e\nraise\nreturn\nx = yield\n", 0, 8},
	{"class A(B, metaclass=M, **kw): pass\n", 0, 8}, {"x = ...\nx[...] = 1\nx = a[1:2, ::3]\n", 0, 8},
	{"s = 'a' 'b' \"c\" f'd'\n", 0, 8}, {"x = b'a' f'b'\n", 1, 8},
	// Clauses must follow what they belong to.
	{"else:\n    pass\n", 1, 8}, {"if x:\n    pass\nx = 1\nelse:\n    pass\n", 4, 8}, {"try:\n    pass\nx = 1\n", 3, 8},
	{"try:\n    pass\n", 2, 8}, {"try:\n    pass\n\n\n", 4, 8}, {"if x:\n", 1, 8}, {"if x:\n\n\n", 3, 8},
	{"class A:\n    # c\n", 2, 8}, {"if x:\n    try:\n        pass\n", 3, 8}, {"for x in y:\n    pass\nelse:\n    pass\nelse:\n    pass\n", 5, 8},
	{"try:\n    pass\nfinally:\n    pass\nexcept E:\n    pass\n", 5, 8}, {"while x:\n    pass\nelif y:\n    pass\n", 3, 8},
	{"try:\n    pass\nexcept E:\n    pass\nexcept* F:\n    pass\n", 5, 11}, {"if x:\n    try:\n        pass\nelse:\n    pass\n", 4, 8},
	{"try:\n    pass\nexcept E:\n    pass\nelse:\n    pass\nfinally:\n    pass\n", 0, 8}, {"try: pass\nfinally: pass\n", 0, 8},
	{"if a: pass\nelif b: pass\nelif c: pass\nelse: pass\n", 0, 8}, {"async def f():\n    async for x in y: pass\n    else: pass\n", 0, 8},
	{"try:\n    pass\nelse:\n    pass\n", 3, 8}, {"match x:\n    case 1:\n        if y: pass\nelse: pass\n", 4, 10},
	// f-strings (PEP 701 from 3.12 on).
	{"f\"{x!r:>{width}}\"\n", 0, 8}, {"f\"\\N{DIGIT ONE}\"\n", 0, 8}, {"rf\"\\N{x}\"\n", 0, 8}, {"f\"\"\"{x:\n}\"\"\"\n", 0, 8},
	{"f\"{x:{{}}}\"\n", 0, 8}, {"f\"{x}\\\nabc\"\n", 0, 8}, {"f\"{(lambda: 1)}\"\n", 0, 8},
	{"f\"{x:=5}\"\n", 0, 8}, {"f\"{a!=b}\"\n", 0, 8}, {"f\"{x = !r:10}\"\n", 0, 8}, {"f\"{x:\\n}\"\n", 0, 8},
	{"f\"{1 +\n 2}\"\n", 0, 12}, {"f'{x\n}'\n", 0, 12}, {"f\"\"\"{x # c\n}\"\"\"\n", 0, 12}, {"f\"{x # c\n}\"\n", 0, 12},
	{"f\"{x[\"a\"]}\"\n", 0, 12}, {"f\"{f\"{f\"{1}\"}\"}\"\n", 0, 12}, {"f\"{x:{\"a\"}}\"\n", 0, 12}, {"f\"{x!r }\"\n", 0, 12},
	{"f\"{x\\\n}\"\n", 0, 12}, {"f\"{'\\n'}\"\n", 0, 12}, {"f\"{x:{y:{z}}}\"\n", 0, 12},
	{"f\"{x}}\"\n", 1, 8}, {"f\"{x:a}b}\"\n", 1, 8}, {"f\"{x!}\"\n", 1, 8}, {"f\"{x! r}\"\n", 1, 8}, {"f\"{x!z}\"\n", 1, 8},
	{"f\"{}\"\n", 1, 8}, {"f\"{ }\"\n", 1, 8}, {"f\"{x:}}\"\n", 1, 8}, {"f\"{x:{y}}}\"\n", 1, 8},
	{"f\"{lambda: 1}\"\n", 1, 8}, {"f\"{x:{y:{z:{w}}}}\"\n", 1, 8}, {"x = f'{'\n", 1, 8}, {"f'abc\n", 1, 8},
	{"x = 1\nf'''{\n'''\n", 3, 12}, {"f\"{x!r:{y!s}}\"\n", 0, 8}, {"f\"{x!r=}\"\n", 1, 8},
	// Newer CPython (3.13.1+) rejects a newline in the format spec of a
	// single-quoted f-string; 3.12 and 3.13.0 accept it.
	{"f\"{x:\n}\"\n", 1, 0},
}

// nestedIfs returns n nested if statements, each indented one more space.
func nestedIfs(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "if x:\n")
	}
	return b.String() + strings.Repeat(" ", n) + "pass\n"
}

// ListPy lists the regular .py files under root, repo-relative and sorted.
func ListPy(t testing.TB, root string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && strings.HasSuffix(path, ".py") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", root, err)
	}
	slices.Sort(paths)
	return paths
}
