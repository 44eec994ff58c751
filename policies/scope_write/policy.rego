# scope_write: every edited path must lie in the union of the active tasks'
# scope_paths. request.files are already resolved by the engine (symlinks and
# "..", made relative to the project root); paths outside the project are in
# request.outside and are not this gate's business.
#
# Pattern language: a trailing "/" is a directory prefix; a pattern with
# * ? [ is a glob over the whole path ("*" stays within a segment, "**"
# spans segments); anything else is an exact file or a directory prefix.
# Matching is case-insensitive; "./" and doubled slashes are normalised.
#
# A shell call or patch is judged through the paths it would write (the hook
# parses them into request.files); a write whose target cannot be known
# before it runs is in request.unknown_writes, and inside a scoped task it is
# refused unless a scope covers the whole project ("**").
package tausik.gates.scope_write

could_not_run contains {"code": "store_unreadable", "msg": msg} if {
	input.task.status != "ok"
	msg := sprintf("cannot read the active tasks (%s), so no write can be checked against a scope", [input.task.reason])
}

unknown_writes := object.get(input.request, "unknown_writes", [])

not_applicable contains "no_files" if {
	count(input.request.files) == 0
	count(unknown_writes) == 0
}

norm(p) := lower(regex.replace(regex.replace(p, `/{2,}`, "/"), `^(\./)+`, ""))

# Tasks that declared a scope (an empty list counts: it allows nothing).
scoped contains t if {
	some t in input.task.active
	t.scope_paths != null
}

matches(pattern, path) if {
	p := norm(pattern)
	endswith(p, "/")
	startswith(path, p)
}

matches(pattern, path) if {
	p := norm(pattern)
	not endswith(p, "/")
	regex.match(`[*?\[]`, p)
	glob.match(p, ["/"], path)
}

matches(pattern, path) if {
	p := norm(pattern)
	not endswith(p, "/")
	not regex.match(`[*?\[]`, p)
	path == p
}

matches(pattern, path) if {
	p := norm(pattern)
	not endswith(p, "/")
	not regex.match(`[*?\[]`, p)
	startswith(path, concat("", [p, "/"]))
}

allowed(path) if {
	some t in scoped
	some pattern in t.scope_paths
	matches(pattern, path)
}

describe(t) := sprintf("%s %v", [t.slug, t.scope_paths])

scopes := concat("; ", sort([describe(t) | some t in scoped]))

violations contains v if {
	some t in input.task.active
	t.delegated
	t.scope_paths == null
	count(input.request.files) + count(unknown_writes) > 0
	v := {
		"msg": sprintf("task %s is delegated but declares no scope: a worker must declare its writable surface; run `tausik task scope %s PATTERN`", [t.slug, t.slug]),
		"rule": "delegated_without_scope",
	}
}

violations contains v if {
	count(scoped) > 0
	some f in input.request.files
	not allowed(norm(f))
	v := {
		"msg": sprintf("%s is outside the scope of the active task(s) (%s); widen a task's scope with `tausik task scope SLUG %s`", [f, scopes, f]),
		"file": f,
		"rule": "outside_scope",
	}
}

# A scope that covers every path lets an unknown target through.
unbounded if {
	some t in scoped
	some pattern in t.scope_paths
	norm(pattern) == "**"
}

violations contains v if {
	count(scoped) > 0
	not unbounded
	some u in unknown_writes
	v := {
		"msg": sprintf("%s may write a path that cannot be known before it runs (%s), and the active task(s) (%s) allow only the paths they name; write the target as a literal path, or widen a task's scope with `tausik task scope SLUG PATTERN` (only '**' admits an unknown target)", [u.text, u.reason, scopes]),
		"rule": "unknown_target",
	}
}
