# eslint: eslint reports no error (severity 2) in the files in scope, run in
# each package with an eslint config. Each error is a violation at its file
# and line; warnings are not; a run that failed without an error is
# COULD_NOT_RUN.
package tausik.gates.eslint

stack := input.stacks

# The gate judges only the roots where the project shows it uses eslint
# (the stacks namespace's markers): elsewhere the engine does not run the
# tool and the gate is NOT_APPLICABLE with a hint.
ns := input.eslint if stack.tools.eslint.used

not_applicable contains {"code": "not_used", "msg": "eslint: this project shows no sign of using eslint (an eslint config such as eslint.config.js); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.eslint.used
}

not_applicable contains {"code": "no_files", "msg": ns.detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

install := "install eslint (npm install --save-dev eslint) and put `eslint` on PATH"

could_not_run contains {"code": "tool_not_found", "msg": sprintf("%s: eslint is not installed or not on PATH; %s", [r.dir, install])} if {
	some r in ns.roots
	r.reason == "not_found"
}

could_not_run contains {"code": r.reason, "msg": sprintf("%s: %s", [r.dir, r.detail])} if {
	some r in ns.roots
	not object.get(r, "reason", "") in {"", "not_found"}
}

could_not_run contains {"code": "tool_error", "msg": sprintf("%s: eslint exited %d without a located finding: %s", [r.dir, r.exit_code, first_line(r)])} if {
	some r in ns.roots
	r.ran
	r.exit_code != 0
	r.findings == 0
}

first_line(r) := split(trim_space(concat("\n", [r.stderr, r.stdout])), "\n")[0] if trim_space(concat("", [r.stderr, r.stdout])) != ""

else := "it wrote nothing"

violations contains v if {
	some d in ns.diagnostics
	d.severity == "error"
	v := {"msg": sprintf("%s:%d:%d: %s (%s)", [d.file, d.line, d.column, d.message, d.code]), "file": d.file, "line": d.line, "rule": d.code}
}
