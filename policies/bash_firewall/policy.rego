# bash_firewall: a shell call does not destroy what cannot be restored, and
# asks a person before it discards work or rewrites a protected branch.
#
# Judged on input.tool.commands: each simple command's argv, wrappers (sudo,
# env, nohup, time…) stripped and nested shells (bash -c) parsed, with
# dynamic[i] true when argv[i] is known only at run time, its redirects and
# here-docs. Never on the command's text, so `echo "rm -rf /"` passes; the
# one exception is the fork bomb, whose function definition the argv does
# not show: it is matched on the text only when the commands show the
# function called bare three times.
package tausik.gates.bash_firewall

tool := input.tool

not_applicable contains {"code": "not_a_tool_call", "msg": "no agent tool call is being judged"} if {
	tool.status == "unavailable"
	tool.reason == "not_a_tool_call"
}

not_applicable contains {"code": "not_a_shell_call", "msg": sprintf("the %s call runs no shell command", [tool.kind])} if {
	tool.kind != "shell"
}

commands := object.get(tool, "commands", [])

dyn(cmd, i) if object.get(cmd, "dynamic", [])[i] == true

# lit(cmd, i) is argv[i] when it is literal text.
lit(cmd, i) := cmd.argv[i] if not dyn(cmd, i)

# prog(cmd) is the program's base name.
prog(cmd) := regex.replace(lit(cmd, 0), `^.*/`, "")

# The options end at "--"; every word after it is an operand. A word
# known only at run time is "" in argv: never an option, never "--".
ddash(cmd) := min({i | some i, w in cmd.argv; w == "--"})

opt_end(cmd) := ddash(cmd)

opt_end(cmd) := count(cmd.argv) if not ddash(cmd)

# opts(cmd) are the words before "--"; the patterns below pick the options.
opts(cmd) := {w |
	some i, w in cmd.argv
	i < opt_end(cmd)
}

# short(cmd, pat): a cluster of short options matches pat (its RE2 names
# the letters before the wanted one that keep the cluster an option).
short(cmd, pat) if {
	some w in opts(cmd)
	regex.match(pat, w)
}

# long(cmd, name): --name, or an unambiguous prefix of it (getopt_long).
long(cmd, name) if {
	some w in opts(cmd)
	count(w) > 2
	startswith(name, w)
}

# operand(cmd, i): argv[i] (i bound) is an operand, not an option ("--"
# included).
operand(cmd, i) if not startswith(cmd.argv[i], "-")

refuse(msg) := {"msg": msg, "rule": "refused"}

ask(msg) := {"msg": sprintf("needs a person's confirmation: %s", [msg]), "rule": "ask", "severity": "ask"}

# --- recursive delete by force ------------------------------------------

rm_rf(cmd) if {
	prog(cmd) == "rm"
	rm_recursive(cmd)
	rm_force(cmd)
}

rm_recursive(cmd) if short(cmd, `^-[a-zA-Z]*[rR]`)

rm_recursive(cmd) if long(cmd, "--recursive")

rm_force(cmd) if short(cmd, `^-[a-zA-Z]*f`)

rm_force(cmd) if long(cmd, "--force")

# norm(p) collapses repeated slashes, leading "./" and a trailing "/".
norm(p) := q if {
	s := regex.replace(regex.replace(p, `/{2,}`, "/"), `^(\./)+(.)`, "$2")
	q := regex.replace(s, `(.)/$`, "$1")
}

doomed := {
	"/": "/",
	"/*": "everything under /",
	"~": "the home directory",
	"~/*": "everything in the home directory",
	".": "the project root (or the directory it runs in)",
	"*": "everything in the project root (or the directory it runs in)",
	".git": "the repository's history (.git)",
	".git/*": "the repository's history (.git)",
}

violations contains refuse(sprintf("rm deletes %s recursively and by force", [doomed[norm(w)]])) if {
	some cmd in commands
	rm_rf(cmd)
	some w in cmd.argv
}

violations contains refuse("rm deletes recursively and by force a path known only when it runs (a variable such as $HOME, a command substitution)") if {
	some cmd in commands
	rm_rf(cmd)
	some i, _ in cmd.argv
	dyn(cmd, i)
}

violations contains refuse(sprintf("rm deletes recursively and by force while the call writes %s", [doomed[norm(t)]])) if {
	some cmd in commands
	rm_rf(cmd)
	some t in object.get(tool, "targets", [])
	norm(t) in {".", ".git"}
}

# --- disks ------------------------------------------------------------------

device(p) if regex.match(`^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme[0-9]|mmcblk[0-9]|r?disk[0-9]|md[0-9]|dm-[0-9]|loop[0-9]|mapper/|sr[0-9])`, p)

violations contains refuse(sprintf("%s formats a file system", [prog(cmd)])) if {
	some cmd in commands
	regex.match(`^(mkfs|mke2fs|mkfs\..+)$`, prog(cmd))
}

