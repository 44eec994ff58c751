# The policy of every command gate a config defines under "commands": the
# tool's exit code is the verdict. A non-zero exit fails the gate with what the
# tool said — its parsed diagnostics or failed tests, each with file and line,
# else the last lines of its output. A tool that could not run (not installed,
# timed out, killed, unreadable output) is COULD_NOT_RUN; no file for it to
# judge is NOT_APPLICABLE.
#
# Every such gate shares this policy; it reads the gate's own namespace, whose
# name arrives as input.params.namespace.
package tausik.gates.command

name := input.params.namespace

ns := input[name]

tool := ns.argv[0] if count(object.get(ns, "argv", [])) > 0

else := name

detail := object.get(ns, "detail", "") if object.get(ns, "detail", "") != ""

else := ns.reason

# Reasons the command runner gives that are codes already.
runner_codes := {"timeout", "canceled", "start_failed", "killed", "parse_error"}

not_applicable contains {"code": "no_files", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

could_not_run contains {"code": "tool_not_found", "msg": msg} if {
	ns.status == "error"
	ns.reason == "not_found"
	msg := sprintf("%s is not installed or not on PATH (%s); install it, or fix commands.%s.argv in the config", [tool, detail, name])
}

could_not_run contains {"code": ns.reason, "msg": sprintf("%s: %s", [tool, detail])} if {
	ns.status == "error"
	runner_codes[ns.reason]
}

could_not_run contains {"code": "runner_error", "msg": detail} if {
	ns.status == "error"
	ns.reason != "not_found"
	not runner_codes[ns.reason]
}

could_not_run contains {"code": "unavailable", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason != "no_files"
}

failed if {
	ns.status == "ok"
	ns.exit_code != 0
}

violations contains v if {
	failed
	some d in ns.diagnostics
	v := {"msg": diagnostic_msg(d), "file": d.file, "line": d.line, "rule": rule(d.code)}
}

violations contains v if {
	failed
	some c in failed_tests
	file := object.get(c, "fail_file", c.file)
	line := object.get(c, "fail_line", c.line)
	v := {"msg": sprintf("%s:%d: %s %s: %s", [file, line, c.name, c.outcome, summary(c.message)]), "file": file, "line": line, "rule": sprintf("test_%s", [c.outcome])}
}

summary(m) := split(trim_space(m), "\n")[0] if trim_space(m) != ""

else := "(no message)"

violations contains v if {
	failed
	count(ns.diagnostics) == 0
	count(failed_tests) == 0
	v := {"msg": sprintf("%s exited %d%s", [tool, ns.exit_code, output_tail]), "rule": "exit_code"}
}

failed_tests contains c if {
	ns.tests != null
	some c in ns.tests.cases
	c.outcome in {"failed", "error"}
}

diagnostic_msg(d) := sprintf("%s:%d:%d: %s %s", [d.file, d.line, d.column, d.code, d.message]) if d.code != ""

else := sprintf("%s:%d:%d: %s", [d.file, d.line, d.column, d.message])

rule(code) := code if code != ""

else := "diagnostic"

# The last lines the tool wrote, stderr first: where tools put their errors.
output_tail := sprintf("; last lines of its output:\n      %s", [concat("\n      ", last_lines)]) if count(last_lines) > 0

else := " and wrote nothing"

last_lines := array.slice(out_lines, count(out_lines) - 12, count(out_lines))

out_lines := [l | some l in split(trim_space(ns.stderr), "\n"); trim_space(l) != ""] if trim_space(ns.stderr) != ""

else := [l | some l in split(trim_space(ns.stdout), "\n"); trim_space(l) != ""]
