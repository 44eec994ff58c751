# golangci_lint: golangci-lint reports no issue in any Go module that
# configures it, each run in its own root. Each issue is a violation at its
# file and line, its rule the linter that found it.
package tausik.gates.golangci_lint

stack := input.stacks

# The gate judges only the roots where the project shows it uses golangci-lint
# (the stacks namespace's markers): elsewhere the engine does not run the
# tool and the gate is NOT_APPLICABLE with a hint.
ns := input.golangci_lint if stack.tools.golangci_lint.used

not_applicable contains {"code": "not_used", "msg": "golangci_lint: this project shows no sign of using golangci-lint (a .golangci.yml beside a go.mod); add one to switch the gate on"} if {
	stack.status == "ok"
	not stack.tools.golangci_lint.used
}

not_applicable contains {"code": "no_files", "msg": ns.detail} if {
	ns.status == "unavailable"
	ns.reason == "no_files"
}

install := "install golangci-lint (go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@v2.15.0) and put it on PATH"

could_not_run contains {"code": "tool_not_found", "msg": sprintf("%s: golangci-lint is not installed or not on PATH; %s", [r.dir, install])} if {
	some r in ns.roots
	r.reason == "not_found"
}

could_not_run contains {"code": r.reason, "msg": sprintf("%s: %s", [r.dir, r.detail])} if {
	some r in ns.roots
	not object.get(r, "reason", "") in {"", "not_found"}
}

could_not_run contains {"code": "tool_error", "msg": sprintf("%s: golangci-lint exited %d without a located finding: %s", [r.dir, r.exit_code, first_line(r)])} if {
	some r in ns.roots
	r.ran
	r.exit_code != 0
	r.findings == 0
}

first_line(r) := split(trim_space(concat("\n", [r.stderr, r.stdout])), "\n")[0] if trim_space(concat("", [r.stderr, r.stdout])) != ""

else := "it wrote nothing"

violations contains v if {
	some d in ns.diagnostics
	v := {"msg": sprintf("%s:%d:%d: %s (%s)", [d.file, d.line, d.column, d.message, d.code]), "file": d.file, "line": d.line, "rule": d.code}
}