violations contains refuse(sprintf("dd writes the block device %s", [dev])) if {
	some cmd in commands
	prog(cmd) == "dd"
	some w in cmd.argv
	startswith(w, "of=")
	dev := substring(w, 3, -1)
	device(dev)
}

violations contains refuse(sprintf("%s writes the block device %s", [prog(cmd), w])) if {
	some cmd in commands
	prog(cmd) == "tee"
	some w in cmd.argv
	device(w)
}

violations contains refuse(sprintf("a redirect writes the block device %s", [r.target])) if {
	some cmd in commands
	some r in object.get(cmd, "redirects", [])
	r.op in {">", ">>", ">|", "&>", "&>>", "<>"}
	device(r.target)
}

violations contains refuse(sprintf("%s destroys the block device %s", [prog(cmd), w])) if {
	some cmd in commands
	prog(cmd) in {"shred", "wipefs", "blkdiscard"}
	some w in cmd.argv
	device(w)
}

# --- find deleting everything under a start point ------------------------------

# find with -delete, or -exec rm -r…, from / ~ . or .git with no test that
# picks files (-name, -path, -newer, -mtime…) deletes everything below it.
find_selects(cmd) if {
	some w in cmd.argv
	regex.match(`^-(i?name|i?path|i?wholename|i?regex|i?lname|newer.*|[acm](time|min)|size|user|group|uid|gid|perm|empty|links|inum|samefile|maxdepth|prune)$`, w)
}

find_deletes(cmd) if "-delete" in cmd.argv

find_deletes(cmd) if {
	some i, w in cmd.argv
	w in {"-exec", "-execdir", "-ok", "-okdir"}
	regex.replace(cmd.argv[i + 1], `^.*/`, "") == "rm"
}

violations contains refuse(sprintf("find deletes everything under %s", [doomed[norm(w)]])) if {
	some cmd in commands
	prog(cmd) == "find"
	find_deletes(cmd)
	not find_selects(cmd)
	some w in cmd.argv
}

# --- fork bomb ----------------------------------------------------------------

bare(cmd) := cmd.argv[0] if count(cmd.argv) == 1

squeezed := regex.replace(object.get(tool, "command", ""), `\s+`, "")

violations contains refuse(sprintf("a fork bomb: the function %s pipes itself into itself in the background", [n])) if {
	some n in {bare(c) | some c in commands}
	count([c | some c in commands; bare(c) == n]) >= 3
	some shape in [
		concat("", [n, "(){", n, "|", n, "&"]),
		concat("", ["function", n, "{", n, "|", n, "&"]),
		concat("", ["function", n, "(){", n, "|", n, "&"]),
	]
	contains(squeezed, shape)
}

# --- SQL that drops data ------------------------------------------------------

destructive_sql := `(?i)\b(drop\s+(table|database)|truncate\s+table)\b`

db_client(cmd) if prog(cmd) in {"psql", "mysql", "mariadb", "sqlite3"}

violations contains refuse(sprintf("%s is given SQL that drops data (DROP TABLE, DROP DATABASE or TRUNCATE TABLE)", [prog(cmd)])) if {
	some cmd in commands
	db_client(cmd)
	some text in array.concat(cmd.argv, object.get(cmd, "heredocs", []))
	regex.match(destructive_sql, text)
}

# SQL fed to a client on its standard input (echo 'DROP TABLE x' | psql):
# the commands of one call are not split into pipelines, so a client that
# reads its input, beside a command whose words drop data, is refused.
violations contains refuse(sprintf("%s reads SQL from its input, and the call's %s passes SQL that drops data", [prog(cmd), prog(other)])) if {
	some cmd in commands
	db_client(cmd)
	some other in commands
	not db_client(other)
	some text in array.concat(other.argv, object.get(other, "heredocs", []))
	regex.match(destructive_sql, text)
}

# SQL from a file the firewall does not read (psql -f x.sql, mysql < x.sql,
# sqlite3 db ".read x.sql") is asked: it may drop anything.
sql_file(cmd) if short(cmd, `^-[a-zA-Z]*f`)

sql_file(cmd) if long(cmd, "--file")

sql_file(cmd) if {
	some w in opts(cmd)
	startswith(w, "--file=")
}

sql_file(cmd) if {
	some w in cmd.argv
	regex.match(`^\s*\.read\s`, w)
}

sql_file(cmd) if {
	some r in object.get(cmd, "redirects", [])
	r.op == "<"
}

violations contains ask(sprintf("%s runs SQL from a file the firewall cannot read, which may drop data", [prog(cmd)])) if {
	some cmd in commands
	prog(cmd) in {"psql", "sqlite3"}
	sql_file(cmd)
}

violations contains ask(sprintf("%s runs SQL from a file the firewall cannot read, which may drop data", [prog(cmd)])) if {
	some cmd in commands
	prog(cmd) in {"mysql", "mariadb"}
	some r in object.get(cmd, "redirects", [])
	r.op == "<"
}

# --- git: asked -------------------------------------------------------------

