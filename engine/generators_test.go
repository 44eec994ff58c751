package engine

import (
	"strings"
	"testing"

	"github.com/tausik/tausik/runners/command"
)

// TestGeneratorConfigTrust holds generators to the command gates' trust
// rules: a project config may run tausik itself or a command whose argv
// prefix the user or managed tier allows; an allowed interpreter alone
// (python3) does not let it run a script of its choosing.
func TestGeneratorConfigTrust(t *testing.T) {
	t.Setenv(command.PythonEnv, "")
	user := `{"allow_commands": [["python3", "bootstrap/gen.py"], ["python3", "g.py"]]}`
	for _, ok := range []string{
		`{"generators": {"claude": {"argv": ["{tausik}", "init", "--host", "claude", "--out", "{out}"], "format": "claude-settings"}}}`,
		`{"generators": {"qwen": {"argv": ["python3", "bootstrap/gen.py", "--out={out}"]}}}`,
		`{"generators": {"mine": {"argv": ["python3", "g.py", "{out}"], "format": "plugins", "profile": ".mine", "timeout": "30s",
		  "tools": {"put_file": "Write"}, "events": {"beforeTool": "PreToolUse"}}}}`,
	} {
		if _, err := newCommandEngine(t, ok, user); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	evil := `{"generators": {"qwen": {"argv": ["python3", "tools/evil.py", "{out}"]}}}`
	if msg := configErr(t, func() error { _, err := newCommandEngine(t, evil, user); return err }()); !strings.Contains(msg,
		"generators.qwen.argv: refused: `python3 tools/evil.py {out}` is neither {tausik} nor starts with an allowed command") {
		t.Errorf("got %q", msg)
	}
	project := `{"generators": {"claude": {"argv": ["node", "gen.js", "{out}"], "format": "claude-settings"}}}`
	msg := configErr(t, func() error { _, err := newCommandEngine(t, project, ""); return err }())
	for _, want := range []string{"tausik/gates.json:", "generators.claude.argv: refused: `node gen.js {out}` is neither {tausik} nor starts with an allowed command", `"allow_commands": [["node", "gen.js"]]`} {
		if !strings.Contains(msg, want) {
			t.Errorf("got %q, want %q", msg, want)
		}
	}
	if _, err := newCommandEngine(t, project, `{"command_allowlist": ["node"]}`); err != nil {
		t.Errorf("allowed by the user tier: %v", err)
	}
	if _, err := newCommandEngine(t, "{}", project); err != nil {
		t.Errorf("a generator the user tier defines is trusted as written: %v", err)
	}
}

func TestGeneratorConfigErrors(t *testing.T) {
	cases := []struct{ config, want string }{
		{`{"generators": ["x"]}`, "generators: want an object of host generators"},
		{`{"generators": {"claude": "tausik init"}}`, "generators.claude: want an object {argv, format}"},
		{`{"generators": {"claude": {"format": "claude-settings"}}}`, "generators.claude.argv: want a non-empty list of strings"},
		{`{"generators": {"claude": {"argv": ["python3", 3]}}}`, "generators.claude.argv: want a non-empty list of strings"},
		{`{"generators": {"claude": {"argv": ["python3", "g.py", "{out}", ">", "log"]}}}`, "generators.claude.argv: shell metacharacter in command"},
		{`{"generators": {"claude": {"argv": ["python3", "g.py", "{files}"]}}}`, "unknown placeholder {files} (known: {out}, {tausik})"},
		{`{"generators": {"claude": {"argv": ["python3"], "format": "yaml"}}}`, "generators.claude.format: want one of claude-settings"},
		{`{"generators": {"newhost": {"argv": ["python3"]}}}`, "generators.newhost.format: required for a host tausik does not know"},
		{`{"generators": {"claude": {"argv": ["python3"], "profile": "../elsewhere"}}}`, "generators.claude.profile: want a project-relative directory"},
		{`{"generators": {"claude": {"argv": ["python3"], "timeout": "forever"}}}`, "generators.claude.timeout: want a positive duration"},
		{`{"generators": {"claude": {"argv": ["python3"], "tools": {"write_file": 1}}}}`, "generators.claude.tools: write_file: want a canonical name"},
		{`{"generators": {"claude": {"argv": ["python3"], "events": []}}}`, "generators.claude.events: want an object"},
		{`{"generators": {"claude": {"argv": ["python3"], "shell": true}}}`, "generators.claude.shell: unknown key"},
		{`{"generators": {"Claude Code": {"argv": ["python3"], "format": "plugins"}}}`, "a host's name must match"},
		{`{"gates": {"bootstrap_drift": {"params": {"profiles": {"src/": []}}}}}`, "gates.bootstrap_drift.params.profiles: src/: want a project-relative source directory"},
	}
	for _, c := range cases {
		_, err := newCommandEngine(t, c.config, "")
		if msg := configErr(t, err); !strings.Contains(msg, c.want) || !strings.Contains(msg, "tausik/gates.json:") {
			t.Errorf("%s:\n got %q\nwant %q", c.config, msg, c.want)
		}
	}
}
