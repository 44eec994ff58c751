# bootstrap_drift: source → deployed copy, and generator → installed host
# wiring (docs/host-gates.md, links 1 and 2). Link 3, a running
# tausik mcp never answering from an old binary, config or policy, is
# enforced by the MCP server itself.
package tausik.gates.bootstrap_drift

could_not_run contains {"code": "hosts_unavailable", "msg": object.get(input.hosts, "reason", "")} if input.hosts.status != "ok"

hosts := input.hosts.hosts

# Link 1: deployed copies of a source directory.

sources_present contains c.source if {
	some c in input.hosts.copies
	c.source_present
}

# Link 2: hosts with a generator whose wiring is installed on disk.
installed_hosts contains h if {
	some h in input.hosts.generators
	count(hosts[h].installed.files) > 0
}

# installed_error is set only when the profile does not read.
unreadable_hosts contains h if {
	some h in input.hosts.generators
	hosts[h].installed_error
}

not_applicable contains {"code": "no_source_dir", "msg": msg} if {
	count(sources_present) == 0
	count(installed_hosts | unreadable_hosts) == 0
	msg := sprintf("no source directory of the deployed copies exists (%s) and no host with a generator is installed", [concat(", ", sort([c | some c, _ in input.params.profiles]))])
}

# The runner lists drift only for a copy whose source and target both exist.
drifted := sort([sprintf("%s (%s)", [d.path, d.state]) |
	some c in input.hosts.copies
	some d in c.drifted
])

limit := 20

shown := array.slice(drifted, 0, limit)

more := sprintf(" (+%d more)", [count(drifted) - limit]) if count(drifted) > limit

more := "" if count(drifted) <= limit

redeploy := sprintf("run `%s`", [input.params.redeploy]) if input.params.redeploy != ""

redeploy := "redeploy, and name the command that does it in gates.bootstrap_drift.params.redeploy" if input.params.redeploy == ""

violations contains v if {
	count(drifted) > 0
	v := {
		"msg": sprintf("%d deployed file(s) are not copies of their source: %s%s; %s", [count(drifted), concat(", ", shown), more, redeploy]),
		"rule": "copy_drift",
	}
}

could_not_run contains {"code": sprintf("generator_failed:%s", [h]), "msg": msg} if {
	some h in installed_hosts
	host := hosts[h]
	host.status != "ok"
	msg := sprintf("the generator for %s could not run, so its installed wiring cannot be compared: %s; stderr tail: %s", [h, object.get(host, "reason", ""), host.stderr_tail])
}

violations contains v if {
	some h in unreadable_hosts
	v := {
		"msg": sprintf("%s: the installed wiring does not read: %s; fix it, or regenerate it: %s", [h, hosts[h].installed_error, redeploy]),
		"rule": "wiring_unreadable",
	}
}

# wiring lists how one part of the wiring (capabilities, mcp, digests)
# installed for host differs from what its generator writes today.
wiring_diffs(h, part, what) := sort(array.concat(
	[sprintf("%s %s is installed but no longer generated", [what, k]) |
		some k, _ in hosts[h].installed[part]
		not k in object.keys(hosts[h].generated[part])
	],
	array.concat(
		[sprintf("%s %s is generated but not installed", [what, k]) |
			some k, _ in hosts[h].generated[part]
			not k in object.keys(hosts[h].installed[part])
		],
		[sprintf("%s %s differs (installed %s, generated %s)", [what, k, show(v), show(hosts[h].generated[part][k])]) |
			some k, v in hosts[h].installed[part]
			v != hosts[h].generated[part][k]
		],
	),
))

show(v) := sprintf("%q", [v])

host_diffs(h) := array.concat(wiring_diffs(h, "capabilities", "capability"), array.concat(wiring_diffs(h, "mcp", "MCP server"), wiring_diffs(h, "digests", "file")))

violations contains v if {
	some h in installed_hosts
	diffs := host_diffs(h)
	count(diffs) > 0
	v := {
		"msg": sprintf("%s: the wiring installed in %s differs from what its generator writes today: %s; regenerate it: %s", [h, concat(", ", hosts[h].installed.files), concat("; ", diffs), redeploy]),
		"rule": "wiring_drift",
	}
}
