package tausik.gates.optional_fields

violations contains {"msg": sprintf("%s has no owner", [c.name]), "line": c.line, "rule": "no_owner"} if {
	some c in input.items.list
	not c.owner
}

violations contains {"msg": sprintf("%s has an empty owner", [c.name]), "line": c.line, "rule": "empty_owner"} if {
	some c in input.items.list
	c.owner == ""
}
