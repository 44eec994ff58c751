# tdd_order: code files changed and no test file did.
package tausik.gates.tdd_order

# Directory segments and name fragments that make a code file a test file.
test_dirs := {"tests", "test", "__tests__", "spec", "specs"}

test_name_marks := ["_test.", ".test.", ".spec.", "_spec."]

could_not_run contains {"code": "files_unavailable", "msg": msg} if {
	input.files.status != "ok"
	msg := sprintf("could not read the files in scope: %s", [input.files.reason])
}

code_extensions := {e | some e in input.params.code_extensions}

code_files contains f.path if {
	some f in input.files.files
	code_extensions[f.ext]
}

is_test(path) if {
	segments := split(path, "/")
	some seg in array.slice(segments, 0, count(segments) - 1)
	test_dirs[seg]
}

is_test(path) if {
	startswith(basename(path), "test_")
}

is_test(path) if {
	some mark in test_name_marks
	contains(basename(path), mark)
}

basename(path) := name if {
	segments := split(path, "/")
	name := segments[count(segments) - 1]
}

test_files := {p | some p in code_files; is_test(p)}

violations contains v if {
	count(test_files) == 0
	some p in code_files
	v := {
		"msg": sprintf("%s: code changed but no test file did; add or update a test for it", [p]),
		"file": p,
		"rule": "code_without_test",
	}
}
