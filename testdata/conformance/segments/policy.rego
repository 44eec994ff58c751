package tausik.gates.segments

norm(d) := x if {
	y := trim_prefix(d, "./")
	x := concat("", [y, "/"])
	not endswith(y, "/")
}

norm(d) := y if {
	y := trim_prefix(d, "./")
	endswith(y, "/")
}

exempt(p) if {
	some d in input.params.dirs
	contains(concat("", ["/", p]), concat("", ["/", norm(d)]))
}

violations contains {"msg": sprintf("%s is judged", [p]), "file": p, "rule": "judged"} if {
	some p in input.paths.list
	not exempt(p)
}
