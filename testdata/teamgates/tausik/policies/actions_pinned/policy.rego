# actions_pinned: the uses: of every step (and of every job calling a
# reusable workflow) names a 40-hex commit. The documents give the values;
# the content of the same files gives the line each one is written on.
package tausik.gates.actions_pinned

could_not_run contains {"code": "documents_unavailable", "msg": input.documents.reason} if input.documents.status != "ok"

could_not_run contains {"code": "content_unavailable", "msg": input.content.reason} if input.content.status != "ok"

# Every uses: of a workflow (jobs.<id>.uses, jobs.<id>.steps[].uses) or a
# composite action (runs.steps[].uses), with its file.
uses contains [f.path, u] if {
	some f in input.documents.files
	f.parsed
	some doc in f.docs
	some job in object.get(doc, "jobs", {})
	u := job.uses
}

uses contains [f.path, u] if {
	some f in input.documents.files
	f.parsed
	some doc in f.docs
	some job in object.get(doc, "jobs", {})
	some step in object.get(job, "steps", [])
	u := step.uses
}

uses contains [f.path, u] if {
	some f in input.documents.files
	f.parsed
	some doc in f.docs
	some step in object.get(object.get(doc, "runs", {}), "steps", [])
	u := step.uses
}

judged(u) if {
	is_string(u)
	not startswith(u, "./")
	not startswith(u, "docker://")
}

pinned(u) if regex.match(`@[0-9a-f]{40}$`, u)

# The lines of the file that write this uses: value.
lines_of(path, u) := {l.line |
	some f in input.content.files
	f.path == path
	some l in f.lines
	regex.match(`^\s*(-\s+)?uses:`, l.text)
	contains(l.text, u)
}

violations contains v if {
	some [path, u] in uses
	judged(u)
	not pinned(u)
	v := object.union(
		{"msg": sprintf("%s: uses: %s is not pinned to a commit; pin it to the 40-hex sha its tag names (uses: %s@<sha> # <tag>)", [path, u, split(u, "@")[0]]), "file": path, "rule": "unpinned"},
		line_field(path, u),
	)
}

line_field(path, u) := {"line": min(lines_of(path, u))} if count(lines_of(path, u)) > 0

else := {}

violations contains {"msg": sprintf("%s:%d: does not parse (%s); fix the workflow", [f.path, f.error.line, f.error.msg]), "file": f.path, "line": f.error.line, "rule": "parse"} if {
	some f in input.documents.files
	not f.parsed
}
