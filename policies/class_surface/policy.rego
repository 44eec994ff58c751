# class_surface: every scanned Python class's and Go struct's composed
# public surface (its own public names united with those of every base it
# can resolve, transitively) stays within max_public_members, or within its
# baseline. The count is a lower bound: the source is read, never imported
# or built.
#
# The surface runner (runners/surface, docs/facts.md) scans the files under
# params.roots outside params.exclude, resolves every base and counts each
# class's surface: through the file's imports first, then the same file,
# then the unique class of that name (docs/facts-surface.md); a Go embedded
# T a struct T of its own package, q.T one of the package q imports. Two or
# more candidates are ambiguous and count nothing; the runner records, for
# each, the count the class would reach with its worst candidate. This
# policy decides: the cap, the baseline ratchet, what an ambiguous base
# costs, which files failing to parse block, and whether the params are
# sound.
package tausik.gates.class_surface

sf := input.surface

cls := sf.classes

# ambs[i]: the ambiguous base a class's ambiguous entry {ref, worst} names.
ambs := sf.ambiguous_bases

max_members := input.params.max_public_members

baseline := input.params.baseline

gates_json := "tausik/gates.json"

could_not_run contains {"code": sprintf("surface_%s", [sf.status]), "msg": object.get(sf, "reason", "")} if {
	sf.status != "ok"
}

not_applicable contains {"code": "no_source_files", "msg": "no Python or Go file in the scanned roots"} if {
	sf.scanned == 0
}

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
	ids := {id | some id in named(name); cls[id].path == path}
}

named(name) := {id | some id, c in cls; c.name == name}

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

loc(id) := sprintf("%s:%d", [cls[id].path, cls[id].line])

# kinds and remedies: what each language calls a class, and how to shrink one.
kinds := {"python": "class", "go": "struct"}

remedies := {
	"python": "split the class, or compose instead of inherit",
	"go": "split the struct, or hold what it embeds in named fields instead of embedding it",
}

kind(id) := kinds[cls[id].lang]

file_holds(path) := "structs" if {
	endswith(path, ".go")
} else := "classes"

# at(id, rule, msg): a violation located at class id. Its sources are the
# other files whose change can alter the class's count (new-code
# evaluation attributes the finding to a change touching one).
at(id, rule, msg) := {"msg": msg, "file": cls[id].path, "line": cls[id].line, "rule": rule, "sources": cls[id].sources}

# ambiguity_note(am): the message's note on a class's ambiguous entries. It
# takes the list, not the class: OPA caches a function's result by its
# arguments, so the thousands of classes with none share one empty-list call
# instead of hashing each class object (~20% of the over_cap rule's cost on
# the standard library).
ambiguity_note(am) := sprintf("; %d ambiguous base(s) not counted: %s", [count(am), concat("; ", sort(notes))]) if {
	count(am) > 0
	notes := {sprintf("%s of %s (%s)", [a.base, a.writer, concat(", ", a.candidates)]) | some x in am; a := ambs[x.ref]}
} else := ""

# ---- violations ---------------------------------------------------------------

violations contains v if {
	some f in sf.unparsed
	v := {
		"msg": sprintf("%s:%d: does not parse (%s), so its %s cannot be measured; fix the syntax, or exclude the file in %s (params.exclude) with a reason", [f.path, f.line, f.msg, file_holds(f.path), gates_json]),
		"file": f.path,
		"line": f.line,
		"rule": "unparseable",
	}
}

# The rules' values the loop reads are bound once, before it: a rule
# referenced inside the loop is looked up again for each of the thousands of
# classes over the cap (a third of the rule's cost on the standard library).
#
# One finding per root cause: a class whose names beyond its over-cap bases
# (c.beyond, the runner's) are within the cap is over it only through them,
# and is counted into their findings (c.inherited), not reported again.
violations contains v if {
	cap := max_members
	hd := held
	ks := kinds
	rs := remedies
	tests := input.params.include_tests
	some id, c in cls
	c.beyond > cap
	not hd[id]
	judged(c.exempt, tests)
	msg := sprintf("%s:%d: %s %s has %d public members (max %d; %s%s)%s: %s", [c.path, c.line, ks[c.lang], c.name, c.count, cap, c.breakdown, inherited_note(c.inherited), ambiguity_note(c.ambiguous), rs[c.lang]])
	v := {"msg": msg, "file": c.path, "line": c.line, "rule": "over_cap", "key": sprintf("%s:%s", [c.path, c.name]), "quantity": c.count, "sources": c.sources}
}

# judged(exempt, tests): enums, Protocols and classes defined under
# if TYPE_CHECKING: are never judged, classes of test files only with
# include_tests.
judged("", _)

judged("test", true)

inherited_note(0) := ""

inherited_note(n) := sprintf("; inherited by %d %s over the cap only through it", [n, ["classes", "class"][to_number(n == 1)]]) if n > 0

