# npm_lockfile: every package an agent's `npm install` names is in
# package-lock.json. input.tool.commands holds each simple command's argv
# (wrappers stripped, bash -c parsed; dynamic[i] when argv[i] is known only
# at run time); input.documents the parsed lockfile.
package tausik.gates.npm_lockfile

tool := input.tool

not_applicable contains {"code": "not_a_tool_call", "msg": "no agent tool call is judged here"} if tool.status == "unavailable"

could_not_run contains {"code": "tool_unreadable", "msg": object.get(tool, "reason", "")} if tool.status == "error"

could_not_run contains {"code": "lockfile_unreadable", "msg": object.get(input.documents, "reason", "")} if {
	input.documents.status != "ok"
}

dyn(cmd, i) if object.get(cmd, "dynamic", [])[i] == true

# sub(cmd) is npm's subcommand: the first word after the program that is not
# an option.
sub(cmd) := min({i |
	some i, w in cmd.argv
	i > 0
	not startswith(w, "-")
}) if regex.replace(cmd.argv[0], `^.*/`, "") == "npm"

installs contains pkg(cmd, i) if {
	some cmd in object.get(tool, "commands", [])
	k := sub(cmd)
	cmd.argv[k] in {"install", "i", "add", "in"}
	some i, w in cmd.argv
	i > k
	not startswith(w, "-")
}

# pkg is the package's name: its version (name@1.2.3) cut, its scope kept.
pkg(cmd, i) := "(a name known only when it runs)" if dyn(cmd, i)

pkg(cmd, i) := regex.replace(cmd.argv[i], `^(@?[^@]+)@.*$`, "$1") if not dyn(cmd, i)

locked(name) if {
	some f in input.documents.files
	some doc in f.docs
	doc.packages[concat("", ["node_modules/", name])]
}

locked(name) if {
	some f in input.documents.files
	some doc in f.docs
	doc.dependencies[name]
}

violations contains v if {
	some name in installs
	not locked(name)
	v := {
		"msg": sprintf("npm install %s: package-lock.json does not hold it; a person adds a dependency (package.json and the lockfile, reviewed)", [name]),
		"rule": "not_in_lockfile",
	}
}
