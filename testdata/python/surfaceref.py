#!/usr/bin/env python3
"""The reference framework's class_surface algorithm, for side-by-side timing.

Reads repo-relative .py paths, one per line, from stdin, parses each file
under ROOT with CPython's ast (classfacts.file_facts: own public names and
bases as the last identifier of a dotted name), resolves every base to a
class of that name in the same file, else to the unique class of that name
in the tree (two or more: ambiguous, not counted), unites public names over
each class's transitive closure and prints one summary line:

  classes=N over_cap=N ambiguous=N seconds=S

Usage: surfaceref.py [--cap N] ROOT < paths
"""
import sys
import time

import classfacts


def main(argv):
    cap = 60
    if len(argv) >= 2 and argv[0] == "--cap":
        cap, argv = int(argv[1]), argv[2:]
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    root = argv[0]
    start = time.perf_counter()
    classes = []  # (path, name, bases, public)
    for rel in (p for p in sys.stdin.read().split("\n") if p):
        out, _ = classfacts.file_facts(root, rel)
        for c in out["classes"]:
            classes.append((rel, c["name"], c["bases"], set(c["public"])))
    by_name, local = {}, {}
    for i, (rel, name, _, _) in enumerate(classes):
        by_name.setdefault(name, []).append(i)
        local.setdefault((rel, name), []).append(i)
    edges, ambiguous = [], 0
    for i, (rel, _, bases, _) in enumerate(classes):
        out = []
        for b in bases:
            cands = [k for k in local.get((rel, b), []) if k != i] or [k for k in by_name.get(b, []) if k != i]
            if len(cands) == 1:
                out.append(cands[0])
            elif len(cands) > 1:
                ambiguous += 1
        edges.append(out)
    over = 0
    for i in range(len(classes)):
        seen, stack, names = {i}, [i], set()
        while stack:
            k = stack.pop()
            names |= classes[k][3]
            for e in edges[k]:
                if e not in seen:
                    seen.add(e)
                    stack.append(e)
        over += len(names) > cap
    secs = time.perf_counter() - start
    print("classes=%d over_cap=%d ambiguous=%d seconds=%.3f" % (len(classes), over, ambiguous, secs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
