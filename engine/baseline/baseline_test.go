package baseline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/policy"
)

const goodFile = `{
  "format": "tausik-baseline/v1",
  "entries": [
    {"gate": "filesize", "rule": "", "file": "big.py", "key": "big.py", "quantity": 900, "commit": "0123456789abcdef0123"},
    {"gate": "ruff", "rule": "E501", "file": "a.py", "key": "line too long (# > #)", "quantity": 2, "commit": ""}
  ]
}
`

func TestParseGood(t *testing.T) {
	bl, err := Parse([]byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(bl.Entries) != 2 || bl.Entries[0].Quantity != 900 || bl.Entries[1].Rule != "E501" {
		t.Errorf("entries = %+v", bl.Entries)
	}
}

func TestParseBadInput(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"not JSON", "{\n  \"format\": \"tausik-baseline/v1\",\n  \"entries\": [,]\n}\n", "tausik/baseline.json:3: invalid JSON"},
		{"cut short", "{\n  \"format\": \"tausik-baseline/v1\",\n  \"entries\": [\n", "tausik/baseline.json:4: invalid JSON"},
		{"repeated key", "{\n  \"format\": \"tausik-baseline/v1\",\n  \"format\": \"x\",\n  \"entries\": []\n}\n", "tausik/baseline.json:3: invalid JSON"},
		{"unknown key", "{\n  \"format\": \"tausik-baseline/v1\",\n  \"entries\": [],\n  \"extra\": 1\n}\n", `tausik/baseline.json:4: json: unknown field "extra"`},
		{"wrong type", "{\n  \"format\": \"tausik-baseline/v1\",\n  \"entries\": [\n    {\"gate\": \"g\", \"key\": \"k\", \"quantity\": \"2\"}\n  ]\n}\n", "tausik/baseline.json:4: json: cannot unmarshal string"},
		{"another format", "{\n  \"format\": \"tausik-baseline/v2\",\n  \"entries\": []\n}\n", `tausik/baseline.json:2: format: want "tausik-baseline/v1", got "tausik-baseline/v2"`},
		{"no gate", "{\"format\": \"tausik-baseline/v1\", \"entries\": [\n  {\"gate\": \" \", \"key\": \"k\", \"quantity\": 1}\n]}\n", "tausik/baseline.json:2: entries[0].gate: empty"},
		{"no key", "{\"format\": \"tausik-baseline/v1\", \"entries\": [\n  {\"gate\": \"g\",\n   \"key\": \"\", \"quantity\": 1}\n]}\n", "tausik/baseline.json:3: entries[0].key: empty"},
		{"zero quantity", "{\"format\": \"tausik-baseline/v1\", \"entries\": [\n  {\"gate\": \"g\", \"key\": \"k\",\n   \"quantity\": 0}\n]}\n", "tausik/baseline.json:3: entries[0].quantity: want a positive whole number, got 0"},
		{"negative quantity", "{\"format\": \"tausik-baseline/v1\", \"entries\": [\n  {\"gate\": \"g\", \"key\": \"k\", \"quantity\": -3}\n]}\n", "got -3"},
		{"listed twice", "{\"format\": \"tausik-baseline/v1\", \"entries\": [\n  {\"gate\": \"g\", \"file\": \"f\", \"key\": \"k\", \"quantity\": 1},\n  {\"gate\": \"g\", \"file\": \"f\", \"key\": \"k\", \"quantity\": 2}\n]}\n",
			"tausik/baseline.json:3: entries[1]: g k is listed twice (first entries[0]); keep one"},
	}
	for _, tc := range cases {
		bl, err := Parse([]byte(tc.text))
		if err == nil || bl != nil {
			t.Errorf("%s: Parse = %+v, nil; want an error", tc.name, bl)
			continue
		}
		if !errors.Is(err, diag.ErrConfig) {
			t.Errorf("%s: error %v is not a configuration error", tc.name, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q, want it to hold %q", tc.name, err, tc.want)
		}
	}
}

