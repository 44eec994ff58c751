package hosts

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/hosts/formats"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// probe is a generator that writes its wiring, then tries to write into
// HOME, TMPDIR and its working directory, and reports where they are.
const probe = `import json, os, sys
out = sys.argv[1]
os.makedirs(os.path.join(out, ".claude"))
json.dump({"hooks": {"Stop": [{"hooks": [{"command": "python3 done.py"}]}]}}, open(os.path.join(out, ".claude", "settings.json"), "w"))
for d in (os.environ["HOME"], os.environ["TMPDIR"], os.getcwd()):
    open(os.path.join(d, "probe-was-here"), "w").write("x")
sys.stderr.write("home=%s\ncwd=%s\n" % (os.environ["HOME"], os.getcwd()))
sys.exit(int(sys.argv[2]))
`

func gather(t *testing.T, root string, gens []Generator, opts ...Option) Facts {
	t.Helper()
	ns := New(gens, opts...).Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	f, ok := ns.Data.(Facts)
	if ns.Status != facts.StatusOK || !ok {
		t.Fatalf("namespace %s: %s", ns.Status, ns.Reason)
	}
	return f
}

// TestGeneratorWritesOnlyInItsTempDir runs a generator that writes into
// HOME, TMPDIR and its working directory: each is inside the runner's temp
// dir, which is gone afterwards, and the project is untouched.
func TestGeneratorWritesOnlyInItsTempDir(t *testing.T) {
	root, tmp, home := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("TMPDIR", tmp)
	t.Setenv("HOME", home)
	if err := os.WriteFile(filepath.Join(root, "probe.py"), []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	f := gather(t, root, []Generator{
		{Host: "claude", Argv: []string{"python3", "probe.py", OutArg, "0"}},
		{Host: "qwen", Argv: []string{"python3", "probe.py", OutArg, "3"}, Format: formats.ClaudeSettings, Profile: ".claude"},
	})
	ok, failed := f.Hosts["claude"], f.Hosts["qwen"]
	if ok.Status != StatusOK || ok.Generated.Capabilities["hook:Stop:done.py"] != "" || len(ok.Generated.Files) != 1 {
		t.Errorf("claude: %+v", ok)
	}
	if failed.Status != StatusFailed || failed.ExitCode != 3 || failed.Reason != "generator for qwen exited 3" {
		t.Errorf("qwen: %+v", failed)
	}
	for _, line := range strings.Split(failed.StderrTail, "\n") {
		_, dir, _ := strings.Cut(line, "=")
		if !strings.HasPrefix(dir, tmp+string(filepath.Separator)) {
			t.Errorf("the generator's %s is not inside its temp dir under %s", line, tmp)
		}
	}
	for _, d := range []string{root, tmp, home} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if e.Name() != "probe.py" {
				t.Errorf("%s holds %s after the run", d, e.Name())
			}
		}
	}
}

func TestGeneratorFailures(t *testing.T) {
	root := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	if err := os.WriteFile(filepath.Join(root, "slow.py"), []byte("import time\ntime.sleep(30)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := gather(t, root, []Generator{
		{Host: "claude", Argv: []string{"python3", "slow.py"}, Timeout: 300 * time.Millisecond},
		{Host: "qwen", Argv: []string{SelfArg, "init", "--out", OutArg}},
		{Host: "gemini", Argv: []string{"no-such-generator-binary", OutArg}},
		{Host: "codex", Argv: []string{"python3", "-c", "pass", OutArg}},
	})
	for host, want := range map[string]string{
		"claude": "generator for claude: no exit within 300ms",
		"qwen":   "{tausik}: the tausik binary is not known to this run",
		"gemini": `generator no-such-generator-binary: exec: "no-such-generator-binary": executable file not found`,
		"codex":  "generator for codex wrote nothing readable as claude-settings under {out}/.codex",
	} {
		if h := f.Hosts[host]; h.Status != StatusFailed || !strings.Contains(h.Reason, want) {
			t.Errorf("%s: %s %q, want %q", host, h.Status, h.Reason, want)
		}
	}
	if !strings.Contains(strings.Join(f.Generators, ","), "claude,codex,gemini,qwen") {
		t.Errorf("generators %v", f.Generators)
	}
}

// TestInstalledHosts reports a host without a generator only when its
// profile directory is on disk, with what it holds.
func TestInstalledHosts(t *testing.T) {
	root := t.TempDir()
	for p, body := range map[string]string{
		".qwen/settings.json": `{"hooks": {"PreToolUse": [{"matcher": "write_file", "hooks": [{"command": "python3 g.py"}]}]}}`,
		".cursor/hooks.json":  "{not json",
	} {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := gather(t, root, nil)
	if len(f.Hosts) != 2 || len(f.Generators) != 0 {
		t.Fatalf("hosts %v generators %v", f.Hosts, f.Generators)
	}
	if q := f.Hosts["qwen"]; q.Status != StatusNone || q.Installed.Capabilities["hook:PreToolUse:g.py"] != "Write" {
		t.Errorf("qwen: %+v", q)
	}
	if c := f.Hosts["cursor"]; c.Installed != nil || !strings.Contains(c.InstalledError, ".cursor/hooks.json:1: invalid JSON") {
		t.Errorf("cursor: %+v", c)
	}
}

// TestGeneratorResultsKept runs a generator once and then takes its kept
// result while nothing it is given changed: the second run would fail (the
// environment, which the key does not cover, says so), yet the host stays
// ok. Editing a project file runs it again, and then it fails; a failure
// is never kept.
func TestGeneratorResultsKept(t *testing.T) {
	root := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("GEN_FAIL", "")
	gen := `import json, os, sys
if os.environ.get("GEN_FAIL"): sys.exit(7)
os.makedirs(os.path.join(sys.argv[1], ".claude"))
json.dump({"hooks": {"Stop": [{"hooks": [{"command": "python3 done.py"}]}]}}, open(os.path.join(sys.argv[1], ".claude", "settings.json"), "w"))
`
	if err := os.WriteFile(filepath.Join(root, "gen.py"), []byte(gen), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	gens := []Generator{{Host: "claude", Argv: []string{"python3", "gen.py", OutArg}}}
	status := func() (string, int) {
		h := gather(t, root, gens, WithCache(st, "test-binary")).Hosts["claude"]
		return h.Status, h.ExitCode
	}
	if s, _ := status(); s != StatusOK {
		t.Fatalf("first run: %s", s)
	}
	t.Setenv("GEN_FAIL", "1")
	if s, _ := status(); s != StatusOK {
		t.Fatalf("unchanged project: %s, want the kept ok result", s)
	}
	if err := os.WriteFile(filepath.Join(root, "notes.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, code := status(); s != StatusFailed || code != 7 {
		t.Fatalf("changed project: %s %d, want the generator run again and failing", s, code)
	}
	t.Setenv("GEN_FAIL", "")
	if s, code := status(); s != StatusOK {
		t.Fatalf("a failure is not kept: %s %d, want the generator run again", s, code)
	}
}
