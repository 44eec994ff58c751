# class_surface: every scanned Python class's and Go struct's composed
# public surface (its own public names united with those of every base it
# can resolve, transitively) stays within max_public_members, or within its
# baseline. The count is a lower bound: the source is read, never imported
# or built. graph.reachable walks the base graph, so cycles end and a class
# reached twice (a diamond) is counted once.
#
# A Python base written X or mod.X (the runner keeps X) resolves to a class
# named X in the same file, else to the unique class named X in the tree;
# never to the class itself (`class Foo(lib.Foo)` names an earlier Foo).
# Two or more candidates leave it unresolved and ambiguous; none (object,
# the standard library, third-party code) contributes nothing.
#
# A Go struct's own public names are its exported fields and its type's
# exported methods in its package (directory and package clause). An
# embedded T resolves to the struct T of its own package only; q.T to a
# struct T of the package the file imports as q: a directory the import
# path ends with (the module's prefix is not known). None (an interface, a
# non-struct, the standard library, third-party code) contributes nothing;
# two or more are ambiguous. Keyed "go:Name" (no Python name has a colon).
#
# Cost (BenchmarkClassSurface in engine/): every per-class value is a
# complete rule computed once per evaluation and looked up by key, never a
# function called per item; rules bind the rules they read to local names
# before looping. The exact union of public names is built only for classes
# whose bound (own counts summed over the closure) exceeds the cap, for
# baselined classes, and for the few candidates an ambiguous base could add.
package tausik.gates.class_surface

py := input.python

gof := input.go

max_members := input.params.max_public_members

baseline := input.params.baseline

gates_json := "tausik/gates.json"

could_not_run contains {"code": sprintf("python_%s", [py.status]), "msg": msg} if {
	py.status != "ok"
	msg := sprintf("could not scan the Python files: %s", [object.get(py, "reason", "")])
}

could_not_run contains {"code": sprintf("go_%s", [gof.status]), "msg": msg} if {
	gof.status != "ok"
	msg := sprintf("could not scan the Go files: %s", [object.get(gof, "reason", "")])
}

scan_ok if {
	py.status == "ok"
	gof.status == "ok"
}

# ---- which files are scanned ------------------------------------------------

# root_norm turns "./src/", "src" and "src/" into "src", and "." or "./"
# into "" (the whole repository).
root_norm(r) := x if {
	y := trim_right(regex.replace(r, `^(\./)+`, ""), "/")
	x := dot_empty(y)
}

dot_empty(".") := ""

dot_empty(y) := y if y != "."

roots := {root_norm(r) | some r in input.params.roots}

whole_repo if "" in roots

under_root(_) if whole_repo

under_root(p) if {
	some r in roots
	r != ""
	startswith(p, concat("", [r, "/"]))
}

# Exclusion globs: "*", "**", "?" and literal characters, whole paths.
pattern_problem(p) := "is empty" if {
	trim_space(p) == ""
} else := "must be relative to the repository root" if {
	startswith(p, "/")
} else := "uses one of [ ] { } \\, which the pattern language (*, **, ?) does not have" if {
	regex.match(`[\[\]{}\\]`, p)
}

# exclude_globs: the patterns the language has a meaning for, checked once.
exclude_globs := [g | some g, _ in input.params.exclude; not pattern_problem(g)]

excluded(p) if {
	some g in exclude_globs
	glob.match(g, ["/"], p)
}

py_scanned := [f | some f in py.files; under_root(f.path); not excluded(f.path)]

go_scanned := [f | some f in gof.files; under_root(f.path); not excluded(f.path)]

# scanned: the Python files, then the Go files.
scanned := array.concat(py_scanned, go_scanned)

not_applicable contains {"code": "no_source_files", "msg": "no Python or Go file in the scanned roots"} if {
	scan_ok
	count(scanned) == 0
}

# ---- the classes and their bases --------------------------------------------

# A class's id is its index in classes, the scanned Python classes in file
# order, then the Go structs; class_file[id] is the index of its file in
# scanned, py_class_file[id] (a Python class's) the unit where its bases are
# looked up first. Python classes are plain arrays of the facts as given:
# building an object per class costs more than the rest of the policy.
classes := array.concat([c | some f in py_scanned; f.parsed; some c in f.classes], [e[0] | some e in go_entries])

