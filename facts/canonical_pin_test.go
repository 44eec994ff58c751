package facts

import "testing"

// TestCanonicalBytesPinned: the bytes the facts' encoder gives for one
// sample (keys out of order, HTML characters, non-ASCII, control
// characters, U+2028, integers, floats in both notations, nesting), plain
// and typed. A change here changes every facts digest, and so every reused
// verdict's key.
func TestCanonicalBytesPinned(t *testing.T) {
	sample := map[string]any{
		"z": "<a & b> é \u2028 \x01 \"q\" \\", "n": []any{int64(-7), 1.0, 2.5, 1e21, 1.5e-7, -0.0, true, nil},
		"a": map[string]any{"y": "", "x": []any{}},
	}
	got, err := Canonical(sample)
	want := `{"a":{"x":[],"y":""},"n":[-7,1,2.5,1e+21,1.5e-7,0,true,null],"z":"<a & b> é \u2028 \u0001 \"q\" \\"}`
	if err != nil || string(got) != want {
		t.Errorf("Canonical: %s (%v)\nwant %s", got, err, want)
	}
	typed, ok := AppendTyped(nil, sample)
	want = `{"a":{"x":[],"y":""},"n":[-7,1.0,2.5,1e+21,1.5e-7,0.0,true,null],"z":"<a & b> é \u2028 \u0001 \"q\" \\"}`
	if !ok || string(typed) != want {
		t.Errorf("AppendTyped: %s (%v)\nwant %s", typed, ok, want)
	}
	if _, ok := AppendTyped(nil, []any{"\xff"}); ok {
		t.Error("AppendTyped took a string that is not UTF-8")
	}
	if _, ok := AppendTyped(nil, map[string]any{"\xff": int64(1)}); ok {
		t.Error("AppendTyped took a key that is not UTF-8")
	}
}
