package tausik.gates.missing_fact

could_not_run contains {"code": "git_error", "msg": input.git.reason} if input.git.status == "error"

not_applicable contains "not_a_repo" if input.git.status == "unavailable"

not_applicable contains "nothing_changed" if {
	input.git.status == "ok"
	count(input.git.changed) == 0
}

violations contains {"msg": sprintf("%s changed", [p]), "file": p, "rule": "cursor_path"} if {
	input.git.status == "ok"
	some p in input.git.changed
	startswith(p, ".cursor/")
}
