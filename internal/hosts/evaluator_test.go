//go:build linux

package hosts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// hookBins are the full binary and the thin client, built once.
type hookBins struct{ full, client string }

var (
	binsOnce sync.Once
	bins     hookBins
	binsErr  error
)

func buildHookBins(t *testing.T) hookBins {
	t.Helper()
	binsOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tausik-bins")
		if err != nil {
			binsErr = err
			return
		}
		bins = hookBins{full: filepath.Join(dir, "tausik"), client: filepath.Join(dir, "tausik-hook")}
		for pkg, out := range map[string]string{"github.com/tausik/tausik": bins.full, "github.com/tausik/tausik/cmd/tausik-hook": bins.client} {
			cmd := exec.Command("go", "build", "-o", out, pkg)
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if b, err := cmd.CombinedOutput(); err != nil {
				binsErr = fmt.Errorf("build %s: %v\n%s", pkg, err, b)
				return
			}
		}
	})
	if binsErr != nil {
		t.Fatal(binsErr)
	}
	return bins
}

// evalProject is a project with a task scoped to src/, made by the real
// binary, and the environment its hooks run with (env, or a new one when
// env is nil).
func evalProject(t *testing.T, b hookBins, env []string) (string, []string) {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"src", "docs"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Generous hook limits: what is tested is the evaluator's failover, not
	// the bounds, and a loaded machine must not turn a verdict into
	// COULD_NOT_RUN.
	if env == nil {
		user := filepath.Join(t.TempDir(), "user.json")
		if err := os.WriteFile(user, []byte(`{"limits": {"hook": {"eval_timeout_ms": 600000}}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		env = append(os.Environ(), "HOME="+t.TempDir(), "TAUSIK_USER_CONFIG="+user)
	}
	cmd := exec.Command(b.full, "task", "start", "feat", "--goal", "work in src", "--scope", "src/")
	cmd.Dir, cmd.Env = root, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("task start: %v\n%s", err, out)
	}
	return root, env
}

// startEvaluator runs `tausik hook serve` for root until the test ends.
func startEvaluator(t *testing.T, b hookBins, root string, env []string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(b.full, "hook", "serve", "--root", root, "--idle", "10m")
	cmd.Env = env
	var logb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logb, &logb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	if serving(t, root) != cmd.Process.Pid {
		t.Fatalf("another evaluator serves %s: %s", root, logb.String())
	}
	return cmd
}

// serving waits until an evaluator answers on root's socket and returns
// its process id, from the lock file it holds.
func serving(t *testing.T, root string) int {
	t.Helper()
	sock := filepath.Join(root, ".tausik", "hook.sock")
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		c, err := net.Dial("unix", sock)
		if err != nil {
			continue
		}
		c.Close()
		b, err := os.ReadFile(filepath.Join(root, ".tausik", "hook.lock"))
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			return pid
		}
	}
	t.Fatalf("no evaluator answers on %s", sock)
	return 0
}

type hookRun struct {
	code           int
	stdout, stderr string
}

// runProcess runs a hook command from dir, as a host runs it from the
// project directory.
func runProcess(t *testing.T, env []string, dir, payload string, name string, args ...string) hookRun {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin = strings.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return hookRun{code, out.String(), errb.String()}
}

var decisionID = regexp.MustCompile(`[0-9A-HJKMNP-TV-Z]{26}`)

// normalised is r with decision ids and the project's root masked.
func (r hookRun) normalised(root string) hookRun {
	r.stdout = decisionID.ReplaceAllString(strings.ReplaceAll(r.stdout, root, "$ROOT"), "<id>")
	r.stderr = decisionID.ReplaceAllString(strings.ReplaceAll(r.stderr, root, "$ROOT"), "<id>")
	return r
}

// loggedDecisions are the project's decisions as `tausik log export`
// writes them, without what differs between two runs of the same call even
// in one process (ids, times, hashes of the chain, timings, and the digest
// of the whole facts document, which holds the session's running counts).
func loggedDecisions(t *testing.T, b hookBins, root string, env []string) []map[string]any {
	t.Helper()
	cmd := exec.Command(b.full, "log", "export")
	cmd.Dir, cmd.Env = root, env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("log export: %v", err)
	}
	var all []map[string]any
	out = bytes.ReplaceAll(out, []byte(root), []byte("$ROOT"))
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("export line %q: %v", line, err)
		}
		for _, k := range []string{"decision_id", "timestamp", "seq", "hash", "prev_hash", "metrics"} {
			delete(m, k)
		}
		all = append(all, scrub(m).(map[string]any))
	}
	return all
}

func scrub(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k := range x {
			if k == "decision_id" || k == "reused" || k == "time" || k == "timings" || k == "facts_digest" || strings.HasSuffix(k, "_ns") || strings.HasSuffix(k, "_at") {
				delete(x, k)
				continue
			}
			x[k] = scrub(x[k])
		}
	case []any:
		for i := range x {
			x[i] = scrub(x[i])
		}
	}
	return v
}

// The evaluator answers every call of the hook tables as the in-process
// hook does — exit code, stdout and stderr — and logs the same decision.
func TestResidentEvaluatorAnswersAsInProcess(t *testing.T) {
	b := buildHookBins(t)
	// Two projects made alike: one judged in process, one through its
	// evaluator, with the same calls in the same order.
	inRoot, env := evalProject(t, b, nil)
	viaRoot, _ := evalProject(t, b, env)
	startEvaluator(t, b, viaRoot, env)
	required := append(env[:len(env):len(env)], "TAUSIK_HOOKD=require")
	for _, hc := range hostCases {
		for _, p := range []struct{ name, event, payload string }{
			{"in-scope write", "pre-tool-use", hc.inScope}, {"out-of-scope write", "pre-tool-use", hc.outScope},
			{"out-of-scope shell write", "pre-tool-use", hc.shellOut}, {"read", "pre-tool-use", hc.read},
			{"harmless command", "pre-tool-use", hc.harmless}, {"malformed payload", "pre-tool-use", hc.malformed},
			{"after a write", "post-tool-use", hc.inScope}, {"after a shell command", "post-tool-use", hc.shellOut},
		} {
			in := runProcess(t, env, inRoot, strings.ReplaceAll(p.payload, "$ROOT", inRoot), b.full, "hook", hc.host, p.event).normalised(inRoot)
			via := runProcess(t, required, viaRoot, strings.ReplaceAll(p.payload, "$ROOT", viaRoot), b.client, hc.host, p.event).normalised(viaRoot)
			if in != via {
				t.Errorf("%s %s: in process %+v\nthrough the evaluator %+v", hc.host, p.name, in, via)
			}
		}
	}
	in, via := loggedDecisions(t, b, inRoot, env), loggedDecisions(t, b, viaRoot, env)
	if len(in) != len(via) || len(in) < len(hostCases)*6 {
		t.Fatalf("%d decisions in process, %d through the evaluator", len(in), len(via))
	}
	for i := range in {
		if !reflect.DeepEqual(in[i], via[i]) {
			a, _ := json.Marshal(in[i])
			c, _ := json.Marshal(via[i])
			t.Errorf("decision %d differs through the evaluator:\n%s\n%s", i, a, c)
		}
	}
}

// What the guard must survive: a hundred calls at once while the evaluator
// is killed, its binary replaced, the configuration changed. Every call
// gets its verdict and every decision a refusal names is in a log that
// verifies.
func TestResidentEvaluatorFailsOver(t *testing.T) {
	b := buildHookBins(t)
	root, env := evalProject(t, b, nil)
	t.Cleanup(func() {
		if raw, err := os.ReadFile(filepath.Join(root, ".tausik", "hook.lock")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(raw))); err == nil {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	head := `{"session_id":"s","cwd":"` + root + `","hook_event_name":"PreToolUse",`
	out := head + `"tool_name":"Write","tool_input":{"file_path":"` + root + `/docs/x.md","content":"x\n"}}`
	in := head + `"tool_name":"Write","tool_input":{"file_path":"` + root + `/src/ok.py","content":"x = 1\ny = 2\nz = 3\n"}}`
	required := append(env[:len(env):len(env)], "TAUSIK_HOOKD=require")
	var mu sync.Mutex
	var refused []string
	check := func(i int, r hookRun) {
		if deny := i%2 == 0; deny != (r.code == 2) || deny != strings.Contains(r.stderr, "scope_write") {
			t.Errorf("call %d: %+v, want refused=%v", i, r, deny)
		}
		if m := decisionID.FindString(r.stderr); m != "" {
			mu.Lock()
			refused = append(refused, m)
			mu.Unlock()
		}
	}
	burst := func(n, kill int, env []string) {
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := in
				if i%2 == 0 {
					p = out
				}
				check(i, runProcess(t, env, root, p, b.client, "claude", "pre-tool-use"))
			}()
			if i == kill {
				syscall.Kill(serving(t, root), syscall.SIGKILL)
			}
		}
		wg.Wait()
	}

	// An agent's program answering "allow" on the socket is not the
	// evaluator: the call is judged in process, and refused.
	impostor := exec.Command("python3", "-c", impostorServer, filepath.Join(root, ".tausik", "hook.sock"))
	if err := impostor.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		if c, err := net.Dial("unix", filepath.Join(root, ".tausik", "hook.sock")); err == nil {
			c.Close()
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	check(0, runProcess(t, env, root, out, b.client, "claude", "pre-tool-use"))
	if r := runProcess(t, required, root, out, b.client, "claude", "pre-tool-use"); r.code != 2 || !strings.Contains(r.stderr, "does not run this tausik binary") {
		t.Fatalf("the client trusted an impostor: %+v", r)
	}
	impostor.Process.Kill()
	impostor.Wait()

	// The first call finds no evaluator: it is judged in process and starts
	// one. Then a hundred calls at once, every one answered by it.
	check(0, runProcess(t, env, root, out, b.client, "claude", "pre-tool-use"))
	serving(t, root)
	burst(100, -1, required)

	// Killed in the middle of ten calls: the rest are judged in process,
	// and the next call starts a new one.
	burst(10, 4, env)
	check(0, runProcess(t, env, root, out, b.client, "claude", "pre-tool-use"))
	serving(t, root)

	// The binary replaced under it: the next call is judged in process and
	// the stale evaluator stops.
	copyFile(t, b.full, b.full+".new")
	if err := os.Rename(b.full+".new", b.full); err != nil {
		t.Fatal(err)
	}
	if r := runProcess(t, required, root, out, b.client, "claude", "pre-tool-use"); r.code != 2 || !strings.Contains(r.stderr, "no answer from the evaluator") {
		t.Fatalf("a stale evaluator judged: %+v", r)
	}
	waitGone(t, root)
	check(0, runProcess(t, env, root, out, b.client, "claude", "pre-tool-use"))

	// The configuration changes under a warm evaluator: the next call is
	// judged by the new one.
	serving(t, root)
	if r := runProcess(t, required, root, in, b.client, "claude", "pre-tool-use"); r.code != 0 {
		t.Fatalf("in-scope write refused: %+v", r)
	}
	if err := os.MkdirAll(filepath.Join(root, "tausik"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "tausik", "gates.json"), []byte(`{"gates": {"filesize": {"params": {"max_lines": 2}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runProcess(t, required, root, in, b.client, "claude", "pre-tool-use"); r.code != 2 || !strings.Contains(r.stderr, "filesize") {
		t.Fatalf("the evaluator judged with the old configuration: %+v", r)
	}

	verify := exec.Command(b.full, "log", "verify")
	verify.Dir, verify.Env = root, env
	if vout, err := verify.CombinedOutput(); err != nil {
		t.Fatalf("log verify: %v\n%s", err, vout)
	}
	exported := exec.Command(b.full, "log", "export")
	exported.Dir, exported.Env = root, env
	log, err := exported.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range refused {
		if !bytes.Contains(log, []byte(`"decision_id":"`+id+`"`)) {
			t.Errorf("decision %s named in a refusal is not in the log", id)
		}
	}
	if len(refused) < 59 {
		t.Errorf("%d refusals named a decision, want 59", len(refused))
	}
}

// impostorServer is a program an agent could run: it listens on the
// evaluator's socket and answers every call with a well-formed "allow".
const impostorServer = `
import json, socket, struct, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(64)
body = json.dumps({"code": 0}).encode()
frame = b"TSKH" + struct.pack(">II", 1, len(body)) + body
while True:
    c, _ = s.accept()
    try:
        c.sendall(frame)
    except OSError:
        pass
    c.close()
`

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// waitGone waits for root's evaluator to stop by itself: its lock is free
// once the process is gone (a dead process's lock is freed by the kernel,
// whoever reaps it).
func waitGone(t *testing.T, root string) {
	t.Helper()
	f, err := os.Open(filepath.Join(root, ".tausik", "hook.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			return
		}
	}
	t.Fatal("the stale evaluator kept running")
}
