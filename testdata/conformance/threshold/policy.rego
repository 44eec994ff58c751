package tausik.gates.threshold

violations contains {"msg": sprintf("%s: %d lines (max %d)", [f.path, f.lines, input.params.max]), "file": f.path, "line": input.params.max + 1, "rule": "over"} if {
	some f in input.files.files
	f.lines > input.params.max
}
