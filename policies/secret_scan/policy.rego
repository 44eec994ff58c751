# secret_scan: a credential is not written into the project.
#
# Scanned: each write's added strings (the Write content, each Edit's
# new_string, a patch's added lines), each shell command's here-docs, and
# the words of a shell command that redirects into a file. A finding names
# the detector, the file and the line, and shows at most the first four
# characters of the match and its length: the secret itself never appears
# in a message (and the engine masks it in the recorded tool call).
package tausik.gates.secret_scan

tool := input.tool

not_applicable contains {"code": "not_a_tool_call", "msg": "no agent tool call is being judged"} if {
	tool.status == "unavailable"
	tool.reason == "not_a_tool_call"
}

detectors := input.params.detectors

# finding(text) are the {name, match} of every detector in text.
finding(text) := {[name, m] |
	some name, re in detectors
	some m in regex.find_n(re, text, -1)
}

# line_in(text, m) is the line of text where m starts.
line_in(text, m) := count(indexof_n(substring(text, 0, indexof(text, m)), "\n")) + 1

# line_of(w, added, m): the line in the file after the call, or else in the
# added text.
line_of(w, _, m) := line_in(w.text, m) if indexof(object.get(w, "text", ""), m) >= 0

line_of(w, added, m) := line_in(added, m) if indexof(object.get(w, "text", ""), m) < 0

shown(m) := sprintf("%s…, %d characters", [substring(m, 0, 4), count(m)])

finding_msg(name, m, file, line) := sprintf("a secret (%s, %s) is written to %s line %d", [name, shown(m), file, line])

verdict(v) := object.union(v, {"severity": "block", "rule": "secret_refused"}) if input.params.block == true

verdict(v) := v if input.params.block != true

violations contains verdict(v) if {
	some w in object.get(tool, "writes", [])
	some added in object.get(w, "added", [])
	some [name, m] in finding(added)
	line := line_of(w, added, m)
	v := {"msg": finding_msg(name, m, w.path, line), "file": w.path, "line": line, "detector": name, "rule": "secret"}
}

# targets(cmd) are the files a shell command's output is redirected into.
targets(cmd) := {r.target |
	some r in object.get(cmd, "redirects", [])
	r.op in {">", ">>", ">|", "&>", "&>>"}
}

# where(cmd) names where a command's here-doc goes.
where(cmd) := targets(cmd) if count(targets(cmd)) > 0

where(cmd) := {"a here-doc"} if count(targets(cmd)) == 0

violations contains verdict(v) if {
	some cmd in object.get(tool, "commands", [])
	some doc in object.get(cmd, "heredocs", [])
	some [name, m] in finding(doc)
	line := line_in(doc, m)
	some file in where(cmd)
	v := {"msg": finding_msg(name, m, file, line), "file": file, "line": line, "detector": name, "rule": "secret"}
}

violations contains verdict(v) if {
	some cmd in object.get(tool, "commands", [])
	some file in targets(cmd)
	some word in cmd.argv
	some [name, m] in finding(word)
	v := {"msg": finding_msg(name, m, file, 1), "file": file, "line": 1, "detector": name, "rule": "secret"}
}
