# task_gate: a tool call that writes (tool.kind write; a shell call with
# targets or writes whose targets cannot be known) is refused while no task
# is active (active tasks that cannot be read are COULD_NOT_RUN, which
# outranks a violation). Reads, commands that write nothing and triggers that judge no
# tool call are not this gate's business.
package tausik.gates.task_gate

tool := input.tool

not_applicable contains {"code": "not_a_tool_call", "msg": "no agent tool call is judged here"} if tool.status == "unavailable"

could_not_run contains {"code": "tool_unreadable", "msg": sprintf("cannot read the tool call (%s)", [tool.reason])} if {
	tool.status == "error"
}

could_not_run contains {"code": "store_unreadable", "msg": msg} if {
	input.task.status != "ok"
	msg := sprintf("cannot read the active tasks (%s), so a write cannot be checked against them", [input.task.reason])
}

writes if tool.kind == "write"

writes if {
	tool.kind == "shell"
	some _ in tool.targets
}

writes if {
	tool.kind == "shell"
	some _ in tool.unknown_writes
}

not_applicable contains {"code": "no_write", "msg": "the call writes nothing"} if {
	tool.status == "ok"
	not writes
}

active if {
	some _ in input.task.active
}

violations contains v if {
	writes
	not active
	v := {
		"msg": sprintf("no active task: start one with `tausik task start` before %s writes (a person's command: an agent asks the person to start the task)", [what]),
		"rule": "no_active_task",
	}
}

what := sprintf("%s %s", [tool.name, concat(", ", tool.targets)]) if {
	some _ in tool.targets
} else := tool.name
