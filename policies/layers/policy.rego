# layers: import boundaries over the imports facts. Module names are what
# the facts give (Python: dotted modules; Go: the package's directory below
# go.mod, "." for the module root, or the full path outside the module), and
# a pattern covers a name equal to it or below it (pkg covers pkg.sub in
# Python, engine covers engine/hosts in Go).
package tausik.gates.layers

imports := input.imports

params := input.params

could_not_run contains {"code": "imports_error", "msg": sprintf("the import graph could not be read: %s", [imports.reason])} if {
	imports.status != "ok"
}

not_applicable contains {"code": "no_contracts", "msg": "params layers, forbidden, independent, containers and no_parent are all empty: nothing to enforce"} if {
	count(params.layers) == 0
	count(params.forbidden) == 0
	count(params.independent) == 0
	count(params.containers) == 0
	count(params.no_parent) == 0
}

# --- configuration -----------------------------------------------------------

# A layer entry is one group, or siblings split by "|" (independent) or ":".
layer_groups(entry) := [trim_space(g) | some g in split(entry, "|")] if {
	contains(entry, "|")
} else := [trim_space(g) | some g in split(entry, ":")]

layer_entries := [[g, i] | some i, entry in params.layers; some g in layer_groups(entry)]

layer_index(g) := min({i | some e in layer_entries; e[0] == g; i := e[1]})

as_list(x) := x if is_array(x)

else := [x]

patterns_of(g) := params.groups[g] if is_array(params.groups[g])

else := [g]

all_groups contains e[0] if some e in layer_entries

all_groups contains g if some g, _ in params.groups

all_groups contains g if {
	some r in params.forbidden
	some g in array.concat(as_list(object.get(r, "from", [])), as_list(object.get(r, "to", [])))
}

all_groups contains g if {
	some gs in params.independent
	some g in gs
}

bad_config contains sprintf("layers: group %q is in more than one layer", [g]) if {
	some g in all_groups
	count({i | some e in layer_entries; e[0] == g; i := e[1]}) > 1
}

bad_config contains sprintf("layers: %q is not a group name (no spaces, or both | and :)", [g]) if {
	some e in layer_entries
	g := e[0]
	not regex.match(`^[^\s|:]+$`, g)
}

bad_config contains sprintf("groups.%s: want a list of module patterns", [g]) if {
	some g, p in params.groups
	not is_array(p)
}

bad_config contains sprintf("forbidden.%s: want {from, to, reason} with a reason", [name]) if {
	some name, r in params.forbidden
	not good_forbidden(r)
}

good_forbidden(r) if {
	is_object(r)
	r.from
	r.to
	trim_space(r.reason) != ""
}

bad_config contains sprintf("independent.%s: want a list of at least two groups", [name]) if {
	some name, gs in params.independent
	not count(as_list(gs)) >= 2
}

bad_config contains sprintf("allow[%q]: want \"importer -> imported\" with a reason", [k]) if {
	some k, reason in params.allow
	not good_allow(k, reason)
}

good_allow(k, reason) if {
	count(split(k, " -> ")) == 2
	is_string(reason)
	trim_space(reason) != ""
}

violations contains {"msg": sprintf("%s; fix it in the config (gates.layers.params)", [msg]), "rule": "bad_config"} if {
	some msg in bad_config
}

# --- the import graph ----------------------------------------------------------

sep := {"python": ".", "go": "/"}

covers(p, name, lang) if p == name

covers(p, name, lang) if startswith(name, concat("", [p, sep[lang]]))

# Go names are relative to the file's module; a Python module is its own name.
rel(f, p) := "." if {
	f.language == "go"
	p == f.module
} else := substring(p, count(f.module) + 1, -1) if {
	f.language == "go"
	f.module != ""
	startswith(p, concat("", [f.module, "/"]))
} else := p

self_name(f) := f.module if f.language == "python"

self_name(f) := rel(f, f.package) if f.language == "go"

requested := {p | some p in input.request.files}

judged(path) if not input.request.explicit

judged(path) if path in requested

edges contains {"file": f.path, "line": im.line, "lang": f.language, "from": self_name(f), "to": rel(f, im.module)} if {
	imports.status == "ok"
	some f in imports.files
	f.parsed
	judged(f.path)
	some im in f.imports
	im.module != ""
	not allowed(self_name(f), rel(f, im.module), f.language)
}

allowed(from, to, lang) if {
	some k, reason in params.allow
	good_allow(k, reason)
	parts := split(k, " -> ")
	covers(trim_space(parts[0]), from, lang)
	covers(trim_space(parts[1]), to, lang)
}

in_group(name, lang, g) if {
	some p in patterns_of(g)
	covers(p, name, lang)
}

# The group of a name: the one of its longest matching pattern.
group_of(name, lang) := max(cands)[1] if {
	cands := {[count(p), g] | some g in all_groups; some p in patterns_of(g); covers(p, name, lang)}
	count(cands) > 0
}

# Each distinct name's group, worked out once: a repository has far more
# import edges than distinct modules.
edge_names contains [e.lang, e.from] if some e in edges

