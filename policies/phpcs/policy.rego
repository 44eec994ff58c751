# phpcs: PHP_CodeSniffer finds nothing under the project's standard
# (phpcs.xml). Each error or warning is a violation at its file, line and
# column; phpcs failing without a located finding (a bad standard) or unable to
# run is COULD_NOT_RUN; no PHP file in scope is NOT_APPLICABLE.
package tausik.gates.phpcs

stack := input.stacks

# The gate judges only a project that shows it uses the tool (the stacks
# namespace's markers): elsewhere the engine does not run it, its facts are
# not read, and the gate is NOT_APPLICABLE with a hint.
ns := input.phpcs if stack.tools.phpcs.used

not_applicable contains {"code": "not_used", "msg": "phpcs: this project shows no sign of using PHP_CodeSniffer (phpcs.xml, phpcs.xml.dist, .phpcs.xml or squizlabs/php_codesniffer in composer.json); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.phpcs.used
}

install := "install PHP_CodeSniffer (composer require --dev squizlabs/php_codesniffer, or apt-get install php-codesniffer) and put `phpcs` on PATH"

detail := ns.detail if object.get(ns, "detail", "") != ""

else := object.get(ns, "reason", "")

runner_codes := {"timeout", "canceled", "start_failed", "killed", "parse_error"}

not_applicable contains {"code": "no_files", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

could_not_run contains {"code": "tool_not_found", "msg": sprintf("phpcs is not installed or not on PATH; %s", [install])} if {
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

# The findings that fail the gate: every message phpcs reports.
found := [d | some d in ns.diagnostics; d.severity in {"error", "warning"}]

could_not_run contains {"code": "tool_error", "msg": sprintf("phpcs exited %d without a located finding: %s", [ns.exit_code, first_line])} if {
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

else := "phpcs"

msg(d) := sprintf("%s:%d:%d: %s (%s)", [d.file, d.line, d.column, d.message, rule(d)])
