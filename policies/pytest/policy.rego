# pytest: the test suite passes. Each failed or erroring test is a violation
# at the line that failed; "no tests collected" (exit 5) and a pytest that
# could not run block as COULD_NOT_RUN; no Python file in scope is
# NOT_APPLICABLE.
package tausik.gates.pytest

stack := input.stacks

# The gate judges only a project that shows it uses pytest (the stacks
# namespace's markers): elsewhere the engine does not run the tool, its facts
# are not read, and the gate is NOT_APPLICABLE with a hint.
ns := input.pytest if stack.tools.pytest.used

not_applicable contains {"code": "not_used", "msg": sprintf("pytest: this project shows no sign of using pytest ([tool.pytest.ini_options] in pyproject.toml, pytest.ini, conftest.py, test_*.py under tests/, [pytest] in tox.ini or [tool:pytest] in setup.cfg); add one to switch the gate on%s", [unreadable])} if {
	stack.status == "ok"
	not stack.tools.pytest.used
}

# A marker file that could not be read is evidence of nothing; the hint
# says which, so a broken pyproject.toml does not pass unnoticed.
unreadable := concat("", [sprintf("; %s could not be read: %s", [u.file, u.reason]) | some u in stack.tools.pytest.unreadable])

python := ns.argv[0] if count(object.get(ns, "argv", [])) > 0

else := "python3"

install := "install it (`pip install pytest`, or `apt-get install python3-pytest` and run it as /usr/bin/python3), or point TAUSIK_PYTHON or the config's \"python\" at an interpreter that has it"

detail := ns.detail if object.get(ns, "detail", "") != ""

else := object.get(ns, "reason", "")

runner_codes := {"timeout", "canceled", "start_failed", "killed", "parse_error"}

# pytest itself is missing when the interpreter says so; its report is then
# missing too, which the runner calls a parse error.
pytest_missing if contains(object.get(ns, "stderr", ""), "No module named pytest")

not_applicable contains {"code": "no_files", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

could_not_run contains {"code": "tool_not_found", "msg": msg} if {
	ns.status == "error"
	ns.reason == "not_found"
	msg := sprintf("the Python interpreter %s is not installed or not on PATH (%s); install Python, or point TAUSIK_PYTHON or the config's \"python\" at one that has pytest", [python, detail])
}

could_not_run contains {"code": "tool_not_found", "msg": sprintf("pytest is not installed for %s; %s", [python, install])} if {
	pytest_missing
}

could_not_run contains {"code": ns.reason, "msg": detail} if {
	ns.status == "error"
	runner_codes[ns.reason]
	not pytest_missing
}

could_not_run contains {"code": "runner_error", "msg": detail} if {
	ns.status != "ok"
	not ns.reason in runner_codes
	not ns.reason in {"not_found", "no_files"}
}

could_not_run contains {"code": "no_tests_collected", "msg": msg} if {
	ns.status == "ok"
	ns.exit_code == 5
	msg := "pytest collected no tests (exit 5), so nothing was verified; add tests (test_*.py files with test_* functions) or fix pytest's configuration (testpaths, python_files)"
}

# Exit 3 (internal error) and 4 (usage error) come with no failing test.
could_not_run contains {"code": "tool_error", "msg": msg} if {
	ns.status == "ok"
	not ns.exit_code in {0, 5}
	count(failing) == 0
	msg := sprintf("pytest exited %d without a failing test: %s", [ns.exit_code, last_line])
}

failing contains c if {
	ns.status == "ok"
	some c in ns.tests.cases
	c.outcome in {"failed", "error"}
}

violations contains v if {
	not ns.exit_code in {0, 5}
	some c in failing
	file := object.get(c, "fail_file", c.file)
	line := object.get(c, "fail_line", c.line)
	v := {
		"msg": sprintf("%s:%d: %s %s: %s", [file, line, test_id(c), c.outcome, summary(c.message)]),
		"file": file,
		"line": line,
		"rule": sprintf("test_%s", [c.outcome]),
	}
}

test_id(c) := sprintf("%s::%s", [c.file, c.name]) if c.file != ""

else := sprintf("%s::%s", [c.classname, c.name])

summary(m) := split(trim_space(m), "\n")[0] if trim_space(m) != ""

else := "(no message)"

last_line := ls[count(ls) - 1] if {
	ls := [l | some l in split(concat("\n", [ns.stdout, ns.stderr]), "\n"); trim_space(l) != ""]
	count(ls) > 0
} else := "it wrote nothing"
