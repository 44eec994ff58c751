# yamllint: yamllint reports no error in the YAML files under any directory
# that keeps a yamllint config, run there. Each problem at level error is a
# violation at its file, line and column, its rule yamllint's; a warning
# (the level the config gives a rule) is not; a run that failed without a
# problem is COULD_NOT_RUN.
package tausik.gates.yamllint

stack := input.stacks

# The gate judges only the directories that keep a yamllint config (the
# stacks namespace): elsewhere the engine does not run the tool and the gate
# is NOT_APPLICABLE with a hint.
ns := input.yamllint if stack.tools.yamllint.used

not_applicable contains {"code": "not_used", "msg": "yamllint: this project shows no sign of using yamllint (a .yamllint, .yamllint.yaml or .yamllint.yml config); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.yamllint.used
}

not_applicable contains {"code": "no_files", "msg": ns.detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

install := "install yamllint (apt-get install yamllint) and put it on PATH"

could_not_run contains {"code": "tool_not_found", "msg": sprintf("%s: yamllint is not installed or not on PATH; %s", [r.dir, install])} if {
	some r in ns.roots
	r.reason == "not_found"
}

could_not_run contains {"code": r.reason, "msg": sprintf("%s: %s", [r.dir, r.detail])} if {
	some r in ns.roots
	not object.get(r, "reason", "") in {"", "not_found"}
}

could_not_run contains {"code": "tool_error", "msg": sprintf("%s: yamllint exited %d without a located finding: %s", [r.dir, r.exit_code, first_line(r)])} if {
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
