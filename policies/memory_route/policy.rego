# memory_route: no changed path (git status, untracked included; both sides
# of a rename) lies in another agent tool's memory or rules location. The
# globs are matched here against whole repo-relative paths, with "/" as the
# only delimiter: "*" and "?" stay within a segment, "**" spans segments.
package tausik.gates.memory_route

git := input.git

# Before a write (an agent's tool call), the paths the call would write are
# judged, not the tree: git status shows what earlier calls changed.
pre_write if input.request.trigger == "pre-write"

# A call none of whose paths lies in a location: the tree's own state (git,
# which need not be a repository here) is not this call's business.
not_applicable contains {"code": "no_write_in_a_location", "msg": "the call writes nothing in another agent tool's location"} if pre_write

not_applicable contains {"code": "not_a_git_repo", "msg": git.reason} if {
	git.status == "unavailable"
	not pre_write
}

could_not_run contains {"code": "git_error", "msg": sprintf("git could not report the changed paths: %s", [git.reason])} if {
	git.status == "error"
	not pre_write
}

# The pattern language is "*", "**", "?" and literal characters; anything a
# full glob engine would read specially beyond that is refused, not guessed.
# allow is an object of path pattern (docs/paths.md: a leading "/" anchors)
# → reason; sinks are globs over whole paths, relative to the root.
problem(p) := "is empty" if {
	trim_space(p) == ""
} else := "uses one of [ ] { } \\, which the pattern language (*, **, ?) does not have" if {
	regex.match(`[\[\]{}\\]`, p)
} else := "has an empty path segment" if {
	contains(p, "//")
}

sink_problem(p) := "must be relative to the repository root" if {
	startswith(p, "/")
} else := problem(p)

violations contains v if {
	some i, p in input.params.sinks
	why := sink_problem(p)
	v := {"msg": sprintf("memory_route params.sinks[%d]: pattern %q %s; fix it in the config", [i, p, why]), "rule": "bad_config"}
}

violations contains v if {
	some p, _ in input.params.allow
	why := problem(p)
	v := {"msg": sprintf("memory_route params.allow: pattern %q %s; fix it in the config", [p, why]), "rule": "bad_config"}
}

sinks := [p | some p in input.params.sinks; not sink_problem(p)]

# A pattern problem() reports matches nothing in tausik.path_match either.
allowed := [p | some p, _ in input.params.allow]

# covers(pattern, path): the pattern matches the whole path.
covers(pattern, path) if glob.match(pattern, ["/"], path)

changed contains {"path": f, "how": "written by this tool call"} if {
	pre_write
	some f in input.request.files
}

changed contains {"path": e.path, "how": how(e)} if {
	not pre_write
	git.status == "ok"
	some e in git.changes
}

changed contains {"path": e.orig_path, "how": "renamed away"} if {
	not pre_write
	git.status == "ok"
	some e in git.changes
	object.get(e, "orig_path", "") != ""
}

how(e) := "untracked" if {
	e.untracked
} else := "deleted" if {
	"D" in {e.index, e.worktree}
} else := "renamed" if {
	"R" in {e.index, e.worktree}
} else := "staged" if {
	e.worktree == " "
} else := "modified"

violations contains v if {
	some c in changed
	hits := [s | some s in sinks; covers(s, c.path)]
	count(hits) > 0
	sink := hits[0]
	not exempt(c.path)
	v := {
		"msg": sprintf(
			"%s (%s) is in another agent tool's memory/rules location %q; move it where the project keeps its own knowledge, revert it, or allow it in tausik/gates.json (gates.memory_route.params.allow)",
			[c.path, c.how, sink],
		),
		"file": c.path,
		"rule": "foreign_memory",
	}
}

exempt(path) if {
	some a in allowed
	tausik.path_match(a, path)
}
