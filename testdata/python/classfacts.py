#!/usr/bin/env python3
"""Reference for tausik's Python class scanner (runners/python).

Reads repo-relative paths, one per line, from stdin, parses each file under
ROOT with CPython's ast (from the file's bytes, so a BOM and a PEP 263 coding
cookie are honoured) and prints one JSON object per file, in input order:

  {"path": "a/b.py", "parsed": true, "error": null,
   "classes": [{"name": "A", "line": 3, "bases": ["B"], "public": ["run"]}]}

A file ast.parse rejects prints "parsed": false, "classes": [] and
"error": {"line": N, "msg": "...", "kind": "SyntaxError"}; N is 0 when CPython
names no line.

The facts, per class found anywhere by ast.walk (nested classes and classes in
functions too), ordered by line:
  name    ClassDef.name
  line    ClassDef.lineno (the line of the class keyword, not of a decorator)
  bases   per base, in order: a dotted name (Name, or Attribute over a chain
          of Attributes ending in a Name) gives its last identifier; any other
          expression is dropped; keywords (metaclass=...) are not bases
  public  sorted, deduplicated names not starting with "_" defined directly
          in ClassDef.body by FunctionDef, AsyncFunctionDef, an Assign target
          that is an ast.Name, or an AnnAssign whose target is an ast.Name

Usage: classfacts.py [--jobs N] [--bench] ROOT < paths
  --jobs N  parse with N worker processes (default 1)
  --bench   print only a summary line (files, lines, bytes, classes, seconds)
"""
import ast
import json
import os
import sys
import time
import warnings


def dotted_last(node):
    """The last identifier of a dotted name, or None for any other expression."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = node.value
        while isinstance(inner, ast.Attribute):
            inner = inner.value
        if isinstance(inner, ast.Name):
            return node.attr
    return None


def own_public(cls):
    names = set()
    for st in cls.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(st.name)
        elif isinstance(st, ast.Assign):
            for t in st.targets:
                if isinstance(t, ast.Name):
                    names.add(t.id)
        elif isinstance(st, ast.AnnAssign):
            if isinstance(st.target, ast.Name):
                names.add(st.target.id)
    return sorted(n for n in names if not n.startswith("_"))


def file_facts(root, rel):
    with open(os.path.join(root, rel), "rb") as fh:
        data = fh.read()
    out = {"path": rel, "parsed": True, "error": None, "classes": []}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tree = ast.parse(data, filename=rel)
        except (SyntaxError, ValueError, UnicodeError, OverflowError, MemoryError, RecursionError) as e:
            out["parsed"] = False
            line = getattr(e, "lineno", None) or 0
            msg = getattr(e, "msg", None) or str(e)
            out["error"] = {"line": line, "msg": msg, "kind": type(e).__name__}
            return out, data
    classes = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [b for b in (dotted_last(x) for x in node.bases) if b is not None]
            classes.append({
                "name": node.name,
                "line": node.lineno,
                "bases": bases,
                "public": own_public(node),
                "_col": node.col_offset,
            })
    classes.sort(key=lambda c: (c["line"], c["_col"]))
    for c in classes:
        del c["_col"]
    out["classes"] = classes
    return out, data


def work(args):
    root, rel = args
    out, data = file_facts(root, rel)
    return out, data.count(b"\n"), len(data)


def main(argv):
    jobs, bench, rest = 1, False, []
    i = 0
    while i < len(argv):
        if argv[i] == "--jobs":
            jobs = int(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--bench":
            bench = True
        else:
            rest.append(argv[i])
        i += 1
    if len(rest) != 1:
        sys.stderr.write(__doc__)
        return 2
    root = rest[0]
    paths = [p for p in sys.stdin.read().split("\n") if p]
    sys.setrecursionlimit(10000)
    start = time.perf_counter()
    tasks = [(root, p) for p in paths]
    if jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(work, tasks, chunksize=16)
    else:
        results = map(work, tasks)
    files = lines = size = classes = 0
    w = sys.stdout.write
    for out, nl, nb in results:
        files += 1
        lines += nl
        size += nb
        classes += len(out["classes"])
        if not bench:
            w(json.dumps(out, separators=(",", ":")) + "\n")
    secs = time.perf_counter() - start
    if bench:
        w("files=%d lines=%d bytes=%d classes=%d seconds=%.3f\n" % (files, lines, size, classes, secs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
