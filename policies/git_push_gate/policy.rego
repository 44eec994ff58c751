# git_push_gate: an agent's `git push` needs a person's push ticket.
#
# Judged on input.tool.commands (each simple command's argv, wrappers,
# nested shells and git aliases already unwrapped; dynamic[i] true when
# argv[i] is known only at run time), input.tool.targets and unknown_writes,
# and input.push: head and branch (where HEAD is), now (Unix seconds) and
# ticket, the newest ticket issued (null when none: issuing a ticket retires
# the earlier ones), with its commit, remote and branch ("" = any; "+NAME"
# also allows a forced update), push_url (where a push to the remote went
# when it was issued; "" = not recorded), issued_at (Unix seconds) and used;
# push_url, where a push to the ticket's remote goes now; other_dirs, the
# directories the call's commands start in outside the project's repository
# ("" = known only at run time); and config, what git's configuration makes
# a push send when the command line does not say. The engine marks the
# ticket used when it lets the push through.
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

# prog(cmd) is the program's name without its directory.
prog(cmd) := regex.replace(cmd.argv[0], `^.*/`, "")

# sub_at(cmd) is the index of git's subcommand: the first word after the
# program that is not a global option or the value of one; a git-NAME
# program (git-push, git-send-pack) is its own subcommand.
sub_at(cmd) := min({i |
	some i, w in cmd.argv
	i > 0
	not startswith(w, "-")
	not global_value(cmd, i)
}) if prog(cmd) == "git"

sub_at(cmd) := 0 if startswith(prog(cmd), "git-")

sub(cmd) := cmd.argv[sub_at(cmd)] if prog(cmd) == "git"

sub(cmd) := substring(prog(cmd), 4, -1) if startswith(prog(cmd), "git-")

