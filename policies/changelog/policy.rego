# changelog: each configured changelog file gained a non-blank line since the
# task started. The git runner measures "since" from the task's start (or the
# request's --changed-since); an explicit bypass ("changelog" in
# request.bypass, from --no-changelog) passes and stays on record in the
# decision's request.
package tausik.gates.changelog

git := input.git

bypassed if "changelog" in input.request.bypass

since := git.since if {
	git.status == "ok"
	git.since != null
}

could_not_run contains {"code": "not_a_git_repo", "msg": msg} if {
	not bypassed
	git.status == "unavailable"
	msg := sprintf("the changelog gate needs git to see what changed since the task started (%s)", [git.reason])
}

could_not_run contains {"code": "git_error", "msg": sprintf("git could not report what changed: %s", [git.reason])} if {
	not bypassed
	git.status == "error"
}

# Without a task or a --changed-since there is no start to measure from.
not_applicable contains {"code": "no_task", "msg": "no task and no --changed-since: nothing marks where the work started"} if {
	not bypassed
	git.status == "ok"
	git.since == null
	input.request.task == ""
	object.get(input.request, "changed_since", "") == ""
}

could_not_run contains {"code": "no_start_point", "msg": msg} if {
	not bypassed
	git.status == "ok"
	git.since == null
	not_no_task
	msg := sprintf("task %q has no start point the git facts were measured from; the changelog cannot be judged", [input.request.task])
}

not_no_task if input.request.task != ""

not_no_task if object.get(input.request, "changed_since", "") != ""

# A bypass with no git facts to read still passes: it is the requester's
# recorded decision, not the gate's.
not_applicable contains {"code": "bypassed", "msg": "changelog waived by --no-changelog (recorded)"} if {
	bypassed
	git.status != "ok"
}

problem(p) := "is empty" if {
	trim_space(p) == ""
} else := "must be relative to the repository root" if {
	startswith(p, "/")
} else := "must not leave the repository" if {
	".." in split(p, "/")
}

violations contains {"msg": "changelog params.files: name at least one changelog file", "rule": "bad_config"} if {
	count(input.params.files) == 0
}

violations contains v if {
	some i, p in input.params.files
	why := problem(p)
	v := {"msg": sprintf("changelog params.files[%d]: %q %s; fix it in the config", [i, p, why]), "rule": "bad_config"}
}

wanted contains trim_prefix(p, "./") if {
	some p in input.params.files
	not problem(p)
}

gained(p) if {
	some f in since.files
	f.path == p
	not f.deleted
	f.added_non_blank > 0
}

violations contains v if {
	not bypassed
	some p in wanted
	not gained(p)
	v := {
		"msg": sprintf("%s gained no line with text since the task started (%s); add an entry describing the change, or close with --no-changelog (recorded)", [p, since.spec]),
		"file": p,
		"rule": "no_entry",
	}
}