py_class_file := [fi | some fi, f in py_scanned; f.parsed; some _ in f.classes]

class_file := array.concat(py_class_file, [e[1] | some e in go_entries])

# go_units[fi]: the package of go_scanned[fi], "directory:package".
go_units := [concat(":", [regex.replace(f.path, `/?[^/]*$`, ""), f.package]) | some f in go_scanned]

# go_methods["directory:package:Type"]: the exported methods of Type.
# (go_method_list is a rule, not a local: OPA indexes x[0] == k only over a
# rule's value, and without the index the join is quadratic.)
go_method_list := [[concat(":", [gu[fi], m.recv]), m.name] | gu := go_units; some fi, f in go_scanned; some m in f.methods]

go_methods := {k: {x[1] | some x in go_method_list; x[0] == k} | some k in {x[0] | some x in go_method_list}}

# go_entries: [class, file index in scanned, package, struct, file index in
# go_scanned] for every Go struct. Its bases are resolved by go_resolution,
# not by the Python lookups: the class lists none.
go_entries := [[c, np + fi, gu[fi], s, fi] |
	np := count(py_scanned)
	gu := go_units
	gm := go_methods
	some fi, f in go_scanned
	some s in f.structs
	c := {"name": concat("", ["go:", s.name]), "line": s.line, "bases": [], "public": {n | some n in s.fields} | object.get(gm, concat(":", [gu[fi], s.name]), set())}
]

path_of(id) := scanned[class_file[id]].path

own_counts := [count(c.public) | some c in classes]

names := {c.name | some c in classes}

# name_index: class name -> ids. The inner set is built through OPA's
# comprehension index (one pass over classes), not a scan per name; the
# outer loop runs over distinct names (a key produced again costs a scan).
name_index := {n: {id | some id, d in classes; d.name == n} | some n in names}

# multi: the names two or more classes have. A base naming any other name
# resolves by a lookup (the common case); only a base naming a multi name
# goes through candidates.
multi := {n | some n, ids in name_index; count(ids) > 1}

# multi_resolution[id]: [[base, candidates]] for each base of class id that
# names a multi name. The candidates are the classes of that name in the
# class's unit, else all of them, never the class itself. (Inlined rather
# than a function: a function call costs more than the whole loop body.
# [local, all][to_number(count(local) == 0)] picks local unless it is empty.)
multi_resolution := {id: r |
	mu := multi
	ni := name_index
	cu := py_class_file
	some id, c in classes
	r := [[b, cands] |
		some b in c.bases
		mu[b]
		local := {k | some k in ni[b]; cu[k] == cu[id]; k != id}
		cands := [local, ni[b] - {id}][to_number(count(local) == 0)]
	]
	count(r) > 0
}

# multi_resolved[id]: the bases resolved among multi names.
multi_resolved := {id: {k | some pair in r; count(pair[1]) == 1; some k in pair[1]} | some id, r in multi_resolution}

# edges[id]: the resolved bases of every class, the graph graph.reachable
# walks. Every class is a key, even with no base: graph.reachable reports
# only nodes that are keys of the graph. A Python base naming a unique name
# resolves by lookup (class Foo(Foo) to itself: a self-edge adds nothing);
# multi_resolved holds those among multi names, go_resolution the Go structs'.
edges := object.union(
	{id: ts |
		mu := multi
		ni := name_index
		mr := multi_resolved
		some id, c in classes
		ts := {k | some b in c.bases; not mu[b]; some k in ni[b]} | object.get(mr, id, set())
	},
	{id: {k | some pair in r; count(pair[1]) == 1; some k in pair[1]} | some id, r in go_resolution},
)

# own_ambiguous: for classes that wrote an ambiguous base, {[base, candidates]}.
own_ambiguous := object.union(
	{id: amb | some id, r in multi_resolution; amb := {pair | some pair in r; count(pair[1]) > 1}; count(amb) > 0},
	{id: amb | some id, r in go_resolution; amb := {pair | some pair in r; count(pair[1]) > 1}; count(amb) > 0},
)

