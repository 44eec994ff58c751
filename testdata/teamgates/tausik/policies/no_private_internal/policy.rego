# no_private_internal: an import of <owner>._internal[.…] from a module
# that is not <owner> or inside it. The trees of gate fixtures are small
# projects of their own, written to hold violations: not judged.
package tausik.gates.no_private_internal

could_not_run contains {"code": "imports_unavailable", "msg": input.imports.reason} if input.imports.status != "ok"

violations contains v if {
	some f in input.imports.files
	f.language == "python"
	not regex.match(`(^|/)fixtures/[^/]+/tree/`, f.path)
	some im in f.imports
	parts := split(im.module, ".")
	some i, part in parts
	part == "_internal"
	i > 0
	owner := concat(".", array.slice(parts, 0, i))
	not inside(f.module, owner)
	v := {
		"msg": sprintf("%s:%d: %s imports %s, private to %s; import %s's public API instead", [f.path, im.line, f.module, im.module, owner, owner]),
		"file": f.path, "line": im.line, "rule": "private_import",
	}
}

inside(module, owner) if module == owner

inside(module, owner) if startswith(module, concat("", [owner, "."]))