violations contains v if {
	some id, keys in held
	lim := limits[id]
	c := cls[id]
	c.count > lim
	v := object.union(at(id, "baseline_grew", sprintf("%s: %s %s has %d public members, more than its baseline %d (%s in %s; %s)%s: the baseline only turns down; %s", [loc(id), kind(id), c.name, c.count, lim, concat(", ", sort(keys)), gates_json, c.breakdown, ambiguity_note(c.ambiguous), remedies[c.lang]])), {"key": sprintf("%s:%s", [c.path, c.name]), "quantity": c.count})
}

# With ambiguous: block, an ambiguous base fails the gate when one of its
# candidates alone would take a class within its limit over it: the count
# without it may be hiding a violation.
violations contains v if {
	input.params.ambiguous == "block"
	lims := limits
	some id, c in cls
	some x in c.ambiguous
	lim := object.get(lims, id, max_members)
	x.worst > lim
	c.count <= lim
	a := ambs[x.ref]
	msg := sprintf("%s:%d: %s %s: base %s of %s is ambiguous (%d candidates: %s) and not counted; with %s it would have up to %d public members (max %d): rename one of the candidates so the base resolves, or %s", [c.path, c.line, kinds[c.lang], c.name, a.base, a.writer, count(a.candidates), concat(", ", a.candidates), a.base, x.worst, lim, remedies[c.lang]])
	v := {"msg": msg, "file": c.path, "line": c.line, "rule": "ambiguous_base", "sources": c.sources}
}

# An entry above reality, or naming a class that is gone, fails the gate
# only with stale_baseline: block; with warn (the default) it holds nothing
# more than the class has.
stale_blocks if input.params.stale_baseline == "block"

violations contains v if {
	stale_blocks
	some key, ids in usable
	reality := max({cls[id].count | some id in ids})
	baseline[key] > reality
	v := {"msg": sprintf("baseline %s is %d but the %s now has %d public members: %s", [key, baseline[key], kind(min(ids)), reality, stale_remedy(reality)]), "rule": "baseline_stale"}
}

stale_remedy(reality) := sprintf("remove the entry from %s (the class is within the cap %d)", [gates_json, max_members]) if {
	reality <= max_members
} else := sprintf("lower it to %d in %s", [reality, gates_json])

violations contains v if {
	stale_blocks
	some key, ids in matches
	count(ids) == 0
	v := {"msg": sprintf("baseline %s names no class in the scanned tree: remove it from %s", [key, gates_json]), "rule": "baseline_missing"}
}

violations contains v if {
	some key, ids in matches
	bare_ambiguous(key)
	ext := ["py", "go"][to_number(kind(min(ids)) == "struct")]
	v := {"msg": sprintf("baseline %s matches %d classes (%s): name one as path/to/file.%s:%s in %s", [key, count(ids), concat(", ", sort([loc(k) | some k in ids])), ext, key, gates_json]), "rule": "baseline_ambiguous"}
}

violations contains v if {
	some id, keys in held
	count(keys) > 1
	v := at(id, "baseline_duplicate", sprintf("%s: %s %s is baselined more than once (%s): keep one entry in %s", [loc(id), kind(id), cls[id].name, concat(", ", sort(keys)), gates_json]))
}

violations contains v if {
	some key, val in baseline
	not whole_count(val)
	v := {"msg": sprintf("class_surface params.baseline.%s: want a whole number of public members, got %v; fix it in %s", [key, val, gates_json]), "rule": "bad_config"}
}

# ---- the params that decide what is scanned ------------------------------------

violations contains v if {
	some rt in sf.roots
	not rt.whole
	rt.files == 0
	v := {"msg": sprintf("class_surface params.roots: %q holds no Python or Go file, so nothing there is measured; fix or drop it in %s", [rt.root, gates_json]), "rule": "bad_config"}
}

violations contains v if {
	not input.params.ambiguous in {"block", "report"}
	v := {"msg": sprintf("class_surface params.ambiguous: want \"block\" or \"report\", got %q; fix it in %s", [input.params.ambiguous, gates_json]), "rule": "bad_config"}
}

violations contains v if {
	not input.params.stale_baseline in {"block", "warn"}
	v := {"msg": sprintf("class_surface params.stale_baseline: want \"warn\" or \"block\", got %q; fix it in %s", [input.params.stale_baseline, gates_json]), "rule": "bad_config"}
}

violations contains v if {
	count(input.params.roots) == 0
	v := {"msg": sprintf("class_surface params.roots is empty, so nothing would be measured; list \".\" for the whole repository in %s", [gates_json]), "rule": "bad_config"}
}

# Exclusion globs: "*", "**", "?" and literal characters, whole paths. The
# runner applies only the patterns of that language (sf.exclude).
pattern_problem(p) := "is empty" if {
	trim_space(p) == ""
} else := "must be relative to the repository root" if {
	startswith(p, "/")
} else := "uses one of [ ] { } \\, which the pattern language (*, **, ?) does not have" if {
	regex.match(`[\[\]{}\\]`, p)
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