# go_entries[j] is class go_first + j.
go_first := count(py_class_file)

# go_local["directory:package:T"]: the structs T of that package.
go_keys := [concat(":", [e[2], e[3].name]) | some e in go_entries]

go_local := {k: {id | some j, x in go_keys; x == k; id := go_first + j} | some k in {x | some x in go_keys}}

# go_named[T]: {[id, "/directory"]} for each struct T another package can
# import: not in a _test.go file, a main package or an external test package.
go_importable := [[e[3].name, go_first + j, concat("/", ["", regex.replace(f.path, `/?[^/]*$`, "")])] |
	some j, e in go_entries
	f := go_scanned[e[4]]
	not endswith(f.path, "_test.go")
	not regex.match(`^main$|_test$`, f.package)
]

go_named := {n: {[x[1], x[2]] | some x in go_importable; x[0] == n} | some n in {x[0] | some x in go_importable}}

# go_resolution[id]: [[base, candidates]] for each base of Go struct id that
# names at least one struct. "T": the package's other structs T. "q.T": the
# structs T whose directory the path imported as q ends with, on a "/"
# boundary (the path with "/" before it ends with "/directory").
go_resolution := {id: r |
	gl := go_local
	gn := go_named
	some j, e in go_entries
	id := go_first + j
	imps := object.get(go_scanned[e[4]], "imports", {})
	r := array.concat(
		[[b, cands] | some b in e[3].bases; not contains(b, "."); cands := object.get(gl, concat(":", [e[2], b]), set()) - {id}; count(cands) > 0],
		[[b, cands] |
			some b in e[3].bases
			q := split(b, ".")
			sp := concat("/", ["", imps[q[0]]])
			cands := {x[0] | some x in object.get(gn, q[1], set()); endswith(sp, x[1])} - {id}
			count(cands) > 0
		],
	)
	count(r) > 0
}

ambiguous_ids := {id | some id, _ in own_ambiguous}

# reach[id] = [closure, bound, writers] for each class with a resolved base:
# the class and every base reached through resolved bases; an upper bound of
# its surface (own counts summed over the closure); and the classes in the
# closure that wrote an ambiguous base. Any other class's closure is itself.
reach := {id: [cl, b, w] |
	g := edges
	own := own_counts
	amb := ambiguous_ids
	some id, ts in g
	count(ts) > 0
	cl := graph.reachable(g, {id})
	b := sum([own[k] | some k in cl])
	w := cl & amb
}

closure_of(id) := object.get(reach, id, [{id}])[0]

# measured: the classes whose exact surface is needed, because the bound is
# over the cap or a baseline holds them; every other class is within the cap
# by its bound, and is settled without a union.
measured := {id | some id, r in reach; r[1] > max_members} | {id |
	lim := max_members
	some id, n in own_counts
	n > lim
	not reach[id]
} | {id | some id, _ in held}

surface_of(id) := {n | some k in closure_of(id); some n in classes[k].public}

size := {id: count(surface_of(id)) | some id in measured}

# over_limit: the classes over their limit (the cap, or their baseline).
over_limit := {id | some id, n in size; n > object.get(limits, id, max_members)}

# ambiguity_over[id] = {candidate: count} for a class within its limit and
# each candidate of an ambiguous base in its closure that alone would take
# it over: the count without the base may be hiding a violation. The bounds
# settle most candidates without a union.
ambiguity_over := {id: over |
	rc := reach
	oc := own_counts
	ol := over_limit
	some id, amb in closure_ambiguous
	not ol[id]
	lim := object.get(limits, id, max_members)
	b := object.get(rc, id, [0, oc[id]])[1]
	over := {cand: w |
		some cand in {k | some a in amb; some k in a[2]}
		b + object.get(rc, cand, [0, oc[cand]])[1] > lim
		w := count(surface_of(id) | surface_of(cand))
		w > lim
	}
	count(over) > 0
}