func TestParseReportsEveryProblem(t *testing.T) {
	text := "{\"format\": \"x\", \"entries\": [\n  {\"gate\": \"\", \"key\": \"k\", \"quantity\": 1},\n  {\"gate\": \"g\", \"key\": \"k\", \"quantity\": 0}\n]}\n"
	_, err := Parse([]byte(text))
	var d *diag.Diagnostics
	if !errors.As(err, &d) || len(d.Items) != 3 {
		t.Fatalf("err = %v, want three diagnostics (format, gate, quantity)", err)
	}
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	bl, err := Load(root)
	if bl != nil || err != nil {
		t.Errorf("no baseline: Load = %v, %v; want nil, nil", bl, err)
	}
	if err := os.MkdirAll(filepath.Join(root, "tausik"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, Path), []byte(goodFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if bl, err := Load(root); err != nil || len(bl.Entries) != 2 {
		t.Errorf("Load = %+v, %v; want two entries", bl, err)
	}
	if err := os.WriteFile(filepath.Join(root, Path), []byte("{\n\"format\": 1}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(root); err == nil || !strings.HasPrefix(err.Error(), "tausik/baseline.json:2: ") {
		t.Errorf("bad file: Load error %v, want it located at tausik/baseline.json:2", err)
	}
}

func TestEncodeIsCanonical(t *testing.T) {
	a := Entry{Gate: "ruff", Rule: "E501", File: "a.py", Key: "k", Quantity: 1}
	b := Entry{Gate: "filesize", File: "b.py", Key: "b.py", Quantity: 3}
	c := Entry{Gate: "ruff", Rule: "E501", File: "a.py", Key: "j", Quantity: 2}
	x, err := (&File{Entries: []Entry{a, b, c}}).Encode()
	if err != nil {
		t.Fatal(err)
	}
	y, _ := (&File{Format: "ignored", Entries: []Entry{c, a, b}}).Encode()
	if string(x) != string(y) {
		t.Errorf("the order of entries changes the bytes:\n%s\n%s", x, y)
	}
	if !strings.HasSuffix(string(x), "}\n") || strings.HasSuffix(string(x), "\n\n") || !strings.Contains(string(x), "\n  \"entries\": [\n    {\n") {
		t.Errorf("not two-space indented with one trailing newline:\n%s", x)
	}
	back, err := Parse(x)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Entries) != 3 || back.Entries[0] != b || back.Entries[1] != c || back.Entries[2] != a {
		t.Errorf("round trip = %+v, want sorted by gate, rule, file, key", back.Entries)
	}
	empty, _ := (&File{}).Encode()
	if !strings.Contains(string(empty), `"entries": []`) || !strings.Contains(string(empty), Format) {
		t.Errorf("empty baseline = %s", empty)
	}
}

func TestFingerprintOf(t *testing.T) {
	cases := []struct {
		v    policy.Violation
		want Fingerprint
	}{
		{policy.Violation{Msg: "a.py:12:4: line too long (130 > 88)", File: "a.py", Rule: "E501"},
			Fingerprint{"g", "E501", "a.py", "a.py:#:#: line too long (# > #)"}},
		{policy.Violation{Msg: "E501 and W2 stay, 3.5 goes", File: "a.py"}, Fingerprint{"g", "", "a.py", "E501 and W2 stay, # goes"}},
		{policy.Violation{Msg: "120 lines", File: "a.py", Key: "a.py", Quantity: 120}, Fingerprint{"g", "", "a.py", "a.py"}},
		{policy.Violation{Msg: "3 findings; grew from 1 to 3 findings (baseline …)", File: "a.py"}, Fingerprint{"g", "", "a.py", "# findings"}},
	}
	for _, tc := range cases {
		if got := FingerprintOf("g", tc.v); got != tc.want {
			t.Errorf("FingerprintOf(%q) = %+v, want %+v", tc.v.Msg, got, tc.want)
		}
	}
}

func TestFingerprintString(t *testing.T) {
	for _, tc := range []struct {
		fp   Fingerprint
		want string
	}{
		{Fingerprint{"filesize", "", "a.py", "a.py"}, "filesize a.py"},
		{Fingerprint{"ruff", "E501", "a.py", "long line"}, "ruff/E501 long line"},
		{Fingerprint{"ruff", "E501", "a.py", ""}, "ruff/E501 a.py"},
	} {
		if got := tc.fp.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.fp, got, tc.want)
		}
	}
}

