"""An independent reading of agent host wiring, for TestGeneratorsMultiHost:
GATES.md's capability rules written again in Python, sharing no code with
the Go readers. Usage: read_capabilities.py HOST=FORMAT:DIR ... ; prints
{"capabilities": {host: {id: matcher}}, "differences": [id, ...]} as JSON.
"""
import json
import os
import sys

CANONICAL = {
    "qwen": {"write_file": "Write", "replace": "Edit", "edit": "Edit", "run_shell_command": "Bash",
             "read_file": "Read", "web_fetch": "WebFetch", "task": "Task", "glob": "Glob",
             "search_file_content": "Grep"},
}
EVERY = "*"


def matcher_set(host, matcher):
    parts = set()
    for p in (matcher or "").split("|"):
        p = p.strip()
        if p in ("", "*"):
            return EVERY
        parts.add(CANONICAL.get(host, {}).get(p, p))
    return parts


def unite(a, b):
    if a == EVERY or b == EVERY:
        return EVERY
    return a | b


def hook_ids(event, command):
    ids = []
    for tok in command.replace("\\", "/").split():
        tok = tok.strip("\"'")
        if tok.endswith((".py", ".js", ".mjs", ".ts", ".sh")):
            ids.append("hook:%s:%s" % (event, tok.rsplit("/", 1)[-1]))
    return ids


def read_settings(host, path):
    caps = {}
    with open(path) as f:
        doc = json.load(f)
    for event, entries in doc.get("hooks", {}).items():
        for entry in entries:
            for h in entry.get("hooks", []):
                for cid in hook_ids(event, h["command"]):
                    m = matcher_set(host, entry.get("matcher", ""))
                    caps[cid] = unite(caps[cid], m) if cid in caps else m
    return caps


def read_plugins(d):
    return {"plugin:" + n: EVERY for n in os.listdir(d) if n.endswith((".js", ".mjs", ".ts"))}


def show(m):
    return "" if m == EVERY else "|".join(sorted(m))


def main():
    caps, kinds = {}, {}
    for arg in sys.argv[1:]:
        host, rest = arg.split("=", 1)
        fmt, path = rest.split(":", 1)
        if fmt == "plugins":
            caps[host], kinds[host] = read_plugins(path), "plugin"
        else:
            caps[host], kinds[host] = read_settings(host, path), "hook"
    diffs = []
    for kind in set(kinds.values()):
        members = sorted(h for h in kinds if kinds[h] == kind)
        if len(members) < 2:
            continue
        union = set().union(*(caps[h] for h in members))
        for cid in union:
            have = [h for h in members if cid in caps[h]]
            diffs += ["missing:%s@%s" % (cid, h) for h in members if h not in have]
            if len({show(caps[h][cid]) for h in have}) > 1:
                diffs.append("matcher:" + cid)
    out = {"capabilities": {h: {c: show(m) for c, m in cs.items()} for h, cs in caps.items()},
           "differences": sorted(diffs)}
    json.dump(out, sys.stdout, sort_keys=True)


main()
