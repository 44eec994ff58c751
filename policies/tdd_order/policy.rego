# tdd_order: code files changed and no test file did.
package tausik.gates.tdd_order

could_not_run contains {"code": "files_unavailable", "msg": msg} if {
	input.files.status != "ok"
	msg := sprintf("could not read the files in scope: %s", [input.files.reason])
}

code_extensions := {e | some e in input.params.code_extensions}

code_files contains f.path if {
	some f in input.files.files
	code_extensions[f.ext]
}

# What makes a code file a test file, in one pattern over its path: a
# directory named tests, test, __tests__, spec or specs anywhere on it; a
# name starting with test_; or a name holding _test., .test., .spec. or
# _spec. ([^/]*$ keeps the last two to the file's own name). One regex.match
# per file (OPA compiles the pattern once) rather than a function with three
# bodies splitting the path six times: that was 4× the cost of the whole
# CEL filesize gate on 10,000 files.
test_path := `(^|/)(tests|test|__tests__|spec|specs)/|(^|/)test_[^/]*$|(_test\.|\.test\.|\.spec\.|_spec\.)[^/]*$`

# has_test holds once one changed code file is a test: a complete rule with
# a constant value, so OPA stops at the first test file it meets.
has_test if {
	some f in input.files.files
	code_extensions[f.ext]
	regex.match(test_path, f.path)
}

violations contains v if {
	not has_test
	some p in code_files
	v := {
		"msg": sprintf("%s: code changed but no test file did; add or update a test for it", [p]),
		"file": p,
		"rule": "code_without_test",
	}
}