func TestEntries(t *testing.T) {
	vs := []policy.Violation{
		{Msg: "a.py:1: x", File: "a.py", Rule: "R"},
		{Msg: "a.py:9: x", File: "a.py", Rule: "R"},
		{Msg: "class Meta has 30 members", File: "m.py", Key: "m.py:Meta", Quantity: 30, Line: 50},
		{Msg: "class Meta has 12 members", File: "m.py", Key: "m.py:Meta", Quantity: 12, Line: 5},
		{Msg: "stale", File: "a.py", Rule: RuleStale, Key: "k"},
	}
	got := Entries("class_surface", vs, "abc")
	want := []Entry{
		{Gate: "class_surface", Rule: "R", File: "a.py", Key: "a.py:#: x", Quantity: 2, Commit: "abc"},
		// By line: the class at line 5 keeps the key, the one at line 50 is #2.
		{Gate: "class_surface", File: "m.py", Key: "m.py:Meta#2", Quantity: 30, Commit: "abc"},
		{Gate: "class_surface", File: "m.py", Key: "m.py:Meta", Quantity: 12, Commit: "abc"},
	}
	if len(got) != len(want) {
		t.Fatalf("Entries = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Entries[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	Sort(got) // by gate, rule ("" first), file, key
	if got[0].Key != "m.py:Meta" || got[1].Key != "m.py:Meta#2" || got[2].Key != "a.py:#: x" {
		t.Errorf("Sort = %+v", got)
	}
}

func holdFile() *File {
	return &File{Format: Format, Entries: []Entry{
		{Gate: "filesize", File: "big.py", Key: "big.py", Quantity: 900, Commit: "0123456789abcdef0123"},
		{Gate: "filesize", File: "mid.py", Key: "mid.py", Quantity: 500},
		{Gate: "filesize", File: "gone.py", Key: "gone.py", Quantity: 400},
		{Gate: "ruff", Rule: "E501", File: "a.py", Key: "long", Quantity: 1},
	}}
}

func TestHold(t *testing.T) {
	fs := &Verdict{Gate: "filesize", Ran: true, Violations: []policy.Violation{
		{Msg: "big.py has 950 lines", File: "big.py", Key: "big.py", Quantity: 950},
		{Msg: "mid.py has 450 lines", File: "mid.py", Key: "mid.py", Quantity: 450},
		{Msg: "new.py has 700 lines", File: "new.py", Key: "new.py", Quantity: 700},
	}}
	ruff := &Verdict{Gate: "ruff", Ran: false}
	warnings := Hold(holdFile(), []*Verdict{fs, ruff}, nil, false, func(string) string { return "warn" })
	big, mid, nw := fs.Violations[0], fs.Violations[1], fs.Violations[2]
	if big.State != "" || big.Msg != "big.py has 950 lines; grew from 900 to 950 lines (baseline filesize big.py in tausik/baseline.json, taken at 0123456789ab)" {
		t.Errorf("grown violation = %+v", big)
	}
	if mid.State != State || mid.Msg != "mid.py has 450 lines" {
		t.Errorf("held violation = %+v, want %q and its message as is", mid, State)
	}
	if nw.State != "" || nw.Msg != "new.py has 700 lines" {
		t.Errorf("new violation = %+v, want it untouched", nw)
	}
	want := []string{
		"baseline filesize mid.py shrank from 500 to 450 lines: run `tausik baseline --update` to lower tausik/baseline.json so it cannot grow back",
		"baseline filesize gone.py is gone: run `tausik baseline --update` to lower tausik/baseline.json so it cannot grow back",
	}
	if strings.Join(warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings =\n%s\nwant (ruff did not run: none of its entries)\n%s", strings.Join(warnings, "\n"), strings.Join(want, "\n"))
	}
	if fs.Failed {
		t.Error("stale entries in warn mode failed the gate")
	}
	// Held again (a verdict reused from the log): the note is not doubled.
	Hold(holdFile(), []*Verdict{fs}, nil, false, func(string) string { return "warn" })
	if n := strings.Count(fs.Violations[0].Msg, growMark); n != 1 {
		t.Errorf("after a second Hold the message notes growth %d times: %q", n, fs.Violations[0].Msg)
	}
}

func TestHoldStaleBlocks(t *testing.T) {
	fs := &Verdict{Gate: "filesize", Ran: true, Violations: []policy.Violation{
		{Msg: "big.py has 900 lines", File: "big.py", Key: "big.py", Quantity: 900},
		{Msg: "old stale", File: "x", Rule: RuleStale, Key: "x"},
	}}
	warnings := Hold(holdFile(), []*Verdict{fs}, []string{"big.py", "gone.py"}, true, func(g string) string { return "block" })
	if len(warnings) != 0 {
		t.Errorf("block mode warned: %q", warnings)
	}
	if !fs.Failed || len(fs.Violations) != 2 {
		t.Fatalf("verdict = %+v, want failed with the held one and one stale violation (the old stale one gone; mid.py not named)", fs)
	}
	if fs.Violations[0].State != State {
		t.Errorf("at its quantity: %+v, want %s", fs.Violations[0], State)
	}
	st := fs.Violations[1]
	if st.Rule != RuleStale || st.File != "gone.py" || st.Key != "gone.py" || !strings.HasPrefix(st.Msg, "baseline filesize gone.py is gone") {
		t.Errorf("stale violation = %+v", st)
	}
}

func TestHoldKeepsPolicyState(t *testing.T) {
	v := &Verdict{Gate: "ruff", Ran: true, Violations: []policy.Violation{{Msg: "long", File: "a.py", Rule: "E501", State: "waived"}}}
	Hold(&File{Entries: []Entry{{Gate: "ruff", Rule: "E501", File: "a.py", Key: "long", Quantity: 1}}}, []*Verdict{v}, nil, false, func(string) string { return "warn" })
	if v.Violations[0].State != "waived" {
		t.Errorf("state = %q, want the one it had", v.Violations[0].State)
	}
}
