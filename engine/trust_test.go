package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/config"
	"github.com/tausik/tausik/runners/command"
)

// A project may not put a command gate on the agent's every edit, neither
// its own nor a built-in one; the user tier may.
func TestCommandGatesStayOffPreWrite(t *testing.T) {
	t.Setenv(command.PythonEnv, "")
	project := `{"gates": {"pytest": {"triggers": ["pre-write", "verify", "review"]}}}`
	e, err := newCommandEngine(t, project, "")
	if err != nil {
		t.Fatal(err)
	}
	eff, _ := e.Effective("pytest")
	if slices.Contains(eff.Triggers, "pre-write") || !slices.Contains(eff.Triggers, "verify") {
		t.Fatalf("triggers %v: pre-write must go, verify stay", eff.Triggers)
	}
	if w := strings.Join(e.ConfigWarnings(), "\n"); !strings.Contains(w, "tausik/gates.json:1: gates.pytest.triggers: pre-write refused") {
		t.Fatalf("warnings %q", w)
	}
	e, err = newCommandEngine(t, project, `{"gates": {"pytest": {"triggers": ["pre-write", "verify"]}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if eff, _ := e.Effective("pytest"); !slices.Contains(eff.Triggers, "pre-write") {
		t.Fatalf("the user tier's pre-write was dropped: %v", eff.Triggers)
	}
}

// CheckEnv refuses tier files inside the repository and a TAUSIK_PYTHON
// that is not a Python interpreter.
func TestCheckEnv(t *testing.T) {
	root := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	t.Setenv(command.PythonEnv, "")
	if err := config.CheckEnv(root, getenv); err != nil {
		t.Fatal(err)
	}
	env[config.EnvUserConfig] = root + "/sub/../x.json"
	if err := config.CheckEnv(root, getenv); err == nil || !strings.Contains(err.Error(), "TAUSIK_USER_CONFIG=") {
		t.Fatalf("in-repo user config: %v", err)
	}
	env[config.EnvUserConfig] = t.TempDir() + "/config.json"
	if err := config.CheckEnv(root, getenv); err != nil {
		t.Fatalf("a user config outside: %v", err)
	}
	for _, bad := range []string{"/bin/sh", "sh", "/usr/bin/env"} {
		t.Setenv(command.PythonEnv, bad)
		if err := config.CheckEnv(root, getenv); err == nil || !strings.Contains(err.Error(), "is not a Python interpreter") {
			t.Errorf("TAUSIK_PYTHON=%s: %v", bad, err)
		}
	}
	t.Setenv(command.PythonEnv, "/usr/bin/python3")
	if err := config.CheckEnv(root, getenv); err != nil {
		t.Fatalf("/usr/bin/python3: %v", err)
	}
}