# closure_ambiguous[id]: {[writer, base, candidates]} over the class's closure.
closure_ambiguous := {id: amb |
	some id, w in writers
	amb := {[k, pair[0], pair[1]] | some k in w; some pair in own_ambiguous[k]}
}

# writers[id]: the classes in id's closure that wrote an ambiguous base.
writers := object.union(
	{id: w | some id, r in reach; w := r[2]; count(w) > 0},
	{id: {id} | some id in ambiguous_ids; not reach[id]},
)

# ---- the baseline -------------------------------------------------------------

whole_count(v) if {
	is_number(v)
	v >= 0
	v == floor(v)
}

# key_ids(key): "path:Name" = the classes named Name in that file; "Name" =
# every scanned class or struct named Name (the key is usable only when there
# is one).
key_ids(key) := ids if {
	not contains(key, ":")
	ids := named(key)
} else := ids if {
	parts := split(key, ":")
	name := parts[count(parts) - 1]
	path := concat(":", array.slice(parts, 0, count(parts) - 1))
	ids := {id | some id in named(name); path_of(id) == path}
}

named(name) := object.get(name_index, name, set()) | object.get(name_index, concat("", ["go:", name]), set())

matches := {key: key_ids(key) | some key, v in baseline; whole_count(v)}

bare_ambiguous(key) if {
	not contains(key, ":")
	count(matches[key]) > 1
}

# usable[key]: the classes a well-formed, unambiguous entry holds (maybe none).
usable := {key: ids | some key, ids in matches; not bare_ambiguous(key)}

held := {id: keys |
	some ids in usable
	some id in ids
	keys := {k | some k, ids2 in usable; id in ids2}
}

# limits[id]: the limit of a baselined class (the lowest of its entries);
# every other class's limit is max_members.
limits := {id: min({baseline[k] | some k in keys}) | some id, keys in held}

# ---- messages -----------------------------------------------------------------

loc(id) := sprintf("%s:%d", [path_of(id), classes[id].line])

# display(id): the class's name as written; kind(id): what the language calls it.
display(id) := trim_prefix(classes[id].name, "go:")

kind(id) := "struct" if {
	id >= count(py_class_file)
} else := "class"

file_holds(path) := "structs" if {
	endswith(path, ".go")
} else := "classes"

# at(id, rule, msg): a violation located at class id.
at(id, rule, msg) := {"msg": msg, "file": path_of(id), "line": classes[id].line, "rule": rule}

locs(ids) := concat(", ", sort([loc(k) | some k in ids]))

breakdown(id) := sprintf("%d own, %d more from %s", [own, size[id] - own, bases]) if {
	own := count({n | some n in classes[id].public})
	names := {display(k) | some k in closure_of(id); k != id}
	count(names) > 0
	bases := concat(", ", sort(names))
} else := "all its own"

ambiguity_note(id) := sprintf("; %d ambiguous base(s) not counted: %s", [count(amb), concat("; ", sort(notes))]) if {
	amb := closure_ambiguous[id]
	notes := {sprintf("%s of %s (%s)", [trim_prefix(a[1], "go:"), display(a[0]), locs(a[2])]) | some a in amb}
} else := ""

remedy(id) := "split the struct, or hold what it embeds in named fields instead of embedding it" if {
	kind(id) == "struct"
} else := "split the class, or compose instead of inherit"

# ---- violations ---------------------------------------------------------------

violations contains v if {
	some f in scanned
	not f.parsed
	v := {
		"msg": sprintf("%s:%d: does not parse (%s), so its %s cannot be measured; fix the syntax, or exclude the file in %s (params.exclude) with a reason", [f.path, f.error.line, f.error.msg, file_holds(f.path), gates_json]),
		"file": f.path,
		"line": f.error.line,
		"rule": "unparseable",
	}
}

violations contains v if {
	some id, n in size
	not held[id]
	n > max_members
	v := at(id, "over_cap", sprintf("%s: %s %s has %d public members (max %d; %s)%s: %s", [loc(id), kind(id), display(id), n, max_members, breakdown(id), ambiguity_note(id), remedy(id)]))
}

