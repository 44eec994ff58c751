# renar_qg0_advisory: a high-stakes task starts with its reasoning written
# down (docs/renar.md, "What each advisory tells you"). Advisory: it warns, the task starts.
package tausik.gates.renar_qg0_advisory

could_not_run contains {"code": "task_unavailable", "msg": msg} if {
	input.task.status != "ok"
	msg := sprintf("could not read the tasks: %s", [object.get(input.task, "reason", "")])
}

could_not_run contains {"code": "renar_unavailable", "msg": msg} if {
	input.renar.status != "ok"
	msg := sprintf("could not read the RENAR artifacts: %s", [object.get(input.renar, "reason", "")])
}

not_applicable contains {"code": "no_artifacts", "msg": "the project has no renar/ directory: RENAR is not in use here"} if {
	input.renar.present == false
}

not_applicable contains {"code": "no_task", "msg": "the request names no task to start"} if {
	input.task.found == false
}

t := input.task.task

slug := input.task.slug

# t is defined only for a task the namespace found; present only when the
# renar namespace is ok.
judged if input.renar.present

# stakes is why the task is high-stakes: its tier, else its complexity.
stakes := t.tier if t.tier in {"substantial", "deep"}

stakes := t.complexity if {
	not t.tier in {"substantial", "deep"}
	t.complexity == "complex"
}

spec_slugs := {s.slug | some s in input.renar.specs}

adapt_slugs := {a.slug | some a in input.renar.adapts}

has_spec if {
	some s in t.specs
	s in spec_slugs
}

has_spec if {
	some s in input.renar.specs
	slug in s.linked_tasks
}

has_adapt if {
	some a in t.adapts
	a in adapt_slugs
}

has_adapt if {
	some a in input.renar.adapts
	some l in a.links
	l.target_type == "task"
	l.target_slug == slug
}

# stakes is undefined for a task that is not high-stakes, and so is the
# message: the rule needs no separate test of it.
violations contains v if {
	judged
	not has_spec
	not has_adapt
	v := {
		"detector": "renar_qg0_advisory", "kind": "qg0-no-reasoning", "ref": slug, "rule": "qg0-no-reasoning",
		"msg": sprintf("RENAR (advisory): '%s' is %s but has no linked SPEC or ADAPT: link a SPEC (`tausik task link %s --spec SPEC`) or create an ADAPT that links to it (`tausik adapt new SLUG --spec SPEC --task %s`). The task still starts; to turn this advisory off, disable renar_qg0_advisory in config (user tier: {\"gates\": {\"renar_qg0_advisory\": {\"enabled\": false}}})", [slug, stakes, slug, slug]),
	}
}
