# helm_lint: `helm lint` reports no [ERROR] in any chart, each run in its
# own root. Each error is a violation at its file (and line when named);
# warnings and info are not; a run that failed without an error is
# COULD_NOT_RUN.
package tausik.gates.helm_lint

stack := input.stacks

# The gate judges only the roots where the project shows it uses Helm
# (the stacks namespace's markers): elsewhere the engine does not run the
# tool and the gate is NOT_APPLICABLE with a hint.
ns := input.helm_lint if stack.tools.helm_lint.used

not_applicable contains {"code": "not_used", "msg": "helm_lint: this project shows no sign of using Helm (a Chart.yaml); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.helm_lint.used
}

not_applicable contains {"code": "no_files", "msg": ns.detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

install := "install Helm (go install helm.sh/helm/v4/cmd/helm@v4.3.2) and put `helm` on PATH"

could_not_run contains {"code": "tool_not_found", "msg": sprintf("%s: helm is not installed or not on PATH; %s", [r.dir, install])} if {
	some r in ns.roots
	r.reason == "not_found"
}

could_not_run contains {"code": r.reason, "msg": sprintf("%s: %s", [r.dir, r.detail])} if {
	some r in ns.roots
	not object.get(r, "reason", "") in {"", "not_found"}
}

could_not_run contains {"code": "tool_error", "msg": sprintf("%s: helm exited %d without a located finding: %s", [r.dir, r.exit_code, first_line(r)])} if {
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
	v := {"msg": sprintf("%s:%d: %s", [d.file, d.line, d.message]), "file": d.file, "line": d.line, "rule": "helm_lint"}
}
