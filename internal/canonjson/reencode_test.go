package canonjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// sameAsSlow fails t when Reencode accepts raw and gives other bytes than
// the slow path, or accepts what the slow path refuses; it reports whether
// Reencode accepted.
func sameAsSlow(t *testing.T, raw []byte) bool {
	t.Helper()
	fast, ok := Reencode(raw)
	if !ok {
		return false
	}
	slow, err := decodeObject(raw)
	if err != nil {
		t.Fatalf("Reencode accepted %q, which the slow path refuses: %v", raw, err)
	}
	if !bytes.Equal(fast, slow) {
		t.Fatalf("Reencode(%q)\n got %s\nwant %s", raw, fast, slow)
	}
	return true
}

// decisionLike is a body shaped like the engine's decisions, written by
// encoding/json as the engine writes them (HTML characters escaped, struct
// fields in declaration order).
func decisionLike(n int) []byte {
	type violation struct {
		Msg  string `json:"msg"`
		File string `json:"file"`
		Line int    `json:"line"`
		Rule string `json:"rule"`
	}
	vs := make([]violation, n)
	for i := range vs {
		msg := fmt.Sprintf("a/b%d.py:%d: class C%d has %d public members (max 60; 5 own, 72 more from TestCase): split the class", i, i, i, 60+i)
		if i%50 == 0 { // some messages quote or name HTML characters
			msg = fmt.Sprintf("a/b%d.py:%d: class <C%d> & \"q\" ünï %d\t\u2028 public members", i, i, i, 60+i)
		}
		vs[i] = violation{msg, fmt.Sprintf("a/b%d.py", i), i, "over_cap"}
	}
	b, err := json.Marshal(map[string]any{
		"schema": "tausik-decision/v1", "time": "2026-12-01T21:34:00.214620335Z",
		"gates": []any{map[string]any{"name": "class_surface", "violations": vs, "blocks": true, "timing": 1.5e-3}},
		"z":     nil, "a": []any{}, "m": map[string]any{}, "neg": -0.0, "big": json.Number("123456789012345678901234567890e400"),
	})
	if err != nil {
		panic(err)
	}
	return b
}

func TestReencodeMatchesMarshal(t *testing.T) {
	accepted := []string{
		`{}`, ` {"b":1,"a":2} `, "\n{\"a\":[1,2,{\"d\":true,\"c\":false}],\"b\":null}\r\n",
		`{"k":-0.5e+10,"j":0,"i":-0,"h":1E5,"g":12.25}`,
		`{"s":"\u003cb\u003e \/ \\ \" \n \u0001 \ud83d\ude00 \ud800 \u2028"}`,
		`{"\u0062":1,"a":2}`, `{"é":1,"e":2,"z":{"y":[[],{}]}}`, `{"line":"a` + "\u2029" + `b"}`,
		`{"ab":1,"a":2,"a\u0000":3}`,
	}
	for _, s := range accepted {
		if !sameAsSlow(t, []byte(s)) {
			t.Errorf("Reencode refused %q", s)
		}
	}
	if body := decisionLike(500); !sameAsSlow(t, body) {
		t.Errorf("Reencode refused a decision-shaped body")
	}
	refused := []string{
		``, ` `, `[]`, `"s"`, `{"a":1}x`, `{"a":1}{}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`,
		`{"a":01}`, `{"a":1.}`, `{"a":-}`, `{"a":.5}`, `{"a":1e}`, `{"a":tru}`, `{"a":nul}`,
		`{"a":"x` + "\x01" + `"}`, `{"a":"` + "\xff" + `"}`, `{"a":"\x"}`, `{"a":"unterminated}`,
		`{"a":1,}`, `{,}`, `{"a" 1}`, `{"a":[1,]}`, `{"a":[1 2]}`, `{"a":1`,
		strings.Repeat(`{"a":`, maxDepth+2) + `1` + strings.Repeat(`}`, maxDepth+2),
	}
	for _, s := range refused {
		if sameAsSlow(t, []byte(s)) {
			t.Errorf("Reencode accepted %q", s)
		}
	}
}

func FuzzReencode(f *testing.F) {
	for _, s := range []string{`{}`, `{"b":[1,{"d":"\u00e9","c":null}],"a":-1.5E3}`, `{"a":"\ud800x"}`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Add(decisionLike(3))
	f.Fuzz(func(t *testing.T, raw []byte) {
		sameAsSlow(t, raw)
	})
}

func BenchmarkReencode(b *testing.B) {
	body := decisionLike(3_700)
	b.Run("reencode", func(b *testing.B) {
		for b.Loop() {
			if _, ok := Reencode(body); !ok {
				b.Fatal("refused")
			}
		}
	})
	b.Run("decode+marshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeObject(body); err != nil {
				b.Fatal(err)
			}
		}
	})
}
