package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// actionEnv runs one of the action's scripts with bash as a runner would:
// a clean environment holding only PATH, HOME, the runner's variables and
// the step's own, with GITHUB_PATH, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY
// files. It returns the combined output and the exit code.
type actionEnv struct {
	t    *testing.T
	dir  string // RUNNER_TEMP and the command files
	home string
}

func newActionEnv(t *testing.T) *actionEnv {
	dir := t.TempDir()
	a := &actionEnv{t: t, dir: dir, home: filepath.Join(dir, "home")}
	if err := os.MkdirAll(a.home, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"path", "output", "summary"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

func (a *actionEnv) run(script, cwd string, env ...string) (string, int) {
	a.t.Helper()
	abs, err := filepath.Abs(filepath.Join(".github", "action", script))
	if err != nil {
		a.t.Fatal(err)
	}
	cmd := exec.Command("bash", abs)
	cmd.Dir = cwd
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + a.home, "RUNNER_TEMP=" + a.dir,
		"GITHUB_PATH=" + filepath.Join(a.dir, "path"), "GITHUB_OUTPUT=" + filepath.Join(a.dir, "output"),
		"GITHUB_STEP_SUMMARY=" + filepath.Join(a.dir, "summary"),
	}, env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		a.t.Fatalf("%s: %v", script, err)
	}
	return string(out), 0
}

func (a *actionEnv) file(name string) string {
	a.t.Helper()
	b, err := os.ReadFile(filepath.Join(a.dir, name))
	if err != nil {
		a.t.Fatal(err)
	}
	return string(b)
}

