# renar_adapt_supersession: deltas extend living readings, supersessions say
# why (docs/renar.md, "What each advisory tells you").
package tausik.gates.renar_adapt_supersession

could_not_run contains {"code": "renar_unavailable", "msg": msg} if {
	input.renar.status != "ok"
	msg := sprintf("could not read the RENAR artifacts: %s", [object.get(input.renar, "reason", "")])
}

# present is false only in an ok namespace; the adapts the rules below walk
# are empty unless the namespace is ok and present.
not_applicable contains {"code": "no_artifacts", "msg": "the project has no renar/ directory: no ADAPT to judge"} if {
	input.renar.present == false
}

adapts := {a.slug: a | some a in input.renar.adapts}

finding(kind, a, field, msg) := {
	"detector": "renar_adapt_supersession", "kind": kind, "ref": a.slug, "rule": kind,
	"file": a.file, "line": a.lines[field], "msg": sprintf("%s: %s", [kind, msg]),
}

violations contains v if {
	some a in input.renar.adapts
	p := adapts[a.parent_adapt]
	p.status == "superseded"
	v := finding("delta-of-superseded-parent", a, "parent_adapt", sprintf("ADAPT %s extends %s, which is superseded by %q: it extends a dead interpretation; rebase it on the successor (set parent_adapt and delta_n) or supersede it too", [a.slug, p.slug, p.superseded_by]))
}

violations contains v if {
	some a in input.renar.adapts
	a.status == "superseded"
	trim_space(a.supersession_rationale) == ""
	v := finding("supersession-without-rationale", a, "status", sprintf("ADAPT %s is superseded but gives no supersession_rationale; say why it no longer holds (`tausik adapt supersede %s --by NEW --rationale TEXT`)", [a.slug, a.slug]))
}
