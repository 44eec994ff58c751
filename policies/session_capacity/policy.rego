# session_capacity: a budgeted task starts only if an open session has room
# for its budget.
package tausik.gates.session_capacity

slug := input.task.slug

could_not_run contains {"code": "task_unavailable", "msg": msg} if {
	input.task.status != "ok"
	msg := sprintf("could not read the tasks: %s", [input.task.reason])
}

could_not_run contains {"code": "session_unavailable", "msg": msg} if {
	input.session.status != "ok"
	msg := sprintf("could not read the session: %s", [input.session.reason])
}

not_applicable contains {"code": "no_task", "msg": "the request names no task to start"} if {
	input.task.status == "ok"
	not input.task.found
}

budget := input.task.task.call_budget

budgeted if {
	input.task.status == "ok"
	input.session.status == "ok"
	input.task.found
	budget != null
}

violations contains v if {
	budgeted
	not input.session.open
	v := {
		"msg": sprintf("task %s declares a call budget of %d but no session is open: start a session (`tausik session start`), then start the task", [slug, budget]),
		"rule": "no_open_session",
	}
}

others := [t | some t in input.task.active; t.slug != slug; t.call_budget != null]

others_budget := sum([t.call_budget | some t in others])

remaining := (input.params.capacity - input.session.tool_calls) - others_budget

others_list := concat(", ", [sprintf("%s %d", [t.slug, t.call_budget]) | some t in others])

violations contains v if {
	budgeted
	input.session.open
	budget > remaining
	v := {
		"msg": sprintf("task %s's call budget %d does not fit: capacity %d - %d calls used - %d budgeted by other active tasks [%s] = %d remaining; lower the budget, close or abandon a task, or start a new session", [slug, budget, input.params.capacity, input.session.tool_calls, others_budget, others_list, remaining]),
		"rule": "budget_exceeds_capacity",
	}
}
