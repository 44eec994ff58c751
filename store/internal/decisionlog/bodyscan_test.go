package decisionlog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/store/internal/quickverify"
	"github.com/valyala/fastjson"
)

// scanBase is a canonical decision body with every mirrored field and one
// of each other kind of value, the starting point of the refusal table.
const scanBase = `{"blocked":false,"decision_id":"01J0","exit_code":-7,"gates":[{"blocks":true,"name":"g","outcome":"FAILED","severity":"block"},{"a":{},"blocks":false,"name":"h","outcome":"PASSED","severity":"warn","z":[]}],"git_head":"abc","request":{"files":["a\"b\\c\u00e9\n"],"task":"t","trigger":"commit"},"requester":"cli ✓","time":"2026-01-01T00:00:00Z","x":{"n":[0,-2.5e+3,1E5,0.25,"s",true,false,null,{"k":"v"}]}}`

// scanMinimal carries the mirrored fields and nothing else, a small seed.
const scanMinimal = `{"blocked":true,"decision_id":"a","exit_code":0,"gates":[],"git_head":"","request":{"task":"","trigger":""},"requester":"","time":""}`

// storedBody is d's body as the store writes it.
func storedBody(t testing.TB, d Decision) []byte {
	return storedRecord(t, d).body
}

// storedRecord is d's row as the store writes it.
func storedRecord(t testing.TB, d Decision) *Record {
	t.Helper()
	rec, err := PrepareDecision(d, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// scanAgrees returns what differs between scanBody's fields and what
// fastjson and encoding/json (parseMirror) read from body.
func scanAgrees(body []byte, f *quickverify.BodyFields) error {
	if !json.Valid(body) {
		return fmt.Errorf("encoding/json: not valid")
	}
	m, err := parseMirror(body)
	if err != nil {
		return fmt.Errorf("encoding/json: %w", err)
	}
	if !m.complete() {
		return fmt.Errorf("encoding/json: incomplete %+v", m)
	}
	var p fastjson.Parser
	v, err := p.ParseBytes(body)
	if err != nil {
		return fmt.Errorf("fastjson: %w", err)
	}
	var diffs []string
	same := func(what string, got []byte, fromJSON string, fj *fastjson.Value) {
		fjs, err := fj.StringBytes()
		if string(got) != fromJSON || err != nil || string(fjs) != fromJSON {
			diffs = append(diffs, fmt.Sprintf("%s: scan %q, encoding/json %q, fastjson %q (%v)", what, got, fromJSON, fjs, err))
		}
	}
	same("decision_id", f.ID, *m.DecisionID, v.Get("decision_id"))
	same("time", f.Time, *m.Time, v.Get("time"))
	same("requester", f.Requester, *m.Requester, v.Get("requester"))
	same("git_head", f.GitHead, *m.GitHead, v.Get("git_head"))
	same("trigger", f.Trigger, *m.Request.Trigger, v.Get("request", "trigger"))
	same("task", f.Task, *m.Request.Task, v.Get("request", "task"))
	if fb, err := v.Get("blocked").Bool(); f.Blocked != *m.Blocked || err != nil || fb != f.Blocked {
		diffs = append(diffs, fmt.Sprintf("blocked: scan %t, encoding/json %t, fastjson %t (%v)", f.Blocked, *m.Blocked, fb, err))
	}
	if fe, err := v.Get("exit_code").Int64(); f.ExitCode != *m.ExitCode || err != nil || fe != f.ExitCode {
		diffs = append(diffs, fmt.Sprintf("exit_code: scan %d, encoding/json %d, fastjson %d (%v)", f.ExitCode, *m.ExitCode, fe, err))
	}
	fg, err := v.Get("gates").Array()
	if err != nil || len(fg) != len(f.Gates) || len(*m.Gates) != len(f.Gates) {
		return fmt.Errorf("gates: scan %d, encoding/json %d, fastjson %d (%v)", len(f.Gates), len(*m.Gates), len(fg), err)
	}
	for i, g := range f.Gates {
		mg := (*m.Gates)[i]
		if mg.Name == nil || mg.Outcome == nil || mg.Severity == nil || mg.Blocks == nil {
			diffs = append(diffs, fmt.Sprintf("gate %d: encoding/json lacks a field", i))
			continue
		}
		same(fmt.Sprintf("gate %d name", i), g.Name, *mg.Name, fg[i].Get("name"))
		same(fmt.Sprintf("gate %d outcome", i), g.Outcome, *mg.Outcome, fg[i].Get("outcome"))
		same(fmt.Sprintf("gate %d severity", i), g.Severity, *mg.Severity, fg[i].Get("severity"))
		if fb, err := fg[i].Get("blocks").Bool(); g.Blocks != *mg.Blocks || err != nil || fb != g.Blocks {
			diffs = append(diffs, fmt.Sprintf("gate %d blocks: scan %t, encoding/json %t, fastjson %t (%v)", i, g.Blocks, *mg.Blocks, fb, err))
		}
	}
	if diffs != nil {
		return fmt.Errorf("%s", strings.Join(diffs, "; "))
	}
	return nil
}

// scanVariants are bodies the store writes: several gates, none, odd and
// non-ASCII strings (mirrored ones the scanner may read, and escaped ones
// it must skip).
func scanVariants(t testing.TB) [][]byte {
	var out [][]byte
	for _, rec := range scanRecords(t) {
		out = append(out, rec.body)
	}
	return out
}

func scanRecords(t testing.TB) []*Record {
	at := time.Date(2026, 2, 3, 4, 5, 6, 789_000_000, time.UTC)
	var out []*Record
	out = append(out, storedRecord(t, benchDecisions(1)[0]))
	out = append(out, storedRecord(t, mkDecision(at, "commit", "none")))
	for i, s := range []string{"uni ✓ é 😀 日本", "<&> ~ DEL\x7f", "a/b", "", "x y", strings.Repeat("long-", 40)} {
		d := mkDecision(at.Add(time.Duration(i)*time.Second), "review", s,
			gateSpec{"g" + s, OutcomeFailed, SeverityBlock}, gateSpec{s + "h", OutcomeCouldNotRun, SeverityWarn},
			gateSpec{"i", OutcomeNotApplicable, SeverityBlock}, gateSpec{"j", OutcomePassed, SeverityWarn})
		var body map[string]any
		if err := json.Unmarshal(d.Body, &body); err != nil {
			t.Fatal(err)
		}
		body["requester"], body["git_head"] = s+"r", s
		body["note"] = map[string]any{"esc": "q\"b\\n\n\u2028\x01", "deep": []any{[]any{map[string]any{"a": 1.5e-7}}}, s: s}
		d.Requester, d.GitHead = s+"r", s
		d.Body, _ = json.Marshal(body)
		out = append(out, storedRecord(t, d))
	}
	return out
}

func TestScanBodyAgrees(t *testing.T) {
	var f quickverify.BodyFields
	// The fields are the row's columns.
	for _, rec := range scanRecords(t) {
		if !quickverify.ScanBody(rec.body, &f) {
			continue // reported below
		}
		got := fmt.Sprint(string(f.ID), string(f.Requester), string(f.GitHead), string(f.Trigger), string(f.Task), f.ExitCode, f.Blocked)
		want := fmt.Sprint(rec.id, rec.requester, rec.gitHead, rec.trigger, rec.task, rec.exitCode, rec.blocked)
		if got != want || !sameTime(string(f.Time), rec.time) || len(f.Gates) != len(rec.gates) {
			t.Errorf("fields %s %s, %d gates; columns %s %s, %d gates", got, f.Time, len(f.Gates), want, rec.time, len(rec.gates))
			continue
		}
		for i, g := range f.Gates {
			if v := rec.gates[i]; string(g.Name) != v.Name || string(g.Outcome) != string(v.Outcome) ||
				string(g.Severity) != string(v.Severity) || g.Blocks != v.Blocks {
				t.Errorf("gate %d: %s %s %s %t, column %+v", i, g.Name, g.Outcome, g.Severity, g.Blocks, v)
			}
		}
	}
	for _, body := range append(scanVariants(t), []byte(scanBase), []byte(scanMinimal)) {
		if !quickverify.ScanBody(body, &f) {
			t.Errorf("refused a stored body:\n%s", body)
			continue
		}
		if err := scanAgrees(body, &f); err != nil {
			t.Errorf("%v\n%s", err, body)
		}
	}
	if !quickverify.ScanBody([]byte(scanBase), &f) || len(f.Gates) != 2 || f.ExitCode != -7 || f.Blocked ||
		string(f.Requester) != "cli ✓" || !f.Gates[0].Blocks || string(f.Gates[1].Severity) != "warn" {
		t.Errorf("base body read as %+v", f)
	}
	empty := storedBody(t, mkDecision(time.Now(), "commit", "none"))
	if !quickverify.ScanBody(empty, &f) || len(f.Gates) != 0 {
		t.Errorf("a body without gates read as %+v", f)
	}
}

// TestScanBodyRefuses breaks one rule of scanBody's at a time on a body it
// accepts.
func TestScanBodyRefuses(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	// The edges of the rules, which both parsers read as scanBody does.
	// Depth: the top object is 1 and x's value 2, so 62 arrays in it reach 64.
	for _, c := range [][2]string{
		{`"x":{"n":`, `"x":{"n":` + deep(62) + `,"o":`},
		{`[0,`, `[-0,"\ud800","\u00E9\/\u0000",1E-0,12.5E+07,"` + "\xed\x9f\xbf\xf4\x8f\xbf\xbf" + `",`},
		{`"exit_code":-7`, `"exit_code":-9223372036854775808`},
		{`"exit_code":-7`, `"exit_code":9223372036854775807`},
		{`"exit_code":-7`, `"exit_code":-0`},
		{`"requester":"cli ✓"`, `"requester":"a b!#` + "\x7f" + strings.Repeat("long", 9) + `"`},
		{`"requester":"cli ✓"`, `"requester":""`},
		{`"x":{`, `"timings_0123456789ab":0,"x":{`},
		{`{"blocked"`, `{"Zeta":0,"blocked"`},
		{`"trigger":"commit"`, `"trigger":"commit","zz":{"Task":1}`},
	} {
		body := []byte(strings.Replace(scanBase, c[0], c[1], 1))
		var f quickverify.BodyFields
		if !quickverify.ScanBody(body, &f) {
			t.Errorf("refused %s", body)
		} else if err := scanAgrees(body, &f); err != nil {
			t.Errorf("%v\n%s", err, body)
		}
	}
	cases := []struct{ name, old, new string }{
		{"trailing data", `{"k":"v"}]}}`, `{"k":"v"}]}}{}`},
		{"trailing space", `{"k":"v"}]}}`, `{"k":"v"}]}} `},
		{"leading space", `{"blocked"`, ` {"blocked"`},
		{"space after colon", `"blocked":false`, `"blocked": false`},
		{"newline between members", `,"decision_id"`, ",\n\"decision_id\""},
		{"space in array", `[0,-2.5e+3`, `[0, -2.5e+3`},
		{"unsorted top keys", `"git_head":"abc","request"`, `"request0":1,"git_head":"abc","request"`},
		{"unsorted nested keys", `{"k":"v"}`, `{"k":"v","a":1}`},
		{"unsorted gate keys", `"z":[]}`, `"z":[],"y":0}`},
		{"duplicate key", `"x":{`, `"x":1,"x":{`},
		{"duplicate nested key", `{"k":"v"}`, `{"k":"v","k":"v"}`},
		{"escaped key", `{"k":"v"}`, `{"\u006b":"v"}`},
		{"key folding to a mirrored one", `{"blocked"`, `{"Blocked":true,"blocked"`},
		{"unsorted in the last byte of a word", `{"k":"v"}`, `{"kkkkkkkb":1,"kkkkkkka":2}`},
		{"unsorted past a word", `{"k":"v"}`, `{"kkkkkkkkb":1,"kkkkkkkka":2}`},
		{"unsorted long keys", `{"k":"v"}`, `{"kkkkkkkkkkkkkkkkkkkkb":1,"kkkkkkkkkkkkkkkkkkkka":2}`},
		{"duplicate long key", `{"k":"v"}`, `{"kkkkkkkkkkkkkkkkkkkkb":1,"kkkkkkkkkkkkkkkkkkkkb":2}`},
		{"prefix after its extension", `{"k":"v"}`, `{"kk":1,"k":2}`},
		{"key folding through unicode", `"requester":"cli ✓",`, `"requester":"cli ✓","requeſter":"x",`},
		{"gate key folding", `"z":[]`, `"z":[],"ſeverity":"x"`},
		{"escaped mirror string", `"git_head":"abc"`, `"git_head":"a\u0062c"`},
		{"escaped gate name", `"name":"g"`, `"name":"g\/"`},
		{"escaped trigger", `"trigger":"commit"`, `"trigger":"com\nmit"`},
		{"missing time", `"time":"2026-01-01T00:00:00Z",`, ``},
		{"missing request", `"request":{"files":["a\"b\\c\u00e9\n"],"task":"t","trigger":"commit"},`, ``},
		{"missing task", `"task":"t",`, ``},
		{"missing gate severity", `,"severity":"warn"`, ``},
		{"missing gates", `"gates":[{"blocks":true,"name":"g","outcome":"FAILED","severity":"block"},{"a":{},"blocks":false,"name":"h","outcome":"PASSED","severity":"warn","z":[]}],`, ``},
		{"id not a string", `"decision_id":"01J0"`, `"decision_id":1`},
		{"blocked not a bool", `"blocked":false`, `"blocked":0`},
		{"blocked null", `"blocked":false`, `"blocked":null`},
		{"blocks a string", `"blocks":true`, `"blocks":"true"`},
		{"exit code a float", `"exit_code":-7`, `"exit_code":-7.0`},
		{"exit code exponent", `"exit_code":-7`, `"exit_code":7e0`},
		{"exit code a string", `"exit_code":-7`, `"exit_code":"7"`},
		{"exit code too large", `"exit_code":-7`, `"exit_code":9223372036854775808`},
		{"exit code too small", `"exit_code":-7`, `"exit_code":-9223372036854775809`},
		{"exit code leading zero", `"exit_code":-7`, `"exit_code":07`},
		{"exit code plus", `"exit_code":-7`, `"exit_code":+7`},
		{"request an array", `"request":{"files":["a\"b\\c\u00e9\n"],"task":"t","trigger":"commit"}`, `"request":[]`},
		{"gates an object", `"gates":[{`, `"gates":{"a":[{`},
		{"gate null", `"gates":[{`, `"gates":[null,{`},
		{"top level an array", `{"blocked"`, `[{"blocked"`},
		{"number leading zero", `[0,`, `[01,`},
		{"number bare fraction", `0.25`, `.25`},
		{"number empty fraction", `0.25`, `0.`},
		{"number empty exponent", `1E5`, `1E`},
		{"number plus", `[0,`, `[+0,`},
		{"number NaN", `[0,`, `[NaN,`},
		{"number hex", `[0,`, `[0x1,`},
		{"bad literal", `true,false`, `tru,false`},
		{"capital literal", `null`, `Null`},
		{"bad escape", `\"b`, `\xb`},
		{"short unicode escape", `\u00e9`, `\u00e`},
		{"non-hex unicode escape", `\u00e9`, `\u00g9`},
		{"raw newline in string", `"s"`, "\"s\nt\""},
		{"raw tab in key", `"k"`, "\"k\t\""},
		{"raw NUL", `"s"`, "\"s\x00\""},
		{"invalid UTF-8 in mirror", `"cli ✓"`, "\"cli \xff\""},
		{"invalid UTF-8 skipped", `"s"`, "\"s\xc3\""},
		{"UTF-8 surrogate", `"s"`, "\"\xed\xa0\x80\""},
		{"UTF-8 overlong", `"s"`, "\"\xc0\xaf\""},
		{"too deep", `"x":{"n":`, `"x":{"n":` + deep(63) + `,"o":`},
		{"trailing comma in object", `{"k":"v"}`, `{"k":"v",}`},
		{"trailing comma in array", `,{"k":"v"}]`, `,{"k":"v"},]`},
		{"missing colon", `"k":"v"`, `"k""v"`},
		{"missing comma", `true,false`, `true false`},
		{"single quotes", `"s"`, `'s'`},
		{"unterminated object", `{"k":"v"}`, `{"k":"v"`},
	}
	var f quickverify.BodyFields
	for _, c := range cases {
		body := strings.Replace(scanBase, c.old, c.new, 1)
		if body == scanBase {
			t.Errorf("%s: %q is not in the base body", c.name, c.old)
			continue
		}
		if quickverify.ScanBody([]byte(body), &f) {
			t.Errorf("%s: accepted %s", c.name, body)
		}
	}
	for _, body := range append(scanVariants(t), []byte(scanBase)) {
		for n := range len(body) {
			if quickverify.ScanBody(body[:n], &f) {
				t.Errorf("accepted the body cut at %d: %s", n, body[:n])
			}
		}
	}
}

// FuzzScanBody holds scanBody to both parsers: whatever it accepts,
// encoding/json and fastjson accept and read the same fields from.
func FuzzScanBody(f *testing.F) {
	for _, body := range scanVariants(f) {
		f.Add(body)
	}
	f.Add([]byte(scanBase))
	f.Add([]byte(scanMinimal))
	f.Fuzz(func(t *testing.T, body []byte) {
		var fields quickverify.BodyFields
		if !quickverify.ScanBody(body, &fields) {
			return
		}
		if err := scanAgrees(body, &fields); err != nil {
			t.Fatalf("%v\n%q", err, body)
		}
	})
}

// BenchmarkScanBody reads the mirrored fields of stored bodies shaped like
// benchDecisions', with scanBody and, for comparison, with fastjson as the
// quick pass's fastMirror does.
func BenchmarkScanBody(b *testing.B) {
	ds := benchDecisions(1024)
	bodies := make([][]byte, len(ds))
	var total int
	for i, d := range ds {
		bodies[i] = storedBody(b, d)
		total += len(bodies[i])
	}
	b.Run("scan", func(b *testing.B) {
		var f quickverify.BodyFields
		b.SetBytes(int64(total / len(bodies)))
		b.ReportAllocs()
		for i := range b.N {
			if !quickverify.ScanBody(bodies[i%len(bodies)], &f) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("fastjson", func(b *testing.B) {
		var p fastjson.Parser
		b.SetBytes(int64(total / len(bodies)))
		b.ReportAllocs()
		for i := range b.N {
			v, err := p.ParseBytes(bodies[i%len(bodies)])
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for _, k := range []string{"decision_id", "time", "requester", "git_head"} {
				n += len(v.GetStringBytes(k))
			}
			n += len(v.GetStringBytes("request", "trigger")) + len(v.GetStringBytes("request", "task"))
			if v.GetBool("blocked") || v.GetInt64("exit_code") < 0 {
				n++
			}
			for _, g := range v.GetArray("gates") {
				n += len(g.GetStringBytes("name")) + len(g.GetStringBytes("outcome")) + len(g.GetStringBytes("severity"))
				_ = g.GetBool("blocks")
			}
			if n == 0 {
				b.Fatal("no fields")
			}
		}
	})
}