edge_names contains [e.lang, e.to] if some e in edges

group_by_name := {concat(" ", n): g | some n in edge_names; g := group_of(n[1], n[0])}

# The edges between two different groups, with their groups.
grouped contains object.union(e, {"a": a, "b": b}) if {
	some e in edges
	a := group_by_name[concat(" ", [e.lang, e.from])]
	b := group_by_name[concat(" ", [e.lang, e.to])]
	a != b
}

# A file that does not parse and belongs to a group hides its imports.
parse_errors contains f if {
	imports.status == "ok"
	some f in imports.files
	not f.parsed
	judged(f.path)
	group_of(self_name(f), f.language)
}

violations contains {"msg": sprintf("%s:%d: does not parse (%s), so its imports cannot be judged; fix the syntax error", [f.path, f.error.line, f.error.msg]), "file": f.path, "line": f.error.line, "rule": "parse"} if {
	some f in parse_errors
}

# --- rules -----------------------------------------------------------------------

violations contains v if {
	some e in grouped
	a := e.a
	b := e.b
	layer_index(b) < layer_index(a)
	v := {
		"msg": sprintf("%s:%d: %s imports %s: layer %q may not import %q above it (layers are %v, top-down); move the code down or invert the dependency", [e.file, e.line, e.from, e.to, a, b, params.layers]),
		"file": e.file, "line": e.line, "rule": "layers",
	}
}

violations contains v if {
	some e in grouped
	a := e.a
	b := e.b
	i := layer_index(a)
	i == layer_index(b)
	contains(params.layers[i], "|")
	v := {
		"msg": sprintf("%s:%d: %s imports %s: %q and %q are independent siblings in layer %q; neither may import the other", [e.file, e.line, e.from, e.to, a, b, params.layers[i]]),
		"file": e.file, "line": e.line, "rule": "layers",
	}
}

violations contains v if {
	some name, r in params.forbidden
	good_forbidden(r)
	some e in edges
	some from in as_list(r.from)
	in_group(e.from, e.lang, from)
	some to in as_list(r.to)
	in_group(e.to, e.lang, to)
	not in_group(e.from, e.lang, to)
	v := {
		"msg": sprintf("%s:%d: %s imports %s: forbidden %q (%s -> %s): %s", [e.file, e.line, e.from, e.to, name, from, to, r.reason]),
		"file": e.file, "line": e.line, "rule": concat("", ["forbidden:", name]),
	}
}

violations contains v if {
	some name, gs in params.independent
	some e in edges
	some a in as_list(gs)
	in_group(e.from, e.lang, a)
	some b in as_list(gs)
	a != b
	in_group(e.to, e.lang, b)
	not in_group(e.from, e.lang, b)
	v := {
		"msg": sprintf("%s:%d: %s imports %s: %q and %q are independent (%q) and must not import each other", [e.file, e.line, e.from, e.to, a, b, name]),
		"file": e.file, "line": e.line, "rule": concat("", ["independent:", name]),
	}
}

# --- sub-package contracts ------------------------------------------------------

bad_config contains sprintf("containers[%q]: want a module pattern and the reason its children are independent", [c]) if {
	some c, reason in params.containers
	not good_contract(c, reason)
}

bad_config contains sprintf("no_parent[%q]: want a module pattern and the reason nothing below it imports its parents", [p]) if {
	some p, reason in params.no_parent
	not good_contract(p, reason)
}

good_contract(p, reason) if {
	trim_space(p) != ""
	is_string(reason)
	trim_space(reason) != ""
}

# The child of container c that name lies in (c/x for c/x/y), if any.
child_of(c, name, lang) := concat(sep[lang], [c, split(rest, sep[lang])[0]]) if {
	startswith(name, concat("", [c, sep[lang]]))
	rest := substring(name, count(c) + 1, -1)
}

# A container's children are independent: a module below one child imports
# nothing below another. The container itself (their shared base) may be
# imported by all of them.
violations contains v if {
	some c, reason in params.containers
	good_contract(c, reason)
	some e in edges
	a := child_of(c, e.from, e.lang)
	b := child_of(c, e.to, e.lang)
	a != b
	v := {
		"msg": sprintf("%s:%d: %s imports %s: %s and %s are children of %q, which must not import each other: %s", [e.file, e.line, e.from, e.to, a, b, c, reason]),
		"file": e.file, "line": e.line, "rule": concat("", ["container:", c]),
	}
}

# Below a no_parent pattern, no module imports one of its own parents (a
# package under a folder never imports the folder's package).
violations contains v if {
	some p, reason in params.no_parent
	good_contract(p, reason)
	some e in edges
	covers(p, e.from, e.lang)
	e.to != e.from
	covers(e.to, e.from, e.lang)
	v := {
		"msg": sprintf("%s:%d: %s imports %s, a package it lies under (%q): %s", [e.file, e.line, e.from, e.to, p, reason]),
		"file": e.file, "line": e.line, "rule": concat("", ["no_parent:", p]),
	}
}