// runnerOf names this machine as a GitHub runner does.
func runnerOf(t *testing.T) (string, string) {
	oses := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}
	arches := map[string]string{"amd64": "X64", "arm64": "ARM64"}
	os, arch := oses[runtime.GOOS], arches[runtime.GOARCH]
	if os == "" || arch == "" {
		t.Fatalf("no release target for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return os, arch
}

// TestActionInstallAndEval runs the action's scripts against a `make
// release` output served from a local directory (file://, no network):
// install.sh picks the runner's asset, checks SHA256SUMS and its
// signature and puts tausik on the job's PATH, and refuses a tampered
// binary, a wrong key and an unsigned release; eval.sh runs the installed
// tausik once and writes the job summary, the SARIF and the exit code
// (1 for an oversized file, 0 for a small one).
func TestActionInstallAndEval(t *testing.T) {
	for _, tool := range []string{"make", "ssh-keygen", "sha256sum", "curl", "git", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed by the action's scripts: %v", tool, err)
		}
	}
	dir := t.TempDir()
	key := filepath.Join(dir, "key")
	run(t, "", "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "tausik-release", "-f", key)
	other := filepath.Join(dir, "other")
	run(t, "", "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "someone-else", "-f", other)
	dist := filepath.Join(dir, "dist")
	run(t, "", "make", "--no-print-directory", "release", "DIST="+dist, "SIGNING_KEY="+key,
		"VERSION=v0.0.0-act", "PLATFORMS="+runtime.GOOS+"/"+runtime.GOARCH)
	pub := strings.TrimSpace(readString(t, key+".pub"))
	otherPub := strings.TrimSpace(readString(t, other+".pub"))
	runnerOS, runnerArch := runnerOf(t)
	install := func(a *actionEnv, from, public string, extra ...string) (string, int) {
		return a.run("install.sh", dir, append([]string{"RUNNER_OS=" + runnerOS, "RUNNER_ARCH=" + runnerArch,
			"TAUSIK_VERSION=v0.0.0-act", "TAUSIK_RELEASE_URL=file://" + from, "TAUSIK_PUBLIC_KEY=" + public}, extra...)...)
	}

	a := newActionEnv(t)
	out, code := install(a, dist, pub)
	if code != 0 {
		t.Fatalf("install.sh exited %d:\n%s", code, out)
	}
	bindir := strings.TrimSpace(a.file("path"))
	bin := filepath.Join(bindir, "tausik")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	if v := run(t, "", bin, "version"); !strings.Contains(v, "tausik v0.0.0-act") {
		t.Errorf("installed tausik version = %q", v)
	}
	if !strings.Contains(a.file("output"), "path="+bin+"\n") {
		t.Errorf("GITHUB_OUTPUT = %q", a.file("output"))
	}

	// A binary changed after SHA256SUMS was made is refused.
	tampered := copyDir(t, dist, filepath.Join(dir, "tampered"))
	asset := filepath.Join(tampered, "tausik_v0.0.0-act_"+runtime.GOOS+"_"+runtime.GOARCH)
	f, err := os.OpenFile(asset, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte{0}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	unsigned := copyDir(t, dist, filepath.Join(dir, "unsigned"))
	if err := os.Remove(filepath.Join(unsigned, "SHA256SUMS.sig")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, from, key, want string
		extra                 []string
	}{
		{"tampered binary", tampered, "", "checksum mismatch", nil},
		{"signed by another key", dist, otherPub, "signature of SHA256SUMS does not verify", nil},
		{"unsigned release, key given", unsigned, pub, "cannot download", nil},
		{"no asset for the runner", dist, "", "cannot download", []string{"RUNNER_OS=" + map[bool]string{true: "macOS", false: "Linux"}[runnerOS != "macOS"]}},
		{"unknown architecture", dist, "", "runner architecture 'RISCV'", []string{"RUNNER_ARCH=RISCV"}},
		{"no version", dist, "", "no version", []string{"TAUSIK_VERSION="}},
	} {
		b := newActionEnv(t)
		out, code := install(b, c.from, c.key, c.extra...)
		if code == 0 || !strings.Contains(out, c.want) {
			t.Errorf("%s: install.sh exited %d, want a failure saying %q:\n%s", c.name, code, c.want, out)
		}
		if p := b.file("path"); p != "" {
			t.Errorf("%s: PATH gained %q", c.name, p)
		}
	}

	// eval.sh: one evaluation, its summary, SARIF and exit code.
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, project, "git", "init", "-q")
	if err := os.WriteFile(filepath.Join(project, "big.py"), []byte(strings.Repeat("x = 1\n", 600)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "small.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file     string
		exit     string
		contains []string
	}{
		{"big.py", "exit-code=1", []string{"## ❌ tausik commit: blocked", "| filesize | FAILED (blocks) | block | 1 | 0 | 0 |", "[big.py:501](big.py#L501) big.py: 600 lines"}},
		{"small.py", "exit-code=0", []string{"## ✅ tausik commit: passed", "| filesize | PASSED | block | 0 | 0 | 0 |"}},
	} {
		e := newActionEnv(t)
		sarif := filepath.Join(e.dir, "tausik.sarif")
		out, code := e.run("eval.sh", project, "TAUSIK_BIN="+bin, "TAUSIK_TRIGGER=commit", "TAUSIK_FILES="+c.file+"\n",
			"TAUSIK_ARGS=--gate filesize", "TAUSIK_SARIF="+sarif)
		if code != 0 {
			t.Fatalf("%s: eval.sh exited %d:\n%s", c.file, code, out)
		}
		if outputs := e.file("output"); !strings.Contains(outputs, c.exit+"\n") || !strings.Contains(outputs, "sarif="+sarif+"\n") {
			t.Errorf("%s: GITHUB_OUTPUT = %q, want %s", c.file, outputs, c.exit)
		}
		summary := e.file("summary")
		for _, w := range c.contains {
			if !strings.Contains(summary, w) {
				t.Errorf("%s: the job summary lacks %q:\n%s", c.file, w, summary)
			}
		}
		var log struct {
			Runs []struct {
				Results []struct{ RuleID string } `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(readString(t, sarif)), &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("%s: SARIF: %v", c.file, err)
		}
		if got := len(log.Runs[0].Results); (c.file == "big.py") != (got == 1) {
			t.Errorf("%s: %d SARIF results", c.file, got)
		}
	}
	e := newActionEnv(t)
	if out, code := e.run("eval.sh", project, "TAUSIK_BIN="+bin); code != 2 || !strings.Contains(out, "no trigger") {
		t.Errorf("eval.sh without a trigger exited %d:\n%s", code, out)
	}
}

// TestActionYAML: action.yml's steps run the scripts that exist, every
// action it uses is pinned to a commit, and the last step passes tausik's
// exit code on.
func TestActionYAML(t *testing.T) {
	var action struct {
		Inputs map[string]struct {
			Required bool   `yaml:"required"`
			Default  string `yaml:"default"`
		} `yaml:"inputs"`
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID   string            `yaml:"id"`
				Run  string            `yaml:"run"`
				Uses string            `yaml:"uses"`
				If   string            `yaml:"if"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal([]byte(readString(t, "action.yml")), &action); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"version", "trigger", "files", "format", "args", "upload-sarif", "public-key"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %q", in)
		}
	}
	if action.Runs.Using != "composite" || len(action.Runs.Steps) < 4 {
		t.Fatalf("runs = %+v", action.Runs)
	}
	script := regexp.MustCompile(`\$GITHUB_ACTION_PATH/(\S+\.sh)`)
	pinned := regexp.MustCompile(`^[\w./-]+@[0-9a-f]{40}$`)
	scripts := 0
	for _, s := range action.Runs.Steps {
		if m := script.FindStringSubmatch(s.Run); m != nil {
			scripts++
			if _, err := os.Stat(m[1]); err != nil {
				t.Errorf("step runs %s: %v", m[1], err)
			}
		}
		if s.Uses != "" && !pinned.MatchString(s.Uses) {
			t.Errorf("step uses %q: not pinned to a commit", s.Uses)
		}
	}
	last := action.Runs.Steps[len(action.Runs.Steps)-1]
	if scripts != 2 || !strings.Contains(last.Run, "steps.eval.outputs.exit-code") {
		t.Errorf("scripts run = %d, last step = %q", scripts, last.Run)
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func copyDir(t *testing.T, from, to string) string {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	return to
}
