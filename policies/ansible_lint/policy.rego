# ansible_lint: ansible-lint finds no error in the playbooks and roles. Each
# issue at level error is a violation at its file and line, with its rule;
# warnings do not fail it; ansible-lint failing without an error, or unable to
# run, is COULD_NOT_RUN.
package tausik.gates.ansible_lint

stack := input.stacks

# The gate judges only a project that shows it uses the tool (the stacks
# namespace's markers): elsewhere the engine does not run it, its facts are
# not read, and the gate is NOT_APPLICABLE with a hint.
ns := input.ansible_lint if stack.tools.ansible_lint.used

not_applicable contains {"code": "not_used", "msg": "ansible_lint: this project shows no sign of using Ansible (an Ansible playbook, role or ansible.cfg); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.ansible_lint.used
}

install := "install ansible-lint (apt-get install ansible-lint, or pipx install ansible-lint) and put `ansible-lint` on PATH"

detail := ns.detail if object.get(ns, "detail", "") != ""

else := object.get(ns, "reason", "")

runner_codes := {"timeout", "canceled", "start_failed", "killed", "parse_error"}

not_applicable contains {"code": "no_files", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

could_not_run contains {"code": "tool_not_found", "msg": sprintf("ansible-lint is not installed or not on PATH; %s", [install])} if {
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

first_line := split(trim_space(concat("\n", [ns.stderr, ns.stdout])), "\n")[0] if trim_space(concat("", [ns.stderr, ns.stdout])) != ""

else := "it wrote nothing"

# The findings that fail the gate: the issues at level error.
found := [d | some d in ns.diagnostics; d.severity == "error"]

could_not_run contains {"code": "tool_error", "msg": sprintf("ansible-lint exited %d without a located finding: %s", [ns.exit_code, first_line])} if {
	ns.status == "ok"
	ns.exit_code != 0
	count(found) == 0
}

violations contains v if {
	ns.status == "ok"
	ns.exit_code != 0
	some d in found
	v := {"msg": msg(d), "file": d.file, "line": d.line, "rule": rule(d)}
}

rule(d) := d.code if d.code != ""

else := "ansible-lint"

msg(d) := sprintf("%s:%d: %s (%s)", [d.file, d.line, d.message, rule(d)])
