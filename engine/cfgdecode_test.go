package engine

import (
	"strings"
	"testing"
)

// TestConfigDecoderTypes feeds the commands, generators and gates sections a value
// of the wrong JSON type, an unknown key and a duplicate key: each is an
// ErrConfig naming the file, the line of the key and its path, once.
func TestConfigDecoderTypes(t *testing.T) {
	cases := []struct{ config, want string }{
		{"{\"commands\": {\"lint\": {\"argv\": [\"go\", \"vet\"],\n \"triggers\": [\"commit\"],\n \"timeout\": 5}}}",
			`tausik/gates.json:3: commands.lint.timeout: want a positive duration ("90s", "5m"), got the number 5`},
		{"{\"commands\": {\"lint\": {\"argv\": [\"go\", 3],\n \"triggers\": [\"commit\"]}}}",
			"tausik/gates.json:1: commands.lint.argv: want a list of strings, got a list"},
		{"{\"commands\": {\"lint\": {\"argv\": [],\n \"triggers\": [\"commit\"]}}}",
			"tausik/gates.json:1: commands.lint.argv: want a non-empty list of strings, got a list"},
		{"{\"commands\": {\"lint\": {\"argv\": [\"go\", \"vet\"], \"triggers\": [\"commit\"],\n \"env\": {\"A\": true}}}}",
			"tausik/gates.json:2: commands.lint.env: A: want a string, got the boolean true"},
		{"{\"commands\": {\"lint\": {\"argv\": [\"go\", \"vet\"], \"triggers\": [\"commit\"],\n \"description\": false}}}",
			"tausik/gates.json:2: commands.lint.description: want a sentence (at least 10 characters), got the boolean false"},
		{"{\"commands\": {\"lint\": {\"argv\": [\"go\", \"vet\"], \"triggers\": [\"commit\"],\n\n \"argv\": [\"go\"]}}}",
			`tausik/gates.json:3: invalid JSON: duplicate key "commands.lint.argv" (first at line 1)`},
		{"{\"generators\": {\"claude\": {\"argv\": [\"python3\"],\n \"format\": 7}}}",
			"tausik/gates.json:2: generators.claude.format: want a string, got the number 7"},
		{"{\"generators\": {\"claude\": {\"argv\": [\"python3\"],\n \"tools\": {\"w\": \"\"}}}}",
			`tausik/gates.json:2: generators.claude.tools: w: want a canonical name, got the string ""`},
		{"{\"generators\": {\"claude\": {\"argv\": [\"python3\"],\n \"argv2\": 1}}}",
			"tausik/gates.json:2: generators.claude.argv2: unknown key (known: argv, events, format, profile, timeout, tools)"},
		{"{\"gates\": {\"ruff\": {\"enabled\": true,\n \"triggers\": [\"commit\", 3]}}}",
			"tausik/gates.json:2: gates.ruff.triggers: want a list of triggers, got a list"},
		{"{\"gates\": {\"ruff\": {\n \"params\": 1}}}",
			"tausik/gates.json:2: gates.ruff.params: want an object, got the number 1"},
		{"{\"gates\": {\"ruff\": {\"params\": {\n \"exclude\": 1}}}}",
			"tausik/gates.json:2: gates.ruff.params.exclude: "},
		{"{\"gates\": {\"ruff\": {\"params\": {\"exclude\": []},\n \"colour\": 1}}}",
			"tausik/gates.json:2: gates.ruff.colour: unknown key (known: enabled, severity, triggers, params)"},
		{"{\"limits\": {\"hook\": {\n \"cel_cost\": \"lots\"}}}",
			`tausik/gates.json:2: limits.hook.cel_cost: want an integer, got the string "lots"`},
		{"{\"limits\": {\"hook\": {\n \"cel_cost\": 0}}}",
			"tausik/gates.json:2: limits.hook.cel_cost: want an integer from 1 to 2147483648, got the number 0"},
		{"{\"limits\": {\"hook\": {},\n \"ci\": {}}}",
			"tausik/gates.json:2: limits.ci: unknown key (known: hook, default)"},
		{"{\"limits\": {\"default\": {\"eval_memory_mb\": 15,\n \"eval_timeout\": 1}}}",
			"tausik/gates.json:2: limits.default.eval_timeout: unknown key (known: eval_timeout_ms, eval_memory_mb, cel_cost)"},
	}
	for _, c := range cases {
		_, err := newCommandEngine(t, c.config, "")
		msg := configErr(t, err)
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.config, msg, c.want)
		}
		if n := strings.Count(msg, "tausik/gates.json:"); n != 1 {
			t.Errorf("%s: %d diagnostics, want 1: %q", c.config, n, msg)
		}
	}
}
