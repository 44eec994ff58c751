# go_vet: `go vet ./...` finds nothing. Each finding is a violation at its file
# and line; go vet that failed without a located finding (files outside the module, a broken
# module) or could not run is COULD_NOT_RUN; no Go file in scope is
# NOT_APPLICABLE.
package tausik.gates.go_vet

stack := input.stacks

# The gate judges only a project that shows it uses Go (the stacks
# namespace's markers): elsewhere the engine does not run the tool, its facts
# are not read, and the gate is NOT_APPLICABLE with a hint.
ns := input.go_vet if stack.tools.go_vet.used

not_applicable contains {"code": "not_used", "msg": "go_vet: this project shows no sign of using Go (a go.mod); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.go_vet.used
}

install := "install Go (https://go.dev/doc/install) and put `go` on PATH"

detail := ns.detail if object.get(ns, "detail", "") != ""

else := object.get(ns, "reason", "")

runner_codes := {"timeout", "canceled", "start_failed", "killed", "parse_error"}

not_applicable contains {"code": "no_files", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

could_not_run contains {"code": "tool_not_found", "msg": sprintf("go is not installed or not on PATH; %s", [install])} if {
	ns.status == "error"
	ns.reason == "not_found"
}

could_not_run contains {"code": ns.reason, "msg": detail} if {
	ns.status == "error"
	runner_codes[ns.reason]
}

could_not_run contains {"code": "runner_error", "msg": detail} if {
	ns.status != "ok"
	not ns.reason in runner_codes
	not ns.reason in {"not_found", "no_files"}
}

could_not_run contains {"code": "tool_error", "msg": sprintf("go vet exited %d without a located finding: %s", [ns.exit_code, first_line])} if {
	ns.status == "ok"
	ns.exit_code != 0
	count(ns.diagnostics) == 0
}

violations contains v if {
	ns.status == "ok"
	ns.exit_code != 0
	some d in ns.diagnostics
	v := {"msg": sprintf("%s:%d:%d: %s", [d.file, d.line, d.column, d.message]), "file": d.file, "line": d.line, "rule": "vet"}
}

first_line := split(trim_space(concat("\n", [ns.stderr, ns.stdout])), "\n")[0] if trim_space(concat("", [ns.stderr, ns.stdout])) != ""

else := "it wrote nothing"
