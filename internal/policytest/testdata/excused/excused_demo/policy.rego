package tausik.gates.excused_demo

violations contains {"msg": sprintf("%s is empty", [f.path])} if {
	some f in input.files.files
	f.size == 0
}
