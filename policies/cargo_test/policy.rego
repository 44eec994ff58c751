# cargo_test: `cargo test` passes. Each failed test is a violation at the
# place it panicked, each compile error at its file, line and column; cargo
# failing without either, or unable to run, is COULD_NOT_RUN; no Rust file in
# scope is NOT_APPLICABLE.
package tausik.gates.cargo_test

stack := input.stacks

# The gate judges only a project that shows it uses the tool (the stacks
# namespace's markers): elsewhere the engine does not run it, its facts are
# not read, and the gate is NOT_APPLICABLE with a hint.
ns := input.cargo_test if stack.tools.cargo_test.used

not_applicable contains {"code": "not_used", "msg": "cargo_test: this project shows no sign of using Rust (a Cargo.toml); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.cargo_test.used
}

install := "install Rust (https://rustup.rs, or apt-get install cargo) and put `cargo` on PATH"

detail := ns.detail if object.get(ns, "detail", "") != ""

else := object.get(ns, "reason", "")

runner_codes := {"timeout", "canceled", "start_failed", "killed", "parse_error"}

not_applicable contains {"code": "no_files", "msg": detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

could_not_run contains {"code": "tool_not_found", "msg": sprintf("cargo is not installed or not on PATH; %s", [install])} if {
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

# The failures that fail the gate: failed tests and compile errors.
errors := [d | some d in ns.diagnostics; d.severity == "error"]

cases := object.get(ns, ["tests", "cases"], [])

failed := [c | some c in cases; c.outcome in {"failed", "error"}]

could_not_run contains {"code": "tool_error", "msg": sprintf("cargo test exited %d without a failed test or a located error: %s", [ns.exit_code, first_line])} if {
	ns.status == "ok"
	ns.exit_code != 0
	count(errors) + count(failed) == 0
}

violations contains v if {
	ns.status == "ok"
	ns.exit_code != 0
	some d in errors
	v := {"msg": sprintf("%s:%d:%d: %s (%s)", [d.file, d.line, d.column, d.message, rule(d)]), "file": d.file, "line": d.line, "rule": rule(d)}
}

violations contains v if {
	ns.status == "ok"
	ns.exit_code != 0
	some c in failed
	v := {"msg": sprintf("%s: %s %s: %s", [where(c), name(c), c.outcome, c.message]), "file": file(c), "line": line(c), "rule": "test"}
}

rule(d) := d.code if d.code != ""

else := "compile"

# Where a failed test broke: its failure's location, else its own.
file(c) := c.fail_file if object.get(c, "fail_file", "") != ""

else := c.file

line(c) := c.fail_line if object.get(c, "fail_file", "") != ""

else := c.line

where(c) := sprintf("%s:%d", [file(c), line(c)]) if file(c) != ""

else := "(no location)"

name(c) := sprintf("%s::%s", [c.classname, c.name]) if c.classname != ""

else := c.name
