package mcpsurface

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// TestRealServer starts the real `tausik mcp` (built for the test) and reads
// its surface.
func TestRealServer(t *testing.T) {
	bin := buildTausik(t)
	root := t.TempDir()
	r := New([]string{bin, "mcp"}, time.Minute)
	ns := r.Gather(context.Background(), runners.NewScope(root, facts.Request{}))
	if ns.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", ns.Status, ns.Reason)
	}
	s := ns.Data.(facts.MCPSurface)
	if s.Tools < 3 || s.Tools != len(s.Names) || s.Bytes < 1000 || s.Names[0] > s.Names[len(s.Names)-1] {
		t.Errorf("surface = %+v", s)
	}
	golden, err := os.ReadFile("../../mcp/testdata/tools_list.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(strings.TrimSpace(string(golden))); s.Bytes != want {
		t.Errorf("bytes = %d, the golden tools/list is %d bytes", s.Bytes, want)
	}
}

// buildTausik builds the tausik binary into a temp dir.
func buildTausik(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tausik")
	build := exec.Command("go", "build", "-o", bin, "../..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build tausik: %v\n%s", err, out)
	}
	return bin
}

// TestFixedServerKept: a fixed server's measure is kept in the store and
// reused for the same identity and argv without starting it (the binary is
// gone by then); another identity, or a damaged row, starts it again.
func TestFixedServerKept(t *testing.T) {
	bin := buildTausik(t)
	st, err := store.OpenMemory(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	scope := runners.NewScope(t.TempDir(), facts.Request{})
	argv := []string{bin, "mcp"}
	first := New(argv, time.Minute, WithFixedServer(st, "build-1")).Gather(context.Background(), scope)
	if first.Status != facts.StatusOK {
		t.Fatalf("status %s: %s", first.Status, first.Reason)
	}
	if err := os.Remove(bin); err != nil {
		t.Fatal(err)
	}
	again := New(argv, time.Minute, WithFixedServer(st, "build-1")).Gather(context.Background(), scope)
	if again.Status != facts.StatusOK || !reflect.DeepEqual(again.Data, first.Data) {
		t.Errorf("same build: %+v, want the kept %+v", again, first)
	}
	if ns := New(argv, time.Minute, WithFixedServer(st, "build-2")).Gather(context.Background(), scope); ns.Status != facts.StatusError {
		t.Errorf("another build reused a measure: %+v", ns)
	}
	r := New(argv, time.Minute, WithFixedServer(st, "build-1"))
	for _, bad := range []string{`{"server": ["other", "mcp"], "tools": 1, "bytes": 9, "names": ["x"]}`, `{"tools": 2}`, `[]`} {
		if err := st.CachePutMany(context.Background(), []store.CacheEntry{{Key: store.CacheKey{Runner: Namespace, Version: cacheVersion, SHA256: r.cacheKey()}, Value: json.RawMessage(bad)}}); err != nil {
			t.Fatal(err)
		}
		if ns := r.Gather(context.Background(), scope); ns.Status != facts.StatusError {
			t.Errorf("damaged row %s was trusted: %+v", bad, ns)
		}
	}
}

func TestServerFailures(t *testing.T) {
	root := t.TempDir()
	for name, argv := range map[string][]string{
		"missing executable":      {"tausik-no-such-server"},
		"exits without answering": {"true"},
		"answers something else":  {"echo", `{"jsonrpc":"2.0","id":7,"result":{}}`},
	} {
		ns := New(argv, 5*time.Second).Gather(context.Background(), runners.NewScope(root, facts.Request{}))
		if ns.Status != facts.StatusError || ns.Reason == "" {
			t.Errorf("%s: %+v, want status error with a reason", name, ns)
		}
	}
	if ns := New(nil, 0).Gather(context.Background(), runners.NewScope(root, facts.Request{})); ns.Status != facts.StatusUnavailable {
		t.Errorf("no server configured: %+v", ns)
	}
}

func TestSilentServerTimesOut(t *testing.T) {
	ns := New([]string{"sleep", "30"}, 300*time.Millisecond).Gather(context.Background(), runners.NewScope(t.TempDir(), facts.Request{}))
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "deadline") {
		t.Errorf("%+v", ns)
	}
}

// TestTimeoutEndsTheServersChildren: a server whose child holds its output
// open is not waited for past the timeout; the child is killed with it.
func TestTimeoutEndsTheServersChildren(t *testing.T) {
	start := time.Now()
	ns := New([]string{"sh", "-c", "sleep 30 & sleep 30"}, 300*time.Millisecond).Gather(context.Background(), runners.NewScope(t.TempDir(), facts.Request{}))
	if ns.Status != facts.StatusError || !strings.Contains(ns.Reason, "deadline") {
		t.Errorf("%+v", ns)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("took %s; the timeout did not end the server's child", el)
	}
}
