package decisionlog

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sameMirror fails t when mirrorOf and parseMirror disagree on the
// canonical form of raw (which must canonicalise); it reports whether
// slimBody walked it.
func sameMirror(t *testing.T, raw string) bool {
	t.Helper()
	body, err := canonicalBody([]byte(raw))
	if err != nil {
		t.Fatalf("canonicalBody(%q): %v", raw, err)
	}
	got, gotErr := mirrorOf(body)
	want, wantErr := parseMirror(body)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Fatalf("body %s\nmirrorOf:    %+v, %v\nparseMirror: %+v, %v", body, got, gotErr, want, wantErr)
	}
	_, slim := slimBody(body)
	return slim
}

func TestSlimBodyKeepsTheMirror(t *testing.T) {
	violations := func(n int) string {
		var vs []string
		for i := range n {
			vs = append(vs, fmt.Sprintf(`{"msg":"a.py:%d: \"violations\": [ { } ] , : \\ %d","file":"a.py","line":%d,"rule":"over_cap"}`, i, i, i))
		}
		return "[" + strings.Join(vs, ",") + "]"
	}
	head := `"decision_id":"01M8SRERGPMGDGXN6THXYDT401","time":"2026-12-01T21:34:00Z","requester":"cli","git_head":"","blocked":true,"exit_code":1,"request":{"trigger":"commit","task":""}`
	walked := []string{
		`{` + head + `,"gates":[{"name":"g","outcome":"FAILED","severity":"block","blocks":true,"violations":` + violations(50) + `,"reasons":[]}],"warnings":[]}`,
		`{` + head + `,"gates":[{"violations":[],"name":"a","outcome":"PASSED","severity":"warn","blocks":false},{"name":"b","outcome":"FAILED","severity":"block","blocks":true,"violations":` + violations(3) + `}]}`,
		`{` + head + `,"gates":[]}`,
		`{"gates":[{"name":5,"violations":[1]}]}`,         // a type error, the same one
		`{"gates":[{"Name":"x","VIOLATIONS":[{"a":1}]}]}`, // folded keys: kept
		`{"gates":[7,"s",null,[{"violations":1}],{}]}`,    // entries that are not objects
		`{"gates":[{"violations":{"name":"inner"}}],"z":1}`,
		`{"gates":[{"violations":[{"msg":"ends in a backslash \\"},{"msg":"\\\"]},"}],"name":"n"}]}`,
		`{"a":{"gates":[]},"gates":[{"outcome":"FAILED"}]}`,
	}
	for _, raw := range walked {
		if !sameMirror(t, raw) {
			t.Errorf("slimBody did not walk %s", raw)
		}
	}
	for _, raw := range []string{`{}`, `{"gates":null}`, `{"gates":{"violations":[]}}`, `{` + head + `}`} {
		if sameMirror(t, raw) {
			t.Errorf("slimBody walked %s, which has no gates list", raw)
		}
	}
	// What is left out is each gate's violations list, and nothing else.
	body, _ := canonicalBody([]byte(walked[1]))
	slim, _ := slimBody(body)
	without := strings.Replace(strings.Replace(walked[1], `"violations":[],`, "", 1), `,"violations":`+violations(3), "", 1)
	if want, _ := canonicalBody([]byte(without)); string(slim) != string(want) {
		t.Errorf("slimBody\n got %s\nwant %s", slim, want)
	}
}

func FuzzSlimBody(f *testing.F) {
	f.Add(`{"gates":[{"name":"g","violations":[{"msg":"\"]}"}],"blocks":true}],"time":"t"}`)
	f.Add(`{"gates":[1,{"violations":null}]}`)
	f.Fuzz(func(t *testing.T, raw string) {
		if _, err := canonicalBody([]byte(raw)); err == nil {
			sameMirror(t, raw)
		}
	})
}

// BenchmarkMirrorOf reads the mirror of a canonical body of 3,700
// violations, the standard library's class_surface decision: whole / slim.
func BenchmarkMirrorOf(b *testing.B) {
	var vs []string
	for i := range 3_700 {
		vs = append(vs, fmt.Sprintf(`{"file":"test/test_m%d.py","line":%d,"msg":"test/test_m%d.py:%d: class T%d has 77 public members (max 60; 5 own, 72 more from TestCase): split the class, or compose instead of inherit","rule":"over_cap"}`, i, i, i, i, i))
	}
	raw := `{"blocked":true,"decision_id":"01M8SRERGPMGDGXN6THXYDT401","exit_code":1,"gates":[{"blocks":true,"name":"class_surface","outcome":"FAILED","severity":"block","violations":[` +
		strings.Join(vs, ",") + `]}],"git_head":"","request":{"task":"","trigger":"commit"},"requester":"cli","time":"2026-12-01T21:34:00Z"}`
	body, err := canonicalBody([]byte(raw))
	if err != nil {
		b.Fatal(err)
	}
	for name, read := range map[string]func([]byte) (*bodyMirror, error){"parseMirror": parseMirror, "mirrorOf": mirrorOf} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := read(body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
