# verify_first: a task closes only with a fresh signed green verify for
# exactly what it declares.
package tausik.gates.verify_first

slug := input.request.task

remedy := sprintf("run `tausik verify --task %s`, then close", [slug])

could_not_run contains {"code": "task_unavailable", "msg": msg} if {
	input.task.status != "ok"
	msg := sprintf("could not read the task: %s", [input.task.reason])
}

could_not_run contains {"code": "verify_unavailable", "msg": msg} if {
	input.verify.status != "ok"
	msg := sprintf("could not read the verify state: %s", [input.verify.reason])
}

not_applicable contains {"code": "no_task", "msg": "the request names no task: verify_first judges the close of a task"} if {
	slug == ""
}

ready if {
	input.task.status == "ok"
	input.verify.status == "ok"
	slug != ""
}

violations contains v if {
	ready
	not input.task.found
	v := {
		"msg": sprintf("task %s does not exist: start it with `tausik task start %s`", [slug, slug]),
		"rule": "unknown_task",
	}
}

# With no verify gate enabled there is nothing a verify could certify.
enforcing if {
	ready
	input.task.found
	count(input.verify.verify_gates) > 0
}

declared := input.verify.declared_files

violations contains v if {
	enforcing
	count(declared) == 0
	v := {
		"msg": sprintf("task %s declares no files, so nothing could be certified: declare them (`tausik task files %s PATH...`), %s", [slug, slug, remedy]),
		"rule": "no_declared_files",
	}
}

checked if {
	enforcing
	count(declared) > 0
}

run := input.verify.run

violations contains v if {
	checked
	run == null
	v := {"msg": sprintf("task %s has no verify run: %s", [slug, remedy]), "rule": "no_verify_run"}
}

has_run if {
	checked
	run != null
}

failed_gates := [g.name | some g in run.gates; g.severity == "block"; not g.passed]

violations contains v if {
	has_run
	not green
	v := {
		"msg": sprintf("the last verify of %s did not pass (exit %d; failed: %s): fix it, then %s", [slug, run.exit_code, concat(", ", failed_gates), remedy]),
		"rule": "verify_failed",
	}
}

green if {
	run.passed
	count(failed_gates) == 0
}

violations contains v if {
	has_run
	run.files_hash != input.verify.files_hash
	v := {
		"msg": sprintf("the declared files of %s are not what the last verify certified (edited since, or it verified other files): %s", [slug, remedy]),
		"rule": "files_changed",
	}
}

violations contains v if {
	has_run
	run.gate_signature != input.verify.gate_signature
	v := {
		"msg": sprintf("the enabled verify gates changed since the last verify of %s (now: %s): %s", [slug, concat(", ", input.verify.verify_gates), remedy]),
		"rule": "gates_changed",
	}
}

age_ns := time.parse_rfc3339_ns(input.request.time) - time.parse_rfc3339_ns(run.ran_at)

age_s := floor(age_ns / 1000000000)

violations contains v if {
	has_run
	age_ns < 0
	v := {
		"msg": sprintf("the last verify of %s is dated %s, after this evaluation (%s): %s", [slug, run.ran_at, input.request.time, remedy]),
		"rule": "verify_in_future",
	}
}

violations contains v if {
	has_run
	age_s > input.params.verify_ttl
	v := {
		"msg": sprintf("the last verify of %s is %vs old (verify_ttl %vs): %s", [slug, age_s, input.params.verify_ttl, remedy]),
		"rule": "verify_stale",
	}
}

violations contains v if {
	has_run
	not run.receipt.valid
	v := {
		"msg": sprintf("the receipt of the last verify of %s does not check (%s): %s", [slug, run.receipt.reason, remedy]),
		"rule": "receipt_invalid",
	}
}

sensitive contains f.path if {
	some f in input.verify.sensitive
}

sensitive contains p if {
	some p in declared
	some pattern in input.params.sensitive_patterns
	matches(lower(trim_space(pattern)), lower(p))
}

# The pattern language of the verify runner's built-in patterns.
matches(pattern, p) if {
	endswith(pattern, "/")
	segments := split(p, "/")
	some seg in array.slice(segments, 0, count(segments) - 1)
	seg == trim_suffix(pattern, "/")
}

matches(pattern, p) if {
	not endswith(pattern, "/")
	regex.match(`[*?\[]`, pattern)
	segments := split(p, "/")
	glob.match(pattern, [], segments[count(segments) - 1])
}

matches(pattern, p) if {
	pattern != ""
	not endswith(pattern, "/")
	not regex.match(`[*?\[]`, pattern)
	contains(p, pattern)
}

violations contains v if {
	has_run
	count(sensitive) > 0
	age_s > input.params.sensitive_ttl
	age_s <= input.params.verify_ttl
	v := {
		"msg": sprintf("task %s declares security-sensitive files (%s), which are never closed from an earlier verify (%vs old, sensitive_ttl %vs): run `tausik verify --task %s` right before closing", [slug, concat(", ", sort(sensitive)), age_s, input.params.sensitive_ttl, slug]),
		"rule": "sensitive_not_fresh",
	}
}
