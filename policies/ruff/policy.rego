# ruff: the Python files in scope pass `ruff check`. Each diagnostic is a
# violation at its file and line; ruff that could not run blocks as
# COULD_NOT_RUN; no Python file in scope is NOT_APPLICABLE.
package tausik.gates.ruff

stack := input.stacks

# The gate judges only a project that shows it uses ruff (the stacks
# namespace's markers): elsewhere the engine does not run the tool, its facts
# are not read, and the gate is NOT_APPLICABLE with a hint.
ns := input.ruff if stack.tools.ruff.used

not_applicable contains {"code": "not_used", "msg": sprintf("ruff: this project shows no sign of using ruff ([tool.ruff] in pyproject.toml, ruff.toml, .ruff.toml, ruff among the dev dependencies or a ruff hook in .pre-commit-config.yaml); add one to switch the gate on%s", [unreadable])} if {
	stack.status == "ok"
	not stack.tools.ruff.used
}

# A marker file that could not be read is evidence of nothing; the hint
# says which, so a broken pyproject.toml does not pass unnoticed.
unreadable := concat("", [sprintf("; %s could not be read: %s", [u.file, u.reason]) | some u in stack.tools.ruff.unreadable])

install := "install it (`pipx install ruff`, `pip install ruff` or `uv tool install ruff`; see https://docs.astral.sh/ruff/installation/)"

detail := ns.detail if object.get(ns, "detail", "") != ""

else := object.get(ns, "reason", "")

# Reasons the command runner gives that are codes already.
runner_codes := {"timeout", "canceled", "start_failed", "killed", "parse_error"}

not_applicable contains {"code": "no_files", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

could_not_run contains {"code": "tool_not_found", "msg": sprintf("ruff is not installed or not on PATH; %s", [install])} if {
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

# ruff exits 2 for a usage or configuration error, and reports nothing.
could_not_run contains {"code": "tool_error", "msg": msg} if {
	ns.status == "ok"
	ns.exit_code != 0
	count(ns.diagnostics) == 0
	msg := sprintf("ruff exited %d without a finding: %s; fix its configuration (pyproject.toml, ruff.toml)", [ns.exit_code, first_line(ns.stderr)])
}

violations contains v if {
	ns.status == "ok"
	ns.exit_code != 0
	some d in ns.diagnostics
	v := {"msg": message(d), "file": d.file, "line": d.line, "rule": rule(d)}
}

message(d) := sprintf("%s:%d:%d: %s %s; `ruff check --fix` fixes it", [d.file, d.line, d.column, d.code, d.message]) if {
	d.code != ""
	d.fixable
} else := sprintf("%s:%d:%d: %s %s", [d.file, d.line, d.column, d.code, d.message]) if {
	d.code != ""
} else := sprintf("%s:%d:%d: %s", [d.file, d.line, d.column, d.message])

rule(d) := d.code if d.code != ""

else := "syntax_error"

first_line(s) := trim_space(split(trim_space(s), "\n")[0]) if trim_space(s) != ""

else := "it wrote nothing to stderr"
