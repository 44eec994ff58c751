package python

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// edgeCase is a snippet and the line the scanner must reject it at (0: it
// must parse). since is the first CPython 3.x that agrees (0 for none: the
// expectation follows newer CPython than any the tests can run).
type edgeCase struct {
	src   string
	line  int
	since int
}

var edgeCases = []edgeCase{
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

// TestEdgeCases runs every snippet through the scanner, and through CPython
// when one is at hand to prove the expectation right.
func TestEdgeCases(t *testing.T) {
	for i, c := range edgeCases {
		got := Scan("case.py", []byte(c.src))
		switch {
		case c.line == 0 && !got.Parsed:
			t.Errorf("case %d %q: rejected at line %d (%s), want parsed", i, c.src, got.Error.Line, got.Error.Msg)
		case c.line != 0 && got.Parsed:
			t.Errorf("case %d %q: parsed, want an error at line %d", i, c.src, c.line)
		case c.line != 0 && got.Error.Line != c.line:
			t.Errorf("case %d %q: error at line %d (%s), want line %d", i, c.src, got.Error.Line, got.Error.Msg, c.line)
		}
	}
}

// TestEdgeCasesAgainstCPython checks that CPython agrees with every
// expectation in edgeCases: the reference interpreter for cases it is new
// enough for, and $TAUSIK_MODERN_PY (if set) for the newer ones.
func TestEdgeCasesAgainstCPython(t *testing.T) {
	pys := []string{refPython(t)}
	if m := os.Getenv("TAUSIK_MODERN_PY"); m != "" {
		pys = append(pys, m)
	} else {
		t.Log("set TAUSIK_MODERN_PY to a CPython >= 3.12 to check the PEP 701 cases too")
	}
	for _, py := range pys {
		minor, err := strconv.Atoi(strings.TrimPrefix(pyVersion(t, py), "3."))
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		var paths []string
		var cases []edgeCase
		for i, c := range edgeCases {
			if c.since == 0 || c.since > minor {
				continue
			}
			p := "case" + strconv.Itoa(i) + ".py"
			if err := os.WriteFile(filepath.Join(dir, p), []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
			cases = append(cases, c)
		}
		ref := runRef(t, py, dir, paths, 1)
		for k, p := range paths {
			c, w := cases[k], ref[p]
			if w.Parsed != (c.line == 0) {
				t.Errorf("python 3.%d disagrees on %q: parsed=%v %+v", minor, c.src, w.Parsed, w.Error)
				continue
			}
			if !w.Parsed && w.Error.Line > 0 && w.Error.Line != c.line && !literalError(w.Error.Msg) {
				t.Errorf("python 3.%d rejects %q at line %d (%s), the case says line %d", minor, c.src, w.Error.Line, w.Error.Msg, c.line)
			}
			if d := compareRef(w, Scan(p, []byte(c.src))); d != "" {
				t.Errorf("%q: %s", c.src, d)
			}
		}
		t.Logf("python 3.%d agrees on %d cases", minor, len(paths))
	}
}
