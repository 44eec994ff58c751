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
#
# The backstop: at post-write (after a write or shell call ran), task-done
# and commit, the task runner compares the work tree with the state each
# active scoped task recorded when it started (input.task.backstop); every
# path created, modified, deleted or renamed since then that no scope
# covers is a violation. A refusal says that a person must widen a scope;
# it never shows the agent the command that would.
package tausik.gates.scope_write

could_not_run contains {"code": "store_unreadable", "msg": msg} if {
	input.task.status != "ok"
	msg := sprintf("cannot read the active tasks (%s), so no write can be checked against a scope", [input.task.reason])
}

# The tree comparison, null at the triggers that judge a call before it runs.
backstop := object.get(input.task, "backstop", null)

# What a call shows it would write is judged before it runs; once the tree
# is compared (backstop present), the tree is what is judged.
call_files := [f | some f in input.request.files; backstop == null]

unknown_writes := [u | some u in object.get(input.request, "unknown_writes", []); backstop == null]

not_applicable contains "no_files" if {
	backstop == null
	count(input.request.files) == 0
	count(unknown_writes) == 0
}

# (A tree that could not be compared is COULD_NOT_RUN, which outranks this.)
not_applicable contains "no_changes" if count(backstop.changes) == 0

could_not_run contains {"code": "tree_unreadable", "msg": msg} if {
	backstop.error != ""
	msg := sprintf("cannot compare the work tree with the state recorded when the scoped task(s) started (%s), so what they changed cannot be checked", [backstop.error])
}

could_not_run contains {"code": "tree_unrecorded", "msg": msg} if {
	count(backstop.unrecorded) > 0
	msg := sprintf("no work tree state was recorded when task(s) %s started, so what they changed cannot be told from what was there before; a person must restart the task or close it", [concat(", ", backstop.unrecorded)])
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
	count(call_files) + count(unknown_writes) > 0
	v := {
		"msg": sprintf("task %s is delegated but declares no scope: a worker must declare its writable surface; ask a person to declare the task's scope", [t.slug]),
		"rule": "delegated_without_scope",
	}
}

violations contains v if {
	count(scoped) > 0
	some f in call_files
	not allowed(norm(f))
	v := {
		"msg": sprintf("%s is outside the scope of the active task(s) (%s); ask a person to widen the task's scope", [f, scopes]),
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
		"msg": sprintf("%s may write a path that cannot be known before it runs (%s), and the active task(s) (%s) allow only the paths they name; write the target as a literal path, or ask a person to widen the task's scope (only '**' admits an unknown target)", [u.text, u.reason, scopes]),
		"rule": "unknown_target",
	}
}

describe_change(c) := sprintf("%s (other side: %s)", [c.change, c.peer]) if {
	c.peer != ""
} else := c.change

violations contains v if {
	count(scoped) > 0
	some c in backstop.changes
	not allowed(norm(c.path))
	v := {
		"msg": sprintf("%s was %s since task %s started, outside the scope of the active task(s) (%s); revert this change, or ask a person to widen the task's scope", [c.path, describe_change(c), c.task, scopes]),
		"file": c.path,
		"rule": "changed_outside_scope",
	}
}
