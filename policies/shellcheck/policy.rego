# shellcheck: shellcheck has no comment on any shell script, run in each
# directory of scripts. Each comment is a violation at its file, line and
# column, its rule shellcheck's code (SC2086); a run that failed without a
# comment is COULD_NOT_RUN.
package tausik.gates.shellcheck

stack := input.stacks

# The gate judges only the directories where the project has shell scripts
# (the stacks namespace): elsewhere the engine does not run the tool and the
# gate is NOT_APPLICABLE with a hint.
ns := input.shellcheck if stack.tools.shellcheck.used

not_applicable contains {"code": "not_used", "msg": "shellcheck: this project has no shell script (.sh, .bash); the gate judges one when there is"} if {
	stack.status == "ok"
	not stack.tools.shellcheck.used
}

not_applicable contains {"code": "no_files", "msg": ns.detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

install := "install shellcheck (apt-get install shellcheck) and put it on PATH"

could_not_run contains {"code": "tool_not_found", "msg": sprintf("%s: shellcheck is not installed or not on PATH; %s", [r.dir, install])} if {
	some r in ns.roots
	r.reason == "not_found"
}

could_not_run contains {"code": r.reason, "msg": sprintf("%s: %s", [r.dir, r.detail])} if {
	some r in ns.roots
	not object.get(r, "reason", "") in {"", "not_found"}
}

could_not_run contains {"code": "tool_error", "msg": sprintf("%s: shellcheck exited %d without a located finding: %s", [r.dir, r.exit_code, first_line(r)])} if {
	some r in ns.roots
	r.ran
	r.exit_code != 0
	r.findings == 0
}

first_line(r) := split(trim_space(concat("\n", [r.stderr, r.stdout])), "\n")[0] if trim_space(concat("", [r.stderr, r.stdout])) != ""

else := "it wrote nothing"

violations contains v if {
	some d in ns.diagnostics
	v := {"msg": sprintf("%s:%d:%d: %s: %s (%s)", [d.file, d.line, d.column, d.severity, d.message, d.code]), "file": d.file, "line": d.line, "rule": d.code}
}
