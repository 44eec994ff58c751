package toolcall

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

func TestJudged(t *testing.T) {
	unknown := []facts.UnknownWrite{{Text: "python -c x", Reason: "inline code"}}
	cases := []struct {
		name string
		c    Call
		want bool
	}{
		{"shell without writes", Call{Kind: KindShell}, true},
		{"mcp", Call{Kind: KindMCP}, true},
		{"fetch", Call{Kind: KindFetch}, true},
		{"write naming a target", Call{Kind: KindWrite, Writes: []string{"a.py"}}, true},
		{"write whose targets are unknown", Call{Kind: KindWrite, Unknown: unknown}, true},
		{"write naming nothing", Call{Kind: KindWrite}, false},
		{"read", Call{Kind: KindRead, Writes: []string{"a.py"}}, false},
		{"other", Call{Kind: KindOther, Unknown: unknown}, false},
	}
	for _, tc := range cases {
		if got := tc.c.Judged(); got != tc.want {
			t.Errorf("%s: Judged() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// awsKey is an access-key-shaped detector as secret_scan's params give it.
var awsKey = map[string]any{"aws": `AKIA[0-9A-Z]{16}`}

func TestRedactedMasksEverySecret(t *testing.T) {
	secret := "AKIAABCDEFGHIJKLMNOP"
	c := &Call{Host: "claude", Tool: "Bash", Kind: KindShell, Session: "s1",
		Command: "export K=" + secret + " && ./deploy",
		Writes:  []string{"out/" + secret + ".txt"},
		Unknown: []facts.UnknownWrite{{Text: "sh -c 'echo " + secret + "'", Reason: "a shell fed a string"}}}
	r := Redacted(c, awsKey)
	masked := "AKIA…[secret, 20 characters]"
	if want := "export K=" + masked + " && ./deploy"; r.Command != want {
		t.Errorf("Command = %q, want %q", r.Command, want)
	}
	if len(r.Targets) != 1 || r.Targets[0] != "out/"+masked+".txt" {
		t.Errorf("Targets = %q, want the secret masked", r.Targets)
	}
	if len(r.Unknown) != 1 || r.Unknown[0].Text != "sh -c 'echo "+masked+"'" || r.Unknown[0].Reason != "a shell fed a string" {
		t.Errorf("Unknown = %+v, want the text masked and the reason kept", r.Unknown)
	}
	if r.Host != "claude" || r.Tool != "Bash" || r.Kind != KindShell || r.Session != "s1" {
		t.Errorf("record = %+v, want host, tool, kind and session kept", r)
	}
	// The call itself is not changed.
	if !strings.Contains(c.Command, secret) || !strings.Contains(c.Writes[0], secret) || !strings.Contains(c.Unknown[0].Text, secret) {
		t.Errorf("Redacted changed the call it was given: %+v", c)
	}
}

func TestRedactedBadDetectorRecordsNothing(t *testing.T) {
	r := Redacted(&Call{Kind: KindShell, Command: "echo hunter2"}, map[string]any{"ok": "x", "broken": "(unclosed"})
	want := "[not recorded: the secret_scan detector broken does not compile]"
	if r.Command != want {
		t.Errorf("Command = %q, want %q", r.Command, want)
	}
}

func TestRedactedCutsLongCommands(t *testing.T) {
	long := strings.Repeat("a", maxRecordedCommand+10)
	r := Redacted(&Call{Kind: KindShell, Command: long}, nil)
	if want := long[:maxRecordedCommand] + "…"; r.Command != want {
		t.Errorf("Command has %d bytes, want the first %d and an ellipsis", len(r.Command), maxRecordedCommand)
	}
	exact := strings.Repeat("b", maxRecordedCommand)
	if r := Redacted(&Call{Command: exact}, nil); r.Command != exact {
		t.Errorf("a command of exactly the bound was cut: %d bytes", len(r.Command))
	}
}

func TestRedactedMasksBeforeCutting(t *testing.T) {
	// A secret straddling the cut is masked whole, never left half visible.
	secret := "AKIAABCDEFGHIJKLMNOP"
	cmd := strings.Repeat("x", maxRecordedCommand-8) + secret
	r := Redacted(&Call{Kind: KindShell, Command: cmd}, awsKey)
	if strings.Contains(r.Command, "EFGH") {
		t.Errorf("recorded command shows part of the secret: …%q", r.Command[len(r.Command)-40:])
	}
}

func TestRedactedNilAndJSONShape(t *testing.T) {
	if Redacted(nil, awsKey) != nil {
		t.Error("Redacted(nil) is not nil")
	}
	b, err := json.Marshal(Redacted(&Call{Host: "h", Tool: "Read", Kind: KindRead}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"targets":[]`) || strings.Contains(string(b), `"unknown"`) || strings.Contains(string(b), `"command"`) {
		t.Errorf("record JSON = %s, want targets [] and no empty command or unknown", b)
	}
}

func TestNamespace(t *testing.T) {
	root := "/p"
	rel := func(p string) (string, bool) {
		r, err := filepath.Rel(root, p)
		if err != nil || strings.HasPrefix(r, "..") {
			return "", false
		}
		return filepath.ToSlash(r), true
	}
	c := &Call{Host: "claude", Tool: "MultiEdit", Kind: KindWrite, Event: EventPreToolUse, Command: "patch",
		URL: "https://x", Texts: []WriteText{
			{Path: "/p/z.py", Text: "z = 1\n", Known: true, Added: []string{"z = 1"}},
			{Path: "/outside/o.py", Text: "o", Known: true},
			{Path: "/p/b.py", Text: "partial", Err: "the edit does not apply"},
			{Path: "/p/a.ipynb"},
		}}
	tool, after := Namespace(c, []string{"z.py", "b.py"}, rel)
	if tool.Host != "claude" || tool.Name != "MultiEdit" || tool.Kind != KindWrite || tool.Event != EventPreToolUse || tool.Command != "patch" || tool.URL != "https://x" {
		t.Errorf("tool = %+v, want the call's host, name, kind, event, command and URL", tool)
	}
	if strings.Join(tool.Targets, ",") != "z.py,b.py" {
		t.Errorf("Targets = %q", tool.Targets)
	}
	if tool.Commands == nil || tool.UnknownWrites == nil {
		t.Error("nil Commands or UnknownWrites: JSON would show null")
	}
	want := []facts.ToolWrite{
		{Path: "a.ipynb", Added: []string{}, Error: "the text after the call is not known: MultiEdit is not modelled"},
		{Path: "b.py", Added: []string{}, Error: "the edit does not apply"},
		{Path: "z.py", Text: "z = 1\n", Added: []string{"z = 1"}},
	}
	if len(tool.Writes) != len(want) {
		t.Fatalf("Writes = %+v, want %+v", tool.Writes, want)
	}
	for i, w := range want {
		g := tool.Writes[i]
		if g.Path != w.Path || g.Text != w.Text || g.Error != w.Error || strings.Join(g.Added, "|") != strings.Join(w.Added, "|") || g.Added == nil {
			t.Errorf("Writes[%d] = %+v, want %+v", i, g, w)
		}
	}
	wantAfter := map[string]runners.AfterText{"z.py": {Text: "z = 1\n"}, "b.py": {Err: "the edit does not apply"}}
	if len(after) != len(wantAfter) {
		t.Errorf("after = %+v, want %+v", after, wantAfter)
	}
	for k, v := range wantAfter {
		if after[k] != v {
			t.Errorf("after[%s] = %+v, want %+v", k, after[k], v)
		}
	}
}

func TestNamespaceNothingWritten(t *testing.T) {
	tool, after := Namespace(&Call{Kind: KindShell, Command: "ls"}, nil, func(string) (string, bool) { return "", false })
	if after != nil {
		t.Errorf("after = %+v, want nil", after)
	}
	if tool.Targets == nil || tool.Writes == nil || len(tool.Writes) != 0 {
		t.Errorf("Targets %v, Writes %v: want empty, not nil", tool.Targets, tool.Writes)
	}
}
