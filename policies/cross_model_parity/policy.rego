# cross_model_parity: every capability in the union of a kind's hosts is on
# every host of that kind with the same canonical matcher, or the difference
# is declared with a reason (docs/host-gates.md).
package tausik.gates.cross_model_parity

where := "in tausik/gates.json under gates.cross_model_parity.params.declared"

could_not_run contains {"code": "hosts_unavailable", "msg": object.get(input.hosts, "reason", "")} if input.hosts.status != "ok"

in_layer(p) if {
	some prefix in input.params.host_layer
	startswith(p, prefix)
}

in_layer(p) if {
	some prefix in input.params.host_layer
	contains(p, concat("", ["/", prefix]))
}

# A request naming its files judges the host layer only when one of them is
# in it; a request without files judges the whole project.
judged if count(input.request.files) == 0

judged if {
	some f in input.request.files
	in_layer(f)
}

not_applicable contains {"code": "no_generators", "msg": msg} if {
	judged
	count(input.hosts.generators) == 0
	msg := "no generators are configured: add one per agent host under \"generators\" in tausik/gates.json to compare them"
}

active if {
	judged
	count(input.hosts.generators) > 0
}

hosts := input.hosts.hosts

failed contains h if {
	some h in input.hosts.generators
	hosts[h].status != "ok"
}

could_not_run contains {"code": sprintf("generator_failed:%s", [h]), "msg": msg} if {
	active
	some h in failed
	host := hosts[h]
	msg := sprintf("the generator for %s (%s) could not run: %s; stderr tail: %s; fix it so it writes the host's wiring into {out}",
		[h, concat(" ", host.generator), object.get(host, "reason", ""), stderr_tail(host)])
}

stderr_tail(host) := host.stderr_tail if host.stderr_tail != ""

stderr_tail(host) := "(empty)" if host.stderr_tail == ""

caps(h) := hosts[h].generated.capabilities

# A failed host is COULD_NOT_RUN, which hides the differences; a kind with
# one host has nothing to differ from.
kind_hosts[k] contains h if {
	active
	some h in input.hosts.generators
	k := hosts[h].kind
}

union[k] contains c if {
	some k, _ in kind_hosts
	some h in kind_hosts[k]
	some c, _ in caps(h)
}

has(h, c) if c in object.keys(caps(h))

missing contains [sprintf("missing:%s@%s", [c, h]), detail] if {
	some k, _ in union
	some c in union[k]
	some h in kind_hosts[k]
	not has(h, c)
	owners := sort([x | some x in kind_hosts[k]; has(x, c)])
	detail := sprintf("%s has it, %s does not", [concat(", ", owners), h])
}

matchers contains [sprintf("matcher:%s", [c]), detail] if {
	some k, cs in union
	some c in cs
	values := {caps(h)[c] | some h in kind_hosts[k]}
	count(values) > 1
	pairs := sort([sprintf("%s matches %s", [h, show(caps(h)[c])]) | some h in kind_hosts[k]])
	detail := concat(", ", pairs)
}

show(m) := "every tool" if m == ""

show(m) := m if m != ""

all_differences := missing | matchers

differences := {d[0]: d[1] | some d in all_differences}

declared := object.get(input.params, "declared", {})

undeclared := sort([sprintf("  %s (%s)", [id, detail]) |
	some id, detail in differences
	not id in object.keys(declared)
])

stale := sort([sprintf("  %s", [id]) |
	active
	some id, _ in declared
	not id in object.keys(differences)
])

empty_reasons := sort([sprintf("  %s", [id]) |
	active
	some id, reason in declared
	not has_reason(reason)
])

has_reason(r) if trim_space(r) != ""

violations contains v if {
	count(undeclared) > 0
	v := {
		"msg": sprintf("undeclared differences between hosts (%d): make the hosts agree (add the capability to the host's generator, or give both the same matcher), or declare each deliberate one with its reason %s:\n%s", [count(undeclared), where, concat("\n", undeclared)]),
		"rule": "undeclared",
	}
}

violations contains v if {
	count(stale) > 0
	v := {
		"msg": sprintf("stale declarations (%d) that match no difference between the hosts today: remove them %s:\n%s", [count(stale), where, concat("\n", stale)]),
		"rule": "stale",
	}
}

violations contains v if {
	count(empty_reasons) > 0
	v := {
		"msg": sprintf("declarations with an empty reason (%d): write why the hosts differ on purpose %s, or make the hosts agree and remove the declaration:\n%s", [count(empty_reasons), where, concat("\n", empty_reasons)]),
		"rule": "empty_reason",
	}
}

violations contains v if {
	active
	some h, host in hosts
	not h in input.hosts.generators
	n := count(host.installed.capabilities)
	n > 0
	v := {
		"msg": sprintf("%s has %d capabilities deployed in %s/ (%s) but no generator, so nothing compares it with the other hosts: configure generators.%s in tausik/gates.json, or remove what is deployed", [h, n, host.profile, concat(", ", sort(object.keys(host.installed.capabilities))), h]),
		"rule": "builder_less",
	}
}

# A host without a generator whose profile does not read (installed_error is
# set only then): what it deploys cannot be known.
could_not_run contains {"code": sprintf("installed_unreadable:%s", [h]), "msg": host.installed_error} if {
	active
	some h, host in hosts
	not h in input.hosts.generators
}
