package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfineKeepsWritesInside runs a real shell that writes inside its
// writable directory, outside it (a sibling directory, standing for the
// working tree), and into /tmp, then tries to make the mount holding the
// sibling writable again (mount(8), as root in the namespace); only the
// write inside may land. Where the machine allows no sandbox the test
// fails, naming why: this machine is expected to have one (see
// docs/command-gates.md).
func TestConfineKeepsWritesInside(t *testing.T) {
	if ok, why := Available(); !ok {
		t.Fatalf("no sandbox: %s", why)
	}
	base := t.TempDir()
	inside, outside := filepath.Join(base, "inside"), filepath.Join(base, "outside")
	for _, d := range []string{inside, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tmpMarker := filepath.Join(os.TempDir(), "tausik-sandbox-escape-"+filepath.Base(base))
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	shmMarker := filepath.Join("/dev/shm", "tausik-sandbox-escape-"+filepath.Base(base))
	script := `echo in > inside/ok; echo out > outside/escape; echo tmp > "$1"; echo shm > "$2" || echo no-shm; ` +
		`mount -o remount,bind,rw "$(findmnt -n -o TARGET -T outside)" 2>/dev/null && echo remounted; echo again > outside/escape2; exit 0`
	cmd := exec.Command(sh, "-c", script, "sh", tmpMarker, shmMarker)
	cmd.Dir = base
	if err := Confine(cmd, inside); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(inside, "ok")); err != nil || string(b) != "in\n" {
		t.Errorf("the write inside did not land: %q %v\n%s", b, err, out)
	}
	// /dev/shm is writable inside (multiprocessing needs it), on a tmpfs of
	// the sandbox's own: the write must not reach the machine's.
	if strings.Contains(string(out), "no-shm") {
		t.Errorf("/dev/shm is not writable inside the sandbox:\n%s", out)
	}
	for _, p := range []string{filepath.Join(outside, "escape"), filepath.Join(outside, "escape2"), tmpMarker, shmMarker} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			os.Remove(p)
			t.Errorf("%s was written from inside the sandbox\n%s", p, out)
		}
	}
	if strings.Contains(string(out), "remounted") {
		t.Errorf("the tool remounted / writable:\n%s", out)
	}
}

// TestConfineRunsTheTool shows the tool gets its own argv, environment,
// working directory and exit code through the init.
func TestConfineRunsTheTool(t *testing.T) {
	dir := t.TempDir()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(sh, "-c", `printf '%s %s %s' "$0" "$FOO" "$(pwd)"; exit 7`, "zero")
	cmd.Dir, cmd.Env = dir, []string{"FOO=bar"}
	if err := Confine(cmd, dir); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Fatalf("err %v, want exit 7; output %q", err, out)
	}
	if want := "zero bar " + dir; string(out) != want {
		t.Fatalf("output %q, want %q", out, want)
	}
}
