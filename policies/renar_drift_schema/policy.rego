# renar_drift_schema: every SPEC and ADAPT field within its closed list, the
# delta chain and the signatures intact (docs/renar.md, "What each advisory tells you").
package tausik.gates.renar_drift_schema

could_not_run contains {"code": "renar_unavailable", "msg": msg} if {
	input.renar.status != "ok"
	msg := sprintf("could not read the RENAR artifacts: %s", [object.get(input.renar, "reason", "")])
}

# present is false only in an ok namespace; the lists the rules below walk
# are empty unless the namespace is ok and present.
not_applicable contains {"code": "no_artifacts", "msg": "the project has no renar/ directory: no SPEC or ADAPT to judge"} if {
	input.renar.present == false
}

spec_types := {"ARCH", "API", "DATA", "INT", "PROC", "UI", "AI", "SEC", "OPS", "TEST", "DOC"}

spec_statuses := {"draft", "active", "deprecated"}

adapt_statuses := {"draft", "review", "asked", "answered", "approved", "frozen", "superseded"}

roles := {"architect"}

withdrawn_roles := {"client"}

categories := {"contradiction", "gap", "hidden-assumption", "feasibility", "regulatory", "terminology", "scope"}

listed(set) := concat(", ", sort([x | some x in set]))

# line_of is the line of field f of artifact a, else the file's first line.
line_of(a, f) := a.lines[f]

line_of(a, f) := a.line if not a.lines[f]

finding(kind, ref, file, line, msg) := {
	"detector": "renar_drift_schema", "kind": kind, "ref": ref, "rule": kind,
	"file": file, "line": line, "msg": sprintf("%s: %s", [kind, msg]),
}

violations contains v if {
	some f in input.renar.files
	not f.parsed
	v := finding("artifact-unparsable", f.file, f.file, f.line, sprintf("%s:%d: %s; fix the YAML front matter between the two '---' lines", [f.file, f.line, f.error]))
}

violations contains v if {
	some s in input.renar.specs
	not s.type in spec_types
	v := finding("spec-type-invalid", s.slug, s.file, line_of(s, "type"), sprintf("SPEC %s has type %q; set type to one of %s", [s.slug, s.type, listed(spec_types)]))
}

violations contains v if {
	some s in input.renar.specs
	not s.status in spec_statuses
	v := finding("spec-status-invalid", s.slug, s.file, line_of(s, "status"), sprintf("SPEC %s has status %q; set status to one of %s (`tausik spec status %s STATUS`)", [s.slug, s.status, listed(spec_statuses), s.slug]))
}

violations contains v if {
	some s in input.renar.specs
	trim_space(s.version) == ""
	v := finding("spec-version-missing", s.slug, s.file, line_of(s, "version"), sprintf("SPEC %s has no version; add `version: 1` to its front matter", [s.slug]))
}

violations contains v if {
	some s in input.renar.specs
	trim_space(s.title) == ""
	v := finding("spec-title-missing", s.slug, s.file, line_of(s, "title"), sprintf("SPEC %s has no title; add `title:` to its front matter or a '# ' heading to its body", [s.slug]))
}

violations contains v if {
	some a in input.renar.adapts
	not a.status in adapt_statuses
	v := finding("adapt-status-invalid", a.slug, a.file, line_of(a, "status"), sprintf("ADAPT %s has status %q; set status to one of %s (`tausik adapt status %s STATUS`)", [a.slug, a.status_raw, listed(adapt_statuses), a.slug]))
}

violations contains v if {
	some a in input.renar.adapts
	a.delta_int == null
	v := finding("adapt-delta-invalid", a.slug, a.file, line_of(a, "delta_n"), sprintf("ADAPT %s has delta_n %q, not an integer; set delta_n to 0 for a base ADAPT or its parent's delta_n + 1", [a.slug, a.delta_n]))
}

violations contains v if {
	some a in input.renar.adapts
	a.delta_int != null
	a.delta_int < 0
	v := finding("adapt-delta-negative", a.slug, a.file, line_of(a, "delta_n"), sprintf("ADAPT %s has delta_n %v; a delta count is 0 (base) or more", [a.slug, a.delta_int]))
}

violations contains v if {
	some a in input.renar.adapts
	a.delta_int != null
	a.delta_int > 0
	a.parent_adapt == ""
	v := finding("adapt-delta-orphan", a.slug, a.file, line_of(a, "delta_n"), sprintf("ADAPT %s is delta %v but names no parent_adapt; name the ADAPT it extends, or set delta_n to 0", [a.slug, a.delta_int]))
}

violations contains v if {
	some a in input.renar.adapts
	a.delta_int == 0
	a.parent_adapt != ""
	v := finding("adapt-base-has-parent", a.slug, a.file, line_of(a, "parent_adapt"), sprintf("ADAPT %s is a base (delta_n 0) but names parent_adapt %q; set parent_adapt to null, or delta_n to the parent's + 1", [a.slug, a.parent_adapt]))
}

# on_disk are the ADAPT slugs with a file, whether it parsed or not (a SPEC
# file keeps its "renar/specs/" prefix here, which no slug matches).
on_disk contains trim_suffix(trim_prefix(f.file, "renar/adapts/"), ".md") if some f in input.renar.files

violations contains v if {
	some a in input.renar.adapts
	a.parent_adapt != ""
	not a.parent_adapt in on_disk
	v := finding("adapt-parent-missing", a.slug, a.file, line_of(a, "parent_adapt"), sprintf("ADAPT %s names parent_adapt %q, which is not in renar/adapts/; restore it or name the parent that exists", [a.slug, a.parent_adapt]))
}

violations contains v if {
	some a in input.renar.adapts
	a.status in {"approved", "frozen"}
	count([s | some s in a.signatures; s.role == "architect"]) == 0
	v := finding("adapt-approved-incomplete-signature", a.slug, a.file, line_of(a, "status"), sprintf("ADAPT %s is %s without an architect signature; sign it (`tausik adapt sign %s --role architect`) or move it back to review", [a.slug, a.status, a.slug]))
}

violations contains v if {
	some a in input.renar.adapts
	some s in a.signatures
	not s.role in roles
	not s.role in withdrawn_roles
	v := finding("signature-role-invalid", a.slug, a.file, s.line, sprintf("ADAPT %s has a signature by %q with role %q; the roles are %s", [a.slug, s.signed_by, s.role, listed(roles)]))
}

violations contains v if {
	some a in input.renar.adapts
	some s in a.signatures
	s.role in withdrawn_roles
	v := finding("signature-role-withdrawn", a.slug, a.file, s.line, sprintf("ADAPT %s has a %q signature by %q; that role is withdrawn: remove it and sign as architect (`tausik adapt sign %s --role architect`)", [a.slug, s.role, s.signed_by, a.slug]))
}

violations contains v if {
	some a in input.renar.adapts
	some s in a.signatures
	not s.valid
	v := finding("signature-invalid", a.slug, a.file, s.line, sprintf("ADAPT %s: the %s signature by %q does not check: %s; review the ADAPT and sign it again (`tausik adapt sign %s --role %s`)", [a.slug, s.role, s.signed_by, s.reason, a.slug, s.role]))
}

violations contains v if {
	some a in input.renar.adapts
	some f in a.findings
	not f.category in categories
	v := finding("finding-category-invalid", a.slug, a.file, f.line, sprintf("ADAPT %s has a finding of category %q; the categories are %s", [a.slug, f.category, listed(categories)]))
}
