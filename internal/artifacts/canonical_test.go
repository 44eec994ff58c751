package artifacts

import "testing"

// canonicalSample is an ADAPT whose front matter holds what the canonical
// content must spell exactly as signatures made before were made over:
// HTML characters, non-ASCII and control characters, an alias, a null,
// numbers and booleans as their text, a nested mapping with a duplicate
// key, unsorted keys and a CRLF body.
const canonicalSample = "---\r\n" +
	"slug: pin\n" +
	"z_last: \"<a href='x'>&amp;</a>\"\n" +
	"anchor: &a {b: 1, a: [x, ~, true, 1.50]}\n" +
	"ref: *a\n" +
	"nested: {k: one, k: two, \"é\": \"\\u2028\\t\\u0001\"}\n" +
	"empty:\n" +
	"list: [\"\", 'q\"uote', null]\n" +
	"---\r\n" +
	"# Body\r\nline two\n"

// TestCanonicalBytesPinned: the canonical content of canonicalSample, byte
// for byte. A change to it breaks every signature already made.
func TestCanonicalBytesPinned(t *testing.T) {
	d, err := Parse("pin.md", []byte(canonicalSample))
	if err != nil {
		t.Fatal(err)
	}
	want := "tausik-renar-adapt/v1\n" +
		`{"anchor":{"a":["x",null,"true","1.50"],"b":"1"},"empty":null,"list":["","q\"uote",null],` +
		`"nested":{"k":"one","k":"two","é":"\u2028\t\u0001"},"ref":{"a":["x",null,"true","1.50"],"b":"1"},` +
		`"slug":"pin","z_last":"\u003ca href='x'\u003e\u0026amp;\u003c/a\u003e"}` + "\n" +
		"# Body\nline two\n"
	if got := Canonical(d); string(got) != want {
		t.Fatalf("canonical content changed:\n%s\nwant\n%s", got, want)
	}
}
