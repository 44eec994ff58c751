# bandit: the Python files in scope have no security issue bandit reports.
# Each issue, and each file bandit could not scan (bandit itself exits 0 for
# that), is a violation; bandit that could not run is COULD_NOT_RUN; no Python
# file in scope is NOT_APPLICABLE.
package tausik.gates.bandit

stack := input.stacks

# The gate judges only a project that shows it uses bandit (the stacks
# namespace's markers): elsewhere the engine does not run the tool, its facts
# are not read, and the gate is NOT_APPLICABLE with a hint.
ns := input.bandit if stack.tools.bandit.used

not_applicable contains {"code": "not_used", "msg": sprintf("bandit: this project shows no sign of using bandit ([tool.bandit] in pyproject.toml or .bandit); add one to switch the gate on%s", [unreadable])} if {
	stack.status == "ok"
	not stack.tools.bandit.used
}

# A marker file that could not be read is evidence of nothing; the hint
# says which, so a broken pyproject.toml does not pass unnoticed.
unreadable := concat("", [sprintf("; %s could not be read: %s", [u.file, u.reason]) | some u in stack.tools.bandit.unreadable])

install := "install it (`pip install bandit`, or `apt-get install bandit`)"

detail := ns.detail if object.get(ns, "detail", "") != ""

else := object.get(ns, "reason", "")

runner_codes := {"timeout", "canceled", "start_failed", "killed", "parse_error"}

not_applicable contains {"code": "no_files", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

could_not_run contains {"code": "tool_not_found", "msg": sprintf("bandit is not installed or not on PATH; %s", [install])} if {
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

could_not_run contains {"code": "tool_error", "msg": sprintf("bandit exited %d without an issue: %s", [ns.exit_code, first_line])} if {
	ns.status == "ok"
	ns.exit_code != 0
	count(ns.diagnostics) == 0
}

violations contains v if {
	ns.status == "ok"
	some d in ns.diagnostics
	v := {"msg": message(d), "file": d.file, "line": d.line, "rule": rule(d)}
}

message(d) := sprintf("%s:%d: %s [%s] %s", [d.file, d.line, d.code, d.severity, d.message]) if d.code != ""

else := sprintf("%s: %s", [d.file, d.message])

rule(d) := d.code if d.code != ""

else := "unscanned_file"

first_line := split(trim_space(concat("\n", [ns.stderr, ns.stdout])), "\n")[0] if trim_space(concat("", [ns.stderr, ns.stdout])) != ""

else := "it wrote nothing"
