# go_test: `go test ./...` passes. go test has no machine output here, so the
# policy reads its text: each "--- FAIL: TestX" is a violation quoting the
# test's first message line, and each package whose tests did not build or
# set up is one too. A failure it cannot place, or go test that could not run,
# is COULD_NOT_RUN; no Go file in scope is NOT_APPLICABLE.
package tausik.gates.go_test

stack := input.stacks

# The gate judges only a project that shows it uses Go (the stacks
# namespace's markers): elsewhere the engine does not run the tool, its facts
# are not read, and the gate is NOT_APPLICABLE with a hint.
ns := input.go_test if stack.tools.go_test.used

not_applicable contains {"code": "not_used", "msg": "go_test: this project shows no sign of using Go (a go.mod); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.go_test.used
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

failed if {
	ns.status == "ok"
	ns.exit_code != 0
}

out := split(ns.stdout, "\n")

errs := [l | some l in split(ns.stderr, "\n"); trim_space(l) != ""; not startswith(l, "#")]

failed_tests contains {"name": m[1], "detail": said_next(i)} if {
	failed
	some i, l in out
	ms := regex.find_all_string_submatch_n(`^\s*--- FAIL: (\S+)`, l, 1)
	count(ms) > 0
	m := ms[0]
}

broken_packages contains {"pkg": m[1], "what": m[2]} if {
	failed
	some l in out
	ms := regex.find_all_string_submatch_n(`^FAIL\t(\S+) \[(build|setup) failed\]`, l, 1)
	count(ms) > 0
	m := ms[0]
}

# The line after "--- FAIL" is the test's first message, when it has one.
said_next(i) := trim_space(out[i + 1]) if {
	i + 1 < count(out)
	regex.match(`^\s+\S`, out[i + 1])
	not regex.match(`^\s*--- `, out[i + 1])
} else := "(no message)"

violations contains v if {
	some t in failed_tests
	v := {"msg": sprintf("%s failed: %s", [t.name, t.detail]), "rule": "test_failed"}
}

violations contains v if {
	some p in broken_packages
	v := {"msg": sprintf("%s: tests do not %s: %s", [p.pkg, verb[p.what], first_error]), "rule": sprintf("%s_failed", [p.what])}
}

verb := {"build": "build", "setup": "set up"}

first_error := errs[0] if count(errs) > 0

else := "see go test's output"

could_not_run contains {"code": "tool_error", "msg": sprintf("go test exited %d without a failed test or package: %s", [ns.exit_code, last_line])} if {
	failed
	count(failed_tests) == 0
	count(broken_packages) == 0
}

last_line := ls[count(ls) - 1] if {
	ls := [l | some l in split(concat("\n", [ns.stdout, ns.stderr]), "\n"); trim_space(l) != ""]
	count(ls) > 0
} else := "it wrote nothing"
