# js_test: every package's tests pass, run by its own runner (node --test,
# jest or vitest) in its root. Each failed or erroring test is a violation at
# the line of the failure; a package whose run found no test, or failed
# without a failing test, is COULD_NOT_RUN.
package tausik.gates.js_test

stack := input.stacks

# The gate judges only the roots where the project shows it uses a JavaScript test runner
# (the stacks namespace's markers): elsewhere the engine does not run the
# tool and the gate is NOT_APPLICABLE with a hint.
ns := input.js_test if stack.tools.js_test.used

not_applicable contains {"code": "not_used", "msg": "js_test: this project shows no sign of using a JavaScript test runner (a package.json whose test script runs node --test, jest or vitest); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.js_test.used
}

not_applicable contains {"code": "no_files", "msg": ns.detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

install := "install the runner the package uses (node ships node --test; npm install --save-dev jest or vitest) and put it on PATH"

could_not_run contains {"code": "tool_not_found", "msg": sprintf("%s: the test runner is not installed or not on PATH; %s", [r.dir, install])} if {
	some r in ns.roots
	r.reason == "not_found"
}

could_not_run contains {"code": r.reason, "msg": sprintf("%s: %s", [r.dir, r.detail])} if {
	some r in ns.roots
	not object.get(r, "reason", "") in {"", "not_found"}
}

could_not_run contains {"code": "tool_error", "msg": sprintf("%s: the test runner exited %d without a located finding: %s", [r.dir, r.exit_code, first_line(r)])} if {
	some r in ns.roots
	r.ran
	r.exit_code != 0
	r.findings == 0
}

first_line(r) := split(trim_space(concat("\n", [r.stderr, r.stdout])), "\n")[0] if trim_space(concat("", [r.stderr, r.stdout])) != ""

else := "it wrote nothing"

violations contains v if {
	some c in ns.tests.cases
	c.outcome in {"failed", "error"}
	file := object.get(c, "fail_file", c.file)
	line := object.get(c, "fail_line", c.line)
	v := {"msg": sprintf("%s:%d: %s %s: %s", [file, line, c.name, c.outcome, c.message]), "file": file, "line": line, "rule": c.outcome}
}

could_not_run contains {"code": "no_tests", "msg": sprintf("%s: the test runner ran no test", [r.dir])} if {
	some r in ns.roots
	r.ran
	r.cases == 0
}
