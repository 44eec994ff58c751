# renar_drift_provenance: for each (task, SPEC) link, was the task proven
# against the SPEC as it stands (docs/renar.md, "What each advisory tells you")?
package tausik.gates.renar_drift_provenance

could_not_run contains {"code": "renar_unavailable", "msg": msg} if {
	input.renar.status != "ok"
	msg := sprintf("could not read the RENAR artifacts: %s", [object.get(input.renar, "reason", "")])
}

could_not_run contains {"code": "tasks_unavailable", "msg": msg} if {
	input.renar.tasks_error != ""
	msg := sprintf("could not read the linked tasks: %s", [input.renar.tasks_error])
}

# present is false only in an ok namespace; the links and tasks the rules
# below walk are empty unless it is ok, present and the store was read.
not_applicable contains {"code": "no_artifacts", "msg": "the project has no renar/ directory: no SPEC to prove tasks against"} if {
	input.renar.present == false
}

specs := {s.slug: s | some s in input.renar.specs}

tasks := {t.slug: t | some t in input.renar.tasks; t.found}

# pairs are the (task, SPEC) links, whichever place records them, with the
# SPEC on disk and the task in the store.
pairs contains [t, s] if {
	some l in input.renar.links
	l.target_type == "spec"
	t := tasks[l.task]
	s := specs[l.target_slug]
}

# verified_ns: the latest green verify, else the done time.
verified_ns(t) := t.verified_ns if t.verified_ns != null

verified_ns(t) := t.done_ns if {
	t.verified_ns == null
	t.done_ns != null
}

finding(kind, t, s, msg) := {
	"detector": "renar_drift_provenance", "kind": kind, "ref": sprintf("%s -> %s", [t.slug, s.slug]), "rule": kind,
	"file": s.file, "line": line_of(s), "msg": sprintf("%s: %s", [kind, msg]),
}

line_of(s) := s.lines.updated_at

line_of(s) := s.line if not s.lines.updated_at

violations contains v if {
	some [t, s] in pairs
	t.status == "done"
	s.status == "active"
	s.updated_ns != null
	s.updated_ns > verified_ns(t)
	v := finding("stale-verification", t, s, sprintf("task %s was verified at %s, but SPEC %s changed after (updated_at %s): the requirement changed after it was proven; review the task against the SPEC and verify again (`tausik verify --task %s`), or open a follow-up task", [t.slug, proven_at(t), s.slug, s.updated_at, t.slug]))
}

proven_at(t) := t.verified_at if t.verified_at != ""

proven_at(t) := sprintf("%s (closed; no green verify)", [t.done_at]) if t.verified_at == ""

violations contains v if {
	some [t, s] in pairs
	t.status == "done"
	t.verified_ns == null
	t.done_ns == null
	v := finding("undateable-verification", t, s, sprintf("task %s is done but has neither a green verify nor a done time, so nobody can tell whether SPEC %s changed after it was proven; verify it (`tausik verify --task %s`) or record the proof in the SPEC", [t.slug, s.slug, t.slug]))
}

violations contains v if {
	some [t, s] in pairs
	t.status != "done"
	s.status == "deprecated"
	v := finding("deprecated-requirement", t, s, sprintf("task %s (%s) is linked to SPEC %s, which is deprecated: link the SPEC that replaces it (`tausik task link %s --spec NEW`) or drop the work", [t.slug, t.status, s.slug, t.slug]))
}
