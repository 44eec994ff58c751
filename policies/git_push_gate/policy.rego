# git_push_gate: an agent's `git push` needs a person's push ticket.
#
# Judged on input.tool.commands (each simple command's argv, wrappers and
# nested shells already unwrapped; dynamic[i] true when argv[i] is known only
# at run time) and input.push: head and branch (where HEAD is), now (Unix
# seconds) and ticket, the newest ticket issued (null when none: issuing a
# ticket retires the earlier ones), with its commit, remote and branch ("" =
# any), issued_at (Unix seconds) and used. The engine marks the ticket used
# when it lets the push through.
package tausik.gates.git_push_gate

tool := input.tool

push := input.push

not_applicable contains {"code": "not_a_tool_call", "msg": "no agent tool call is judged here"} if tool.status == "unavailable"

could_not_run contains {"code": "tool_unreadable", "msg": sprintf("cannot read the tool call (%s)", [tool.reason])} if {
	tool.status == "error"
}

not_applicable contains {"code": "no_push", "msg": "the call runs no git push"} if count(pushes) == 0

could_not_run contains {"code": "push_unreadable", "msg": sprintf("cannot read HEAD or the push tickets (%s), so the push cannot be checked", [object.get(push, "reason", "")])} if {
	count(pushes) > 0
	push.status != "ok"
}

commands := object.get(tool, "commands", [])

dyn(cmd, i) if object.get(cmd, "dynamic", [])[i] == true

# git_sub(cmd) is the index of git's subcommand: the first word after the
# program that is not a global option or the value of one.
git_sub(cmd) := min({i |
	some i, w in cmd.argv
	i > 0
	not startswith(w, "-")
	not global_value(cmd, i)
}) if regex.match(`^(.*/)?git$`, cmd.argv[0])

global_value(cmd, i) if cmd.argv[i - 1] in {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"}

# A push: git push; git with a subcommand known only when it runs; git with
# an alias defined on its command line; any program known only when it
# runs, given a "push" word. (A word known only at run time is "" in argv.)
is_push(cmd) if cmd.argv[git_sub(cmd)] == "push"

is_push(cmd) if dyn(cmd, git_sub(cmd))

is_push(cmd) if {
	git_sub(cmd)
	some i, w in cmd.argv
	cmd.argv[i - 1] == "-c"
	startswith(w, "alias.")
}

is_push(cmd) if {
	dyn(cmd, 0)
	some w in cmd.argv
	w == "push"
}

pushes := [cmd |
	some cmd in commands
	is_push(cmd)
]

ticket := push.ticket

refuse(rule, why) := {"msg": sprintf("git push needs a push ticket a person issued for HEAD (%s): %s; ask a person for one", [short(push.head), why]), "rule": rule}

short(sha) := substring(sha, 0, 12)

violations contains refuse(p.rule, p.why) if {
	count(pushes) > 0
	some p in problems
}

problems contains {"rule": "no_ticket", "why": "none was issued"} if ticket == null

problems contains {"rule": "other_commit", "why": sprintf("the ticket is for commit %s", [short(ticket.commit)])} if {
	ticket.commit != push.head
}

problems contains {"rule": "used", "why": "the ticket was used by an earlier push"} if ticket.used

problems contains {"rule": "expired", "why": sprintf("the ticket expired %d s ago", [age - input.params.ttl_seconds])} if {
	age := push.now - ticket.issued_at
	age >= input.params.ttl_seconds
}

problems contains {"rule": "many_pushes", "why": sprintf("a ticket allows one push and the call runs %d", [count(pushes)])} if {
	count(pushes) > 1
}

problems contains {"rule": "other_remote", "why": sprintf("the ticket allows a push to %s only, and this one names %s", [ticket.remote, remote(cmd)])} if {
	ticket.remote != ""
	some cmd in pushes
	remote(cmd) != ticket.remote
}

problems contains {"rule": "other_branch", "why": sprintf("the ticket allows a push of branch %s only, and this one pushes %s", [ticket.branch, b])} if {
	ticket.branch != ""
	some cmd in pushes
	some b in dests(cmd)
	b != ticket.branch
}

# The push's operands: the words after the subcommand that are not options
# or an option's value; the first is the remote, the rest refspecs.
operands(cmd) := [i |
	some i, w in cmd.argv
	i > git_sub(cmd)
	not startswith(w, "-")
	not cmd.argv[i - 1] in {"-o", "--push-option", "--repo", "--receive-pack", "--exec"}
]

# remote(cmd) is the remote the push names ("(none)" when it names none,
# "(known only when it runs)" when it is dynamic).
remote(cmd) := "(none)" if count(operands(cmd)) == 0

remote(cmd) := word(cmd, operands(cmd)[0])

word(cmd, i) := "(known only when it runs)" if dyn(cmd, i)

word(cmd, i) := cmd.argv[i] if not dyn(cmd, i)

# dests(cmd) are the branches the push updates: the current one without a
# refspec, every branch with --all, --mirror or --branches.
dests(cmd) := {"(every branch)"} if {
	some w in cmd.argv
	w in {"--all", "--mirror", "--branches"}
} else := {current} if {
	count(operands(cmd)) < 2
} else := {dst(word(cmd, i)) | some i in array.slice(operands(cmd), 1, count(operands(cmd)))}

current := push.branch if push.branch != ""

current := "(a detached HEAD)" if push.branch == ""

dst(spec) := b if {
	s := trim_prefix(spec, "+")
	parts := split(s, ":")
	side := parts[count(parts) - 1]
	b := branch(side)
}

branch("HEAD") := current

branch(side) := trim_prefix(side, "refs/heads/") if side != "HEAD"
