# kubeconform: every manifest in scope validates against its schema, run in
# each directory of manifests. Each validation error is a violation at the
# line of the field it names; a resource kubeconform could not judge (no
# schema found) is COULD_NOT_RUN.
package tausik.gates.kubeconform

stack := input.stacks

# The gate judges only the roots where the project shows it uses Kubernetes manifests
# (the stacks namespace's markers): elsewhere the engine does not run the
# tool and the gate is NOT_APPLICABLE with a hint.
ns := input.kubeconform if stack.tools.kubeconform.used

not_applicable contains {"code": "not_used", "msg": "kubeconform: this project shows no sign of using Kubernetes manifests (a YAML file with apiVersion and kind); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.kubeconform.used
}

not_applicable contains {"code": "no_files", "msg": ns.detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

install := "install kubeconform (go install github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0) and put it on PATH"

could_not_run contains {"code": "tool_not_found", "msg": sprintf("%s: kubeconform is not installed or not on PATH; %s", [r.dir, install])} if {
	some r in ns.roots
	r.reason == "not_found"
}

could_not_run contains {"code": r.reason, "msg": sprintf("%s: %s", [r.dir, r.detail])} if {
	some r in ns.roots
	not object.get(r, "reason", "") in {"", "not_found"}
}

could_not_run contains {"code": "tool_error", "msg": sprintf("%s: kubeconform exited %d without a located finding: %s", [r.dir, r.exit_code, first_line(r)])} if {
	some r in ns.roots
	r.ran
	r.exit_code != 0
	r.findings == 0
}

first_line(r) := split(trim_space(concat("\n", [r.stderr, r.stdout])), "\n")[0] if trim_space(concat("", [r.stderr, r.stdout])) != ""

else := "it wrote nothing"

# A resource that could not be judged is listed too, but COULD_NOT_RUN
# outranks FAILED: the gate never passes over it.
violations contains v if {
	some d in ns.diagnostics
	v := {"msg": sprintf("%s:%d: %s", [d.file, d.line, d.message]), "file": d.file, "line": d.line, "rule": d.code}
}

could_not_run contains {"code": "could_not_judge", "msg": sprintf("%s: %s", [d.file, d.message])} if {
	some d in ns.diagnostics
	d.severity == "could_not_judge"
}