global_value(cmd, i) if cmd.argv[i - 1] in {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--attr-source", "--super-prefix"}

# globals(cmd) are git's own options and their values, before the
# subcommand.
globals(cmd) := array.slice(cmd.argv, 1, sub_at(cmd))

# A push: git push (or git-push); git send-pack; git subtree push; git with
# a subcommand known only when it runs, or a setting that may define an
# alias known only when it runs; a program known only when it runs, or one
# that runs its arguments as commands (parallel), given a "push" word.
# (A word known only at run time is "" in argv.) An alias the repository or
# the command line defines is unwrapped into the git command it stands for.
is_push(cmd) if sub(cmd) in {"push", "send-pack"}

is_push(cmd) if {
	sub(cmd) == "subtree"
	"push" in array.slice(cmd.argv, sub_at(cmd) + 1, count(cmd.argv))
}

is_push(cmd) if dyn(cmd, sub_at(cmd))

is_push(cmd) if {
	some i, w in globals(cmd)
	globals(cmd)[i - 1] in {"-c", "--config-env"}
	dyn(cmd, i + 1)
}

is_push(cmd) if {
	some [_, s] in settings(cmd)
	startswith(lower(s), "alias.")
}

# settings(cmd) are the settings git's -c and --config-env give, each with
# its option. The analysis unwraps an alias -c defines, but any alias a
# command line defines counts as a push: its words may hide one.
settings(cmd) := {[o, s] |
	some i, s in globals(cmd)
	o := globals(cmd)[i - 1]
	o in {"-c", "--config-env"}
} | {["--config-env", trim_prefix(w, "--config-env=")] |
	some w in globals(cmd)
	startswith(w, "--config-env=")
}

is_push(cmd) if {
	dyn(cmd, 0)
	some w in cmd.argv
	contains(w, "push")
}

is_push(cmd) if {
	prog(cmd) in {"parallel", "sem", "rush"}
	some w in array.slice(cmd.argv, 1, count(cmd.argv))
	contains(w, "push")
}

pushes := [cmd |
	some cmd in commands
	is_push(cmd)
]

# A plain push is git push with every word known: the only push a ticket
# can be held to.
plain(cmd) if {
	sub(cmd) == "push"
	not some_dynamic(cmd)
}

some_dynamic(cmd) if some true in object.get(cmd, "dynamic", [])

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

problems contains {"rule": "unbound", "why": sprintf("a ticket allows a plain git push with every word known, and this call runs %s", [concat(" ", cmd.argv)])} if {
	some cmd in pushes
	not plain(cmd)
}

# HEAD must be where the ticket says when the push runs: nothing else in
# the call may move it or a ref (a commit, a script, a write into .git).
problems contains {"rule": "head_moves", "why": sprintf("the call also runs %s, which may move HEAD or a branch before the push", [concat(" ", cmd.argv)])} if {
	some cmd in commands
	not is_push(cmd)
	not keeps_head(cmd)
}

problems contains {"rule": "head_moves", "why": sprintf("the call writes %s, which may move HEAD or a branch before the push", [t])} if {
	some t in object.get(tool, "targets", [])
	regex.match(`^\.git(/|$)`, t)
}

problems contains {"rule": "head_moves", "why": sprintf("the call also does what tausik cannot see before it runs (%s: %s)", [u.text, u.reason])} if {
	some u in object.get(tool, "unknown_writes", [])
}

keeps_head(cmd) if {
	prog(cmd) in {"cd", "pushd", "popd", "pwd", "echo", "printf", "true", "false", ":", "test", "[", "sleep", "date", "ls", "cat", "head", "tail", "grep", "wc", "sort", "uniq"}
}

keeps_head(cmd) if {
	not some_dynamic(cmd)
	prog(cmd) in {"sh", "bash", "dash", "zsh", "ksh"}
}

keeps_head(cmd) if {
	not some_dynamic(cmd)
	sub(cmd) in {"status", "log", "show", "diff", "rev-parse", "fetch", "ls-remote", "describe", "show-ref", "rev-list", "shortlog", "version"}
}

# The options of a plain push, with git's unique prefixes: --mirr is
# --mirror. A short cluster's letters stop at o, whose value follows.
flag(cmd, long) if {
	some w in push_args(cmd)
	name := split(trim_prefix(w, "--"), "=")[0]
	startswith(w, "--")
	name != ""
	startswith(long, name)
}

short_flag(cmd, letter) if {
	some w in push_args(cmd)
	regex.match(sprintf("^-[^-o=]*%s", [letter]), w)
}

push_args(cmd) := array.slice(cmd.argv, sub_at(cmd) + 1, count(cmd.argv))

problems contains {"rule": "push_config", "why": sprintf("git %s %s changes where or what the push sends", [o, v])} if {
	some cmd in pushes
	some [o, v] in settings(cmd)
	regex.match(`^(remote|url|push|branch|include|includeif|http|submodule)\.|^core\.(sshcommand|gitproxy)`, lower(v))
}

problems contains {"rule": "other_repository", "why": sprintf("git %s %s pushes from another repository than the one the ticket names", [globals(cmd)[i - 1], w])} if {
	some cmd in pushes
	some i, w in globals(cmd)
	globals(cmd)[i - 1] in {"-C", "--git-dir", "--work-tree", "--namespace"}
	w != "."
}

problems contains {"rule": "other_repository", "why": sprintf("git %s pushes from another repository than the one the ticket names", [w])} if {
	some cmd in pushes
	some w in globals(cmd)
	regex.match(`^--(git-dir|work-tree|namespace)=`, w)
}

# Every command of the call runs in the project's repository: a cd into
# another clone before the push, or one that may not happen, is refused.
problems contains {"rule": "other_repository", "why": sprintf("the call runs a command %s, and the ticket is for the project's repository", [where(d)])} if {
	some d in object.get(push, "other_dirs", [])
}

where(d) := "in a directory known only when it runs" if d.dir == ""

where(d) := sprintf("in %s (%s)", [d.dir, d.why]) if d.dir != ""

problems contains {"rule": "other_repository", "why": sprintf("push.recurseSubmodules (or submodule.recurse) is %s: the push also pushes the submodules' repositories", [v])} if {
	v := object.get(cfg, "recurse_submodules", "")
	v in {"on-demand", "only"}
}

problems contains {"rule": "other_repository", "why": sprintf("%s may also push the submodules' repositories", [w])} if {
	some cmd in pushes
	some w in push_args(cmd)
	startswith(w, "--recu")
	not w in {"--recurse-submodules=check", "--recurse-submodules=no"}
}

problems contains {"rule": "other_refs", "why": sprintf("a ticket allows one branch and this push sends every ref --%s names", [o])} if {
	some cmd in pushes
	some o in ["all", "branches", "mirror", "tags", "follow-tags", "prune"]
	flag(cmd, o)
}

problems contains {"rule": "delete", "why": "a ticket allows an update, and this push deletes a branch"} if {
	some cmd in pushes
	deletes(cmd)
}

deletes(cmd) if flag(cmd, "delete")

deletes(cmd) if short_flag(cmd, "d")

deletes(cmd) if {
	some s in specs(cmd)
	startswith(trim_prefix(s, "+"), ":")
}

problems contains {"rule": "force", "why": sprintf("the push forces (%s) and the ticket does not allow a forced update (tausik push-ok REMOTE +BRANCH)", [concat(" ", cmd.argv)])} if {
	some cmd in pushes
	forces(cmd)
	not startswith(ticket.branch, "+")
}

forces(cmd) if {
	some o in ["force", "force-with-lease", "force-if-includes", "mirror"]
	flag(cmd, o)
}

forces(cmd) if short_flag(cmd, "f")

forces(cmd) if {
	some s in specs(cmd)
	startswith(s, "+")
}

problems contains {"rule": "other_source", "why": sprintf("the ticket allows HEAD (%s) only, and this push sends %s", [short(push.head), s])} if {
	some cmd in pushes
	plain(cmd)
	some spec in specs(cmd)
	s := split(trim_prefix(spec, "+"), ":")[0]
	s != ""
	not s in {"HEAD", "@", push.head, current, concat("", ["refs/heads/", current])}
}

problems contains {"rule": "other_url", "why": sprintf("the ticket allows a push to %s at %s, and a push to %s now goes to %s", [ticket.remote, ticket.push_url, ticket.remote, push.push_url])} if {
	ticket.push_url != ""
	push.push_url != ticket.push_url
}

problems contains {"rule": "other_remote", "why": sprintf("the ticket allows a push to %s only, and this one names %s", [ticket.remote, remote(cmd)])} if {
	ticket.remote != ""
	some cmd in pushes
	plain(cmd)
	remote(cmd) != ticket.remote
}

problems contains {"rule": "other_branch", "why": sprintf("the ticket allows a push of branch %s only, and this one pushes %s", [bound, b])} if {
	bound := trim_prefix(ticket.branch, "+")
	bound != ""
	some cmd in pushes
	plain(cmd)
	some b in dests(cmd)
	b != bound
}

# The push's operands: the words after the subcommand that are not options
# or an option's value; the first is the remote, the rest refspecs.
operands(cmd) := [i |
	some i, w in cmd.argv
	i > sub_at(cmd)
	not startswith(w, "-")
	not cmd.argv[i - 1] in {"-o", "--push-option", "--repo", "--receive-pack", "--exec"}
]

refspecs(cmd) := array.slice(operands(cmd), 1, count(operands(cmd)))

# remote(cmd) is the remote the push names, or the one git picks when it
# names none ("(none)" when that is not known).
remote(cmd) := object.get(cfg, "remote", "(none)") if count(operands(cmd)) == 0

remote(cmd) := cmd.argv[operands(cmd)[0]]

cfg := object.get(push, "config", {})

# specs(cmd) are the refspecs the push sends: those it names, else the
# remote's remote.NAME.push, else HEAD to where push.default sends it.
specs(cmd) := [cmd.argv[i] | some i in refspecs(cmd)] if {
	count(refspecs(cmd)) > 0
} else := configured(remote(cmd)) if {
	count(configured(remote(cmd))) > 0
} else := [concat(":", ["HEAD", default_dest(remote(cmd))])]

configured(r) := object.get(object.get(cfg, "refspecs", {}), r, [])

# default_dest(r) is the branch push.default updates on remote r: the
# upstream (simple, upstream) when r is the branch's own remote, else the
# current branch's name.
default_dest(r) := cfg.upstream if {
	cfg.default in {"simple", "upstream", "tracking"}
	r == cfg.fetch_remote
	cfg.upstream != ""
} else := current

# dests(cmd) are the branches the push updates.
dests(cmd) := {dst(s) | some s in specs(cmd)}

problems contains {"rule": "push_config", "why": sprintf("push.default is %s, which may send other branches than HEAD's; name the branch (git push %s HEAD:BRANCH)", [d, remote(cmd)])} if {
	some cmd in pushes
	count(refspecs(cmd)) == 0
	count(configured(remote(cmd))) == 0
	d := object.get(cfg, "default", "simple")
	not d in {"simple", "current", "upstream", "tracking"}
}

problems contains {"rule": "push_config", "why": sprintf("remote.%s.push maps where %s goes; name the destination (%s:BRANCH)", [remote(cmd), cmd.argv[i], cmd.argv[i]])} if {
	some cmd in pushes
	count(configured(remote(cmd))) > 0
	some i in refspecs(cmd)
	not contains(cmd.argv[i], ":")
}

problems contains {"rule": "other_refs", "why": sprintf("a ticket allows one branch and this push sends every ref %s matches", [s])} if {
	some cmd in pushes
	some s in specs(cmd)
	regex.match(`\*|^\+?:$`, s)
}

problems contains {"rule": "other_refs", "why": sprintf("remote.%s.mirror is true: a push there sends every ref, forced, and deletes", [remote(cmd)])} if {
	some cmd in pushes
	remote(cmd) in object.get(cfg, "mirror", [])
}

problems contains {"rule": "other_refs", "why": "push.followTags is true: the push also sends tags"} if {
	object.get(cfg, "follow_tags", false) == true
}

problems contains {"rule": "other_remote", "why": "--repo names the remote apart from the operands; name it as the first operand"} if {
	some cmd in pushes
	count(operands(cmd)) == 0
	flag(cmd, "repo")
}

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
