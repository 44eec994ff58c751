package hosts

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/policy"
	"github.com/tausik/tausik/engine/toolcall"
)

// A long command is shortened in the refusal on a rune boundary, so the
// reason stays valid UTF-8 for a JSON host.
func TestReasonCutsLongCommandOnARune(t *testing.T) {
	cmd := strings.Repeat("a", 119) + "é" + strings.Repeat("b", 50) // é spans bytes 119-120
	got := reason(toolcall.Call{Tool: "Bash", Kind: toolcall.KindShell, Command: cmd}, &engine.Decision{ID: "d1"})
	if !utf8.ValidString(got) {
		t.Fatalf("reason is not valid UTF-8: %q", got)
	}
	if want := "Bash " + strings.Repeat("a", 119) + "…\n(decision d1)"; got != want {
		t.Errorf("reason = %q, want %q", got, want)
	}
}

// failingWriter refuses every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// A JSON host's refusal that cannot be written must not exit 0, which the
// host would read as no objection; an exit-2 host's refusal is unchanged.
func TestDenyFailsClosedWhenTheJSONIsLost(t *testing.T) {
	var stderr strings.Builder
	json := answer{denyJSON: func(r string) any { return map[string]string{"permission": "deny", "reason": r} }}
	if code := json.deny("no", Env{Stdout: failingWriter{}, Stderr: &stderr}); code != 2 {
		t.Errorf("lost JSON refusal exits %d, want 2", code)
	}
	var out strings.Builder
	if code := json.deny("no", Env{Stdout: &out, Stderr: &stderr}); code != 0 || !strings.Contains(out.String(), `"deny"`) {
		t.Errorf("written JSON refusal: exit %d, stdout %q", code, out.String())
	}
	if code := exit2Answer.deny("no", Env{Stdout: failingWriter{}, Stderr: &stderr}); code != 2 {
		t.Errorf("exit-2 refusal exits %d, want 2", code)
	}
}

// A refusal lists at most maxReasonLines findings and says how many more
// the decision holds: a generator run outside the scope must not fill the
// model's context with thousands of paths. Every blocking gate past the
// bound still names a finding, and a gate that could not run says why.
func TestReasonBoundsTheFindings(t *testing.T) {
	many := engine.Verdict{Name: "scope_write", Blocks: true}
	for i := range maxReasonLines + 7 {
		many.Violations = append(many.Violations, policy.Violation{Msg: fmt.Sprintf("pkg/f%d.go was created", i), File: fmt.Sprintf("pkg/f%d.go", i)})
	}
	other := engine.Verdict{Name: "secret_scan", Blocks: true, Violations: []policy.Violation{{Msg: "a key in src/a.py", File: "src/a.py"}, {Msg: "a key in src/b.py", File: "src/b.py"}}}
	broken := engine.Verdict{Name: "filesize", Blocks: true, Reasons: []policy.Reason{{Code: "fact_error:files", Msg: "cannot read src"}}}
	got := reason(toolcall.Call{Tool: "Write", Writes: []string{"src/a.py"}}, &engine.Decision{ID: "D", Gates: []engine.Verdict{many, other, broken}})
	if n := strings.Count(got, "was created"); n != maxReasonLines {
		t.Errorf("%d findings listed, want %d", n, maxReasonLines)
	}
	for _, want := range []string{
		"- scope_write: and 7 more, all in the decision\n",
		"- secret_scan: src/a.py: a key in src/a.py\n- secret_scan: and 1 more, all in the decision\n",
		"- filesize could not run (fact_error:files): cannot read src\n(decision D)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, got)
		}
	}
	many.Violations = many.Violations[:maxReasonLines]
	if got := reason(toolcall.Call{Tool: "Write"}, &engine.Decision{ID: "D", Gates: []engine.Verdict{many}}); strings.Contains(got, "more") {
		t.Errorf("a refusal within the bound says there is more:\n%s", got)
	}
}