violations contains v if {
	some id, keys in held
	lim := limits[id]
	size[id] > lim
	v := at(id, "baseline_grew", sprintf("%s: %s %s has %d public members, more than its baseline %d (%s in %s; %s)%s: the baseline only turns down; %s", [loc(id), kind(id), display(id), size[id], lim, concat(", ", sort(keys)), gates_json, breakdown(id), ambiguity_note(id), remedy(id)]))
}

# An ambiguous base is reported when one of its candidates alone would take
# the class over its limit: the count without it may be hiding a violation.
violations contains v if {
	some id, over in ambiguity_over
	lim := object.get(limits, id, max_members)
	some a in closure_ambiguous[id]
	hits := {w | some cand in a[2]; w := over[cand]}
	count(hits) > 0
	base := trim_prefix(a[1], "go:")
	v := at(id, "ambiguous_base", sprintf("%s: %s %s: base %s of %s is ambiguous (%d candidates: %s) and not counted; with %s it would have up to %d public members (max %d): rename one of the candidates so the base resolves, or %s", [loc(id), kind(id), display(id), base, display(a[0]), count(a[2]), locs(a[2]), base, max(hits), lim, remedy(id)]))
}

violations contains v if {
	some key, ids in usable
	reality := max({size[id] | some id in ids})
	baseline[key] > reality
	v := {"msg": sprintf("baseline %s is %d but the %s now has %d public members: %s", [key, baseline[key], kind(min(ids)), reality, stale_remedy(key, reality)]), "rule": "baseline_stale"}
}

stale_remedy(key, reality) := sprintf("remove the entry from %s (the class is within the cap %d)", [gates_json, max_members]) if {
	reality <= max_members
} else := sprintf("lower it to %d in %s", [reality, gates_json])

violations contains v if {
	some key, ids in matches
	count(ids) == 0
	v := {"msg": sprintf("baseline %s names no class in the scanned tree: remove it from %s", [key, gates_json]), "rule": "baseline_missing"}
}

violations contains v if {
	some key, _ in matches
	bare_ambiguous(key)
	ext := ["py", "go"][to_number(kind(min(matches[key])) == "struct")]
	v := {"msg": sprintf("baseline %s matches %d classes (%s): name one as path/to/file.%s:%s in %s", [key, count(matches[key]), locs(matches[key]), ext, key, gates_json]), "rule": "baseline_ambiguous"}
}

violations contains v if {
	some id, keys in held
	count(keys) > 1
	v := at(id, "baseline_duplicate", sprintf("%s: %s %s is baselined more than once (%s): keep one entry in %s", [loc(id), kind(id), display(id), concat(", ", sort(keys)), gates_json]))
}

violations contains v if {
	some key, val in baseline
	not whole_count(val)
	v := {"msg": sprintf("class_surface params.baseline.%s: want a whole number of public members, got %v; fix it in %s", [key, val, gates_json]), "rule": "bad_config"}
}

violations contains v if {
	scan_ok
	some r in input.params.roots
	x := root_norm(r)
	x != ""
	not root_has_source(x)
	v := {"msg": sprintf("class_surface params.roots: %q holds no Python or Go file, so nothing there is measured; fix or drop it in %s", [r, gates_json]), "rule": "bad_config"}
}

violations contains v if {
	count(input.params.roots) == 0
	v := {"msg": sprintf("class_surface params.roots is empty, so nothing would be measured; list \".\" for the whole repository in %s", [gates_json]), "rule": "bad_config"}
}

root_has_source(x) if {
	some f in array.concat(py.files, gof.files)
	startswith(f.path, concat("", [x, "/"]))
}

violations contains v if {
	some g, reason in input.params.exclude
	why := exclude_problem(g, reason)
	v := {"msg": sprintf("class_surface params.exclude %q %s; fix it in %s", [g, why, gates_json]), "rule": "bad_config"}
}

exclude_problem(g, _) := concat(" ", ["pattern", pattern_problem(g)])

exclude_problem(g, reason) := "has no written reason" if {
	not pattern_problem(g)
	trim_space(sprintf("%v", [reason])) == ""
}
