# tsc: `tsc --noEmit` reports no error in any TypeScript package, each run
# in its own root. Each error is a violation at its file and line; an error
# of the project as a whole (a tsconfig problem, no inputs) or a run that
# failed without one is COULD_NOT_RUN.
package tausik.gates.tsc

stack := input.stacks

# The gate judges only the roots where the project shows it uses TypeScript
# (the stacks namespace's markers): elsewhere the engine does not run the
# tool and the gate is NOT_APPLICABLE with a hint.
ns := input.tsc if stack.tools.tsc.used

not_applicable contains {"code": "not_used", "msg": "tsc: this project shows no sign of using TypeScript (a tsconfig.json); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.tsc.used
}

not_applicable contains {"code": "no_files", "msg": ns.detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

install := "install TypeScript (npm install --save-dev typescript) and put `tsc` on PATH"

could_not_run contains {"code": "tool_not_found", "msg": sprintf("%s: tsc is not installed or not on PATH; %s", [r.dir, install])} if {
	some r in ns.roots
	r.reason == "not_found"
}

could_not_run contains {"code": r.reason, "msg": sprintf("%s: %s", [r.dir, r.detail])} if {
	some r in ns.roots
	not object.get(r, "reason", "") in {"", "not_found"}
}

could_not_run contains {"code": "tool_error", "msg": sprintf("%s: tsc exited %d without a located finding: %s", [r.dir, r.exit_code, first_line(r)])} if {
	some r in ns.roots
	r.ran
	r.exit_code != 0
	r.findings == 0
}

first_line(r) := split(trim_space(concat("\n", [r.stderr, r.stdout])), "\n")[0] if trim_space(concat("", [r.stderr, r.stdout])) != ""

else := "it wrote nothing"

violations contains v if {
	some d in ns.diagnostics
	v := {"msg": sprintf("%s:%d:%d: %s %s", [d.file, d.line, d.column, d.code, d.message]), "file": d.file, "line": d.line, "rule": d.code}
}

could_not_run contains {"code": "project_error", "msg": sprintf("tsc: %s %s", [d.code, d.message])} if {
	some d in ns.diagnostics
	d.file == ""
}
