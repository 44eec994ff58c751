package push

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/rego"
	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/store"
)

// TestTicketExpiresAtTTL issues a ticket in a real SQLite store on one
// injected clock and judges a push on another, through this runner and
// git_push_gate's own policy with the ttl_seconds gate.yaml ships: a push
// one second before the ticket's end passes, at its end and after it is
// refused as expired. No sleep: the clocks are set.
func TestTicketExpiresAtTTL(t *testing.T) {
	ctx := store.WithRequester(context.Background(), "cli")
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "one"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, runners.GitEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	issued := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	st, err := store.Open(ctx, filepath.Join(dir, "tausik.db"), store.WithClock(func() time.Time { return issued }))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	head, branch, err := Head(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.IssuePushTicket(ctx, head, "origin", branch, ""); err != nil {
		t.Fatal(err)
	}
	ttl, judge := gateOf(t)
	if ttl != 600 {
		t.Errorf("gate.yaml ships ttl_seconds %d, docs/tool-gates.md says 600", ttl)
	}
	call := &facts.Tool{Kind: "shell", Commands: []facts.ToolShellCommand{{Argv: []string{"git", "push", "origin", "main"}, Dynamic: []bool{false, false, false, false}, Dir: "."}}}
	for _, c := range []struct {
		age     int64
		expired bool
	}{{0, false}, {ttl - 1, false}, {ttl, true}, {ttl + 1, true}} {
		now := issued.Add(time.Duration(c.age) * time.Second)
		ns := New(st, func() time.Time { return now }).Gather(ctx, &runners.Scope{Root: dir, Tool: call})
		pf, ok := ns.Data.(facts.PushFacts)
		if ns.Status != facts.StatusOK || !ok || pf.Ticket == nil || pf.Now-pf.Ticket.IssuedAt != c.age {
			t.Fatalf("age %d s: facts %+v", c.age, ns)
		}
		rules := judge(ctx, call, ns, ttl)
		if got := strings.Contains(rules, "expired"); got != c.expired || (!c.expired && rules != "") {
			t.Errorf("age %d s: violations %q, want expired %v and nothing else", c.age, rules, c.expired)
		}
	}
}

// gateOf reads git_push_gate's shipped ttl_seconds and returns a judge
// running its policy on a tool call and a push namespace: the rules of the
// violations, joined.
func gateOf(t *testing.T) (int64, func(context.Context, *facts.Tool, facts.Namespace, int64) string) {
	t.Helper()
	dir := filepath.Join("..", "..", "policies", "git_push_gate")
	raw, err := os.ReadFile(filepath.Join(dir, "gate.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Params struct {
			TTL struct {
				Default int64 `yaml:"default"`
			} `yaml:"ttl_seconds"`
		} `yaml:"params"`
	}
	if err := yaml.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "policy.rego"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := rego.New(rego.Query("data.tausik.gates.git_push_gate.violations"), rego.Module("policy.rego", string(src))).PrepareForEval(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return g.Params.TTL.Default, func(ctx context.Context, call *facts.Tool, ns facts.Namespace, ttl int64) string {
		t.Helper()
		doc := facts.NewDocument()
		doc.Set("tool", facts.OK(call))
		doc.Set(Namespace, ns)
		in, err := doc.Generic()
		if err != nil {
			t.Fatal(err)
		}
		in["params"] = map[string]any{"ttl_seconds": ttl}
		rs, err := q.Eval(ctx, rego.EvalInput(in))
		if err != nil || len(rs) != 1 {
			t.Fatalf("eval: %v %v", rs, err)
		}
		var rules []string
		for _, v := range rs[0].Expressions[0].Value.([]any) {
			rules = append(rules, v.(map[string]any)["rule"].(string))
		}
		return strings.Join(rules, ",")
	}
}
