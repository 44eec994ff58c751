# mypy: the Python files in scope type-check. Each error is a violation at its
# file and line (notes only explain errors and are not counted); mypy that could
# not run is COULD_NOT_RUN; no Python file in scope is NOT_APPLICABLE.
package tausik.gates.mypy

stack := input.stacks

# The gate judges only a project that shows it uses mypy (the stacks
# namespace's markers): elsewhere the engine does not run the tool, its facts
# are not read, and the gate is NOT_APPLICABLE with a hint.
ns := input.mypy if stack.tools.mypy.used

not_applicable contains {"code": "not_used", "msg": sprintf("mypy: this project shows no sign of using mypy ([tool.mypy] in pyproject.toml, mypy.ini, .mypy.ini or [mypy] in setup.cfg); add one to switch the gate on%s", [unreadable])} if {
	stack.status == "ok"
	not stack.tools.mypy.used
}

# A marker file that could not be read is evidence of nothing; the hint
# says which, so a broken pyproject.toml does not pass unnoticed.
unreadable := concat("", [sprintf("; %s could not be read: %s", [u.file, u.reason]) | some u in stack.tools.mypy.unreadable])

install := "install it (`pip install mypy`, or `apt-get install mypy`)"

detail := ns.detail if object.get(ns, "detail", "") != ""

else := object.get(ns, "reason", "")

runner_codes := {"timeout", "canceled", "start_failed", "killed", "parse_error"}

not_applicable contains {"code": "no_files", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

could_not_run contains {"code": "tool_not_found", "msg": sprintf("mypy is not installed or not on PATH; %s", [install])} if {
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

errors contains d if {
	ns.status == "ok"
	some d in ns.diagnostics
	d.severity == "error"
}

# mypy exits 2 for a crash or a bad invocation or config, with no error line.
could_not_run contains {"code": "tool_error", "msg": msg} if {
	ns.status == "ok"
	ns.exit_code != 0
	count(errors) == 0
	msg := sprintf("mypy exited %d without a type error: %s", [ns.exit_code, first_line])
}

violations contains v if {
	ns.exit_code != 0
	some d in errors
	v := {"msg": message(d), "file": d.file, "line": d.line, "rule": rule(d)}
}

message(d) := sprintf("%s:%d:%d: error: %s [%s]", [d.file, d.line, d.column, d.message, d.code]) if d.code != ""

else := sprintf("%s:%d:%d: error: %s", [d.file, d.line, d.column, d.message])

rule(d) := d.code if d.code != ""

else := "error"

first_line := split(trim_space(concat("\n", [ns.stderr, ns.stdout])), "\n")[0] if trim_space(concat("", [ns.stderr, ns.stdout])) != ""

else := "it wrote nothing"