# git_sub(cmd) is the index of git's subcommand: the first word that is not
# a global option or the value of one.
git_sub(cmd) := min({i |
	some i, w in cmd.argv
	i > 0
	not startswith(w, "-")
	not global_value(cmd, i)
}) if prog(cmd) == "git"

global_value(cmd, i) if cmd.argv[i - 1] in {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"}

git(cmd, sub) := k if {
	k := git_sub(cmd)
	lit(cmd, k) == sub
}

# Push: which refspecs, and whether it forces.
push_value_opts := {"-o", "--push-option", "--repo", "--receive-pack", "--exec"}

push_pos(cmd, k) := [i |
	some i, w in cmd.argv
	i > k
	operand(cmd, i)
	not push_value(cmd, i)
]

push_value(cmd, i) if cmd.argv[i - 1] in push_value_opts

forced(cmd) if short(cmd, `^-[^-o]*f`)

forced(cmd) if long(cmd, "--force")

forced(cmd) if {
	some w in opts(cmd)
	startswith(w, "--force-with-lease")
}

# dst(cmd, i) is the branch refspec argv[i] updates ("" when it is known
# only at run time or names the current branch).
dst(cmd, i) := "" if dyn(cmd, i)

dst(cmd, i) := b if {
	s := trim_prefix(lit(cmd, i), "+")
	parts := split(s, ":")
	d := parts[count(parts) - 1]
	b := trim_prefix(d, "refs/heads/")
	b != "HEAD"
}

dst(cmd, i) := "" if {
	s := trim_prefix(lit(cmd, i), "+")
	parts := split(s, ":")
	parts[count(parts) - 1] == "HEAD"
}

protected_branches := object.get(input.params, "protected_branches", ["main", "master"])

onto_protected(cmd, i) if dst(cmd, i) in protected_branches

onto_protected(cmd, i) if dst(cmd, i) == ""

violations contains ask("git push --force with no refspec pushes the current branch, which may be protected") if {
	some cmd in commands
	k := git(cmd, "push")
	forced(cmd)
	count(push_pos(cmd, k)) < 2
	not push_all(cmd)
}

push_all(cmd) if {
	some w in opts(cmd)
	w in {"--all", "--mirror", "--branches"}
}

violations contains ask("git push --force of every branch rewrites the protected ones") if {
	some cmd in commands
	git(cmd, "push")
	forced(cmd)
	push_all(cmd)
}

violations contains ask(sprintf("git push forces %s, a protected branch or one known only when it runs", [branch])) if {
	some cmd in commands
	k := git(cmd, "push")
	some j, i in push_pos(cmd, k)
	j > 0
	onto_protected(cmd, i)
	force_of(cmd, i)
	branch := object.get({"": "the current branch"}, dst(cmd, i), dst(cmd, i))
}

force_of(cmd, _) if forced(cmd)

force_of(cmd, i) if startswith(lit(cmd, i), "+")

violations contains ask("git reset --hard discards uncommitted work") if {
	some cmd in commands
	git(cmd, "reset")
	"--hard" in opts(cmd)
}

violations contains ask("git clean -f -d deletes untracked files and directories") if {
	some cmd in commands
	git(cmd, "clean")
	clean_force(cmd)
	short(cmd, `^-[^-e]*d`)
}

clean_force(cmd) if short(cmd, `^-[^-e]*f`)

clean_force(cmd) if long(cmd, "--force")

whole_tree(cmd, k) if {
	some i, w in cmd.argv
	i > k
	norm(w) == "."
}

violations contains ask("git checkout of . discards every uncommitted change") if {
	some cmd in commands
	k := git(cmd, "checkout")
	whole_tree(cmd, k)
}

violations contains ask("git restore . discards every uncommitted change") if {
	some cmd in commands
	k := git(cmd, "restore")
	whole_tree(cmd, k)
	not staged_only(cmd)
}

staged_only(cmd) if {
	some w in opts(cmd)
	w in {"--staged", "-S"}
	not worktree(cmd)
}

worktree(cmd) if {
	some w in opts(cmd)
	w in {"--worktree", "-W"}
}

# --- the project's own patterns ----------------------------------------------

# matches(cmd, pattern): each space-separated RE2 word of pattern matches
# the whole argv word at its place, the first against the program's name.
matches(cmd, pattern) if {
	ws := [w | some w in split(trim_space(pattern), " "); w != ""]
	count(ws) > 0
	every i, re in ws {
		word := object.get({0: prog(cmd)}, i, lit(cmd, i))
		regex.match(concat("", ["^(?:", re, ")$"]), word)
	}
}

violations contains refuse(sprintf("%s matches the refused command %q", [prog(cmd), p])) if {
	some cmd in commands
	some p in object.get(input.params, "refuse_argv", [])
	matches(cmd, p)
}

violations contains ask(sprintf("%s matches the command %q", [prog(cmd), p])) if {
	some cmd in commands
	some p in object.get(input.params, "ask_argv", [])
	matches(cmd, p)
}
