# agent_authority: a person changes the guard (scopes, configuration tiers,
# keys, hook wiring, push tickets, baselines); an agent never does.
#
# The engine supplies, for a pre-write request, request.protected (the
# written paths that lie in the guard, each with the reason) and
# request.commands (the simple commands of a shell call, or the command line
# of a CLI run: argv with wrappers stripped, and which words are dynamic).
# At task-start, task.task is the proposed task and task.active the tasks
# already running.
#
# Who is an agent: a hook ("hook:<host>"), an MCP client ("mcp:<client>"),
# or the CLI run from inside an agent's shell ("agent:<host>"). "cli" and
# "policy-test" are people. A refusal says a person must make the change and
# never names the command that would make it.
package tausik.gates.agent_authority

requester := input.request.requester

agent if {
	some prefix in ["agent:", "hook:", "mcp:"]
	startswith(requester, prefix)
}

agent if requester == "mcp"

person_must := "a person must make this change"

# --- protected paths -------------------------------------------------------

violations contains v if {
	agent
	some p in object.get(input.request, "protected", [])
	v := {
		"msg": sprintf("%s is %s, part of the guard an agent runs under: an agent may not write it; %s", [p.path, p.reason, person_must]),
		"file": p.path,
		"rule": "protected_path",
	}
}

# --- tausik commands that change the guard --------------------------------

commands := object.get(input.request, "commands", [])

dyn(cmd, i) if object.get(cmd, "dynamic", [])[i] == true

# start(cmd) is the index of the first word tausik itself parses: after the
# program, or after the package of `go run` (tausik's own repository).
start(cmd) := 1 if {
	not dyn(cmd, 0)
	lower(regex.replace(cmd.argv[0], `^.*[/\\]`, "")) in {"tausik", "tausik.exe", "tausik-hook", "tausik-hook.exe"}
}

start(cmd) := j + 1 if {
	not dyn(cmd, 0)
	lower(regex.replace(cmd.argv[0], `^.*[/\\]`, "")) in {"go", "go.exe"}
	cmd.argv[1] == "run"
	j := min({i |
		some i, w in cmd.argv
		go_package(w)
	})
}

go_package(w) if w in {".", "./", "main.go", "./main.go"}

go_package(w) if startswith(w, "github.com/tausik/tausik")

# word(cmd, s) is the index of the first word at or after s that names a
# (sub)command: a dynamic word, or one that is not a flag and not the value
# of --root.
word(cmd, s) := min({i |
	some i, w in cmd.argv
	i >= s
	named(cmd, i, w)
})

named(cmd, i, _) if dyn(cmd, i)

named(cmd, i, w) if {
	not startswith(w, "-")
	cmd.argv[i - 1] != "--root"
}

# The subcommands that change the guard whatever follows them.
guard_subcommands := {
	"key": "the signing keys",
	"init": "the hosts' hook wiring",
	"config": "the configuration tiers",
	"push-ok": "a push ticket",
	"baseline": "the ratchet baseline",
	"hook": "the host's hook events, which only the host may send (a stop the agent sends itself uses up the bound that makes it continue)",
}

# change(cmd) describes the guard change cmd asks for.
change(cmd) := "a command whose subcommand is not known before it runs" if {
	k := word(cmd, start(cmd))
	dyn(cmd, k)
}

change(cmd) := guard_subcommands[cmd.argv[k]] if {
	k := word(cmd, start(cmd))
	not dyn(cmd, k)
}

change(cmd) := "a task command not known before it runs" if {
	k := word(cmd, start(cmd))
	cmd.argv[k] == "task"
	m := word(cmd, k + 1)
	dyn(cmd, m)
}

change(cmd) := "a task's scope" if {
	k := word(cmd, start(cmd))
	cmd.argv[k] == "task"
	m := word(cmd, k + 1)
	cmd.argv[m] == "scope"
}

change(cmd) := "a task started with a scope wider than the active tasks'" if {
	k := word(cmd, start(cmd))
	cmd.argv[k] == "task"
	m := word(cmd, k + 1)
	cmd.argv[m] == "start"
	some q in flag_scopes(cmd)
	not narrow(q)
}

# flag_scopes are the --scope patterns of a command line, a dynamic one as
# "**" (its value is unknown, so it may be anything).
flag_scopes(cmd) := {q |
	some i, w in cmd.argv
	w == "--scope"
	q := value(cmd, i + 1)
} | {q |
	some i, w in cmd.argv
	startswith(w, "--scope=")
	q := dynamic_or(cmd, i, substring(w, 8, -1))
}

value(cmd, i) := dynamic_or(cmd, i, cmd.argv[i])

dynamic_or(cmd, i, _) := "**" if dyn(cmd, i)

dynamic_or(cmd, i, w) := w if not dyn(cmd, i)

violations contains v if {
	agent
	some cmd in commands
	what := change(cmd)
	v := {
		"msg": sprintf("an agent may not change %s, part of the guard it runs under; %s", [what, person_must]),
		"rule": "guard_command",
	}
}

# --- calls whose program is not known -------------------------------------
#
# What runs cannot be known before the call runs when the program's name is
# a variable ($T baseline), or the engine marks a part of the call as
# running unknown commands (request.unknown_writes[].runs: eval of a built
# string, a shell fed its program through a pipe or a built -c string, an
# alias definition, a git alias running a shell command). Any of them may
# be tausik changing the guard, spelled so no parser sees it: refused to an
# agent whatever the words.

violations contains v if {
	agent
	some cmd in commands
	dyn(cmd, 0)
	v := {
		"msg": sprintf("the program %s is named only when the call runs, so it may change the guard an agent runs under; %s", [cmd.argv[0], person_must]),
		"rule": "hidden_command",
	}
}

violations contains v if {
	agent
	some u in object.get(input.request, "unknown_writes", [])
	object.get(u, "runs", false) == true
	v := {
		"msg": sprintf("what %s runs is not known before it runs (%s), so it may change the guard an agent runs under; %s", [u.text, u.reason, person_must]),
		"rule": "hidden_command",
	}
}

# --- a task started by an agent only narrows ------------------------------

norm(p) := lower(regex.replace(regex.replace(p, `/{2,}`, "/"), `^(\./)+`, ""))

scoped contains t if {
	some t in input.task.active
	t.scope_paths != null
}

# narrow(q): pattern q is inside the union of the scoped tasks' patterns, or
# no active task has a scope (then nothing is wider). Covered is
# conservative: the same pattern, "**", or q below a directory pattern; a
# pattern that climbs with ".." is never covered; a glob covers only itself.
narrow(_) if count(scoped) == 0

narrow(q) if {
	q == ""
}

narrow(q) if {
	not regex.match(`(^|/)\.\.(/|$)`, q)
	some t in scoped
	some p in t.scope_paths
	covers(norm(p), norm(q))
}

covers(p, q) if p == q

covers("**", _)

covers(p, q) if {
	not regex.match(`[*?\[]`, p)
	startswith(q, concat("", [trim_suffix(p, "/"), "/"]))
}

describe(t) := sprintf("%s %v", [t.slug, t.scope_paths])

scopes := concat("; ", sort([describe(t) | some t in scoped]))

violations contains v if {
	input.request.trigger == "task-start"
	agent
	some q in input.task.task.scope_paths
	not narrow(q)
	v := {
		"msg": sprintf("a task started by an agent may only narrow the active tasks' scopes (%s), and %s is not inside them; %s", [scopes, q, person_must]),
		"rule": "scope_widening",
	}
}
