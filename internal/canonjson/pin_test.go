package canonjson

import "testing"

// TestBytesPinned: the bytes each encoder gives for one sample holding what
// they must spell alike forever (keys out of order, HTML characters,
// non-ASCII, control characters, U+2028, numbers as written, nesting, a
// key given twice). A change here changes the hashes of logs already
// written and breaks signatures already made.
func TestBytesPinned(t *testing.T) {
	type row struct {
		A string  `json:"a"`
		B []int64 `json:"b"`
		C any     `json:"c"`
	}
	sample := map[string]any{
		"z": "<a & b> é \u2028 \x01 \"q\" \\", "a": []any{int64(1), 2.5, true, nil, map[string]any{"y": "", "x": []any{}}},
		"m": row{A: "é", B: []int64{-3, 0}, C: map[string]any{}},
	}
	members := Members{{"k", "two"}, {"é", "<"}, {"k", "one"}, {"a", Members{{"z", nil}, {"b", []any{"&"}}}}}
	for _, c := range []struct {
		name string
		enc  func() ([]byte, error)
		want string
	}{
		{"Marshal", func() ([]byte, error) { return Marshal(sample) },
			`{"a":[1,2.5,true,null,{"x":[],"y":""}],"m":{"a":"é","b":[-3,0],"c":{}},"z":"<a & b> é \u2028 \u0001 \"q\" \\"}`},
		{"MarshalEscaped", func() ([]byte, error) { return MarshalEscaped(sample) },
			`{"a":[1,2.5,true,null,{"x":[],"y":""}],"m":{"a":"é","b":[-3,0],"c":{}},"z":"\u003ca \u0026 b\u003e é \u2028 \u0001 \"q\" \\"}`},
		{"Object", func() ([]byte, error) {
			return Object([]byte(" {\"b\": 1.50, \"a\": {\"d\": [1e3, -0], \"c\": \"<\\u00e9>\"}}\n"))
		},
			`{"a":{"c":"<é>","d":[1e3,-0]},"b":1.50}`},
		{"Members", func() ([]byte, error) { return Marshal(members) },
			`{"a":{"b":["&"],"z":null},"k":"two","k":"one","é":"<"}`},
		{"Members escaped", func() ([]byte, error) { return MarshalEscaped(members) },
			`{"a":{"b":["\u0026"],"z":null},"k":"two","k":"one","é":"\u003c"}`},
	} {
		got, err := c.enc()
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %s (%v)\nwant %s", c.name, got, err, c.want)
		}
	}
}
