package hosts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// askGate is a team gate of severity ask: a write under docs/ needs a
// person's confirmation.
const askGate = `name: docs_ask
description: a write under docs/ is shown to a person first
prevents: a write under docs/ that nobody confirmed
phase: hook
triggers: [pre-write]
severity: ask
enabled: true
language: rego
facts: []
`

const askPolicy = `package tausik.gates.docs_ask

violations contains {"msg": sprintf("%s is under docs/", [f]), "file": f} if {
	some f in input.request.files
	startswith(f, "docs/")
}
`

// blockGate refuses a write of docs/x.md outright.
const blockGate = `name: docs_block
description: docs/x.md is never written
prevents: a write of docs/x.md
phase: hook
triggers: [pre-write]
severity: block
enabled: true
language: rego
facts: []
`

const blockPolicy = `package tausik.gates.docs_block

violations contains {"msg": "docs/x.md is frozen", "file": "docs/x.md"} if {
	"docs/x.md" in input.request.files
}
`

// askProject is a project without tasks holding the docs_ask team gate
// and, when withBlock, docs_block as well.
func askProject(t *testing.T, withBlock bool) (string, func(string) string) {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{"docs/x.md": "a\n", // src/ok.py does not exist: Windsurf creates it with an edit from ""

		"tausik/policies/docs_ask/gate.yaml": askGate, "tausik/policies/docs_ask/policy.rego": askPolicy}
	if withBlock {
		files["tausik/policies/docs_block/gate.yaml"] = blockGate
		files["tausik/policies/docs_block/policy.rego"] = blockPolicy
	}
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := t.TempDir()
	return root, func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
}

// askAnswers are the hosts with a permission prompt and how each answers
// "ask"; every other host refuses a call that asks.
var askAnswers = map[string]func(m map[string]any) (string, bool){
	"claude": func(m map[string]any) (string, bool) {
		h, _ := m["hookSpecificOutput"].(map[string]any)
		r, _ := h["permissionDecisionReason"].(string)
		return r, h["hookEventName"] == "PreToolUse" && h["permissionDecision"] == "ask"
	},
	"cursor": func(m map[string]any) (string, bool) {
		r, _ := m["user_message"].(string)
		return r, m["permission"] == "ask" && m["agent_message"] == r
	},
	"copilot": func(m map[string]any) (string, bool) {
		r, _ := m["permissionDecisionReason"].(string)
		return r, m["permissionDecision"] == "ask"
	},
}

// A gate of severity ask, through each host's real hook: a host with a
// permission prompt answers ask in its own shape (exit 0, JSON on stdout),
// every other host refuses; a blocking gate beside it makes every host
// refuse; a write the gate does not judge is allowed.
func TestAskAnswerPerHost(t *testing.T) {
	askRoot, askEnv := askProject(t, false)
	bothRoot, bothEnv := askProject(t, true)
	for _, hc := range hostCases {
		code, stdout, stderr := runHook(t, hc.host, askRoot, askEnv, Pre, hc.outScope)
		if read, ok := askAnswers[hc.host]; ok {
			var m map[string]any
			if code != 0 || json.Unmarshal([]byte(stdout), &m) != nil {
				t.Fatalf("%s: ask answer exit %d stdout %q stderr %s", hc.host, code, stdout, stderr)
			}
			why, asked := read(m)
			if !asked || !strings.HasPrefix(why, askPrefix) || !strings.Contains(why, "docs_ask: docs/x.md") {
				t.Errorf("%s: want an ask naming docs_ask, got %s", hc.host, stdout)
			}
		} else if denied, why := hc.denied(t, code, stdout, stderr); !denied || !strings.Contains(why, "docs_ask") {
			t.Errorf("%s has no permission prompt: want a refusal naming docs_ask, got denied=%v %q", hc.host, denied, why)
		}
		code, stdout, stderr = runHook(t, hc.host, bothRoot, bothEnv, Pre, hc.outScope)
		if denied, why := hc.denied(t, code, stdout, stderr); !denied || !strings.Contains(why, "docs_block: docs/x.md is frozen") {
			t.Errorf("%s: a blocking gate beside ask must refuse, got denied=%v %q (stdout %s)", hc.host, denied, why, stdout)
		}
		code, stdout, stderr = runHook(t, hc.host, askRoot, askEnv, Pre, hc.inScope)
		if denied, why := hc.denied(t, code, stdout, stderr); denied || strings.Contains(stdout, "ask") {
			t.Errorf("%s: a write outside docs/ must pass, got %q %s", hc.host, why, stdout)
		}
	}
}
