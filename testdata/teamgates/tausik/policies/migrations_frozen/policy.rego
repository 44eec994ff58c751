# migrations_frozen: a tool call's targets (input.tool.targets, the paths it
# would write or delete) that are committed migrations are refused. The
# content namespace lists the migrations on disk before the call (its glob
# in gate.yaml); one git does not report new (untracked, or added to the
# index: input.git.changes) is in HEAD.
package tausik.gates.migrations_frozen

tool := input.tool

not_applicable contains {"code": "not_a_tool_call", "msg": "no agent tool call is judged here"} if tool.status == "unavailable"

could_not_run contains {"code": "tool_unreadable", "msg": object.get(tool, "reason", "")} if tool.status == "error"

not_applicable contains {"code": "not_in_git", "msg": "the project is not a git work tree: nothing is committed"} if {
	input.git.status == "unavailable"
}

could_not_run contains {"code": "git_unreadable", "msg": object.get(input.git, "reason", "")} if input.git.status == "error"

could_not_run contains {"code": "migrations_unreadable", "msg": object.get(input.content, "reason", "")} if {
	input.content.status == "error"
}

on_disk(p) if {
	some f in input.content.files
	f.path == p
	f.status != "missing"
}

new(p) if {
	some c in input.git.changes
	c.path == p
	c.untracked
}

new(p) if {
	some c in input.git.changes
	c.path == p
	c.index == "A"
}

violations contains v if {
	some p in object.get(tool, "targets", [])
	on_disk(p)
	not new(p)
	v := {
		"msg": sprintf("%s is a migration HEAD already holds: %s may not change it; add a new migration instead", [p, tool.name]),
		"file": p,
		"rule": "committed_migration",
	}
}
