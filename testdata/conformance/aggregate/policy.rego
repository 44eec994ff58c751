package tausik.gates.aggregate

code := {p | some p in input.changed.list; endswith(p, ".py")}

tests := {p | some p in code; startswith(p, "tests/")}

violations contains {"msg": sprintf("%d code file(s) changed, %d test(s); want at least %d", [count(code), count(tests), input.params.min_tests]), "rule": "too_few_tests"} if {
	count(code) > 0
	count(tests) < input.params.min_tests
}
