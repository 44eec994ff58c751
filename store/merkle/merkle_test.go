package merkle

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// memHashes is a map backend of Hashes for the package's own tests.
type memHashes map[int64]tlog.Hash

func (m memHashes) ReadHashes(_ context.Context, idx []int64) ([]tlog.Hash, error) {
	out := make([]tlog.Hash, len(idx))
	for i, x := range idx {
		h, ok := m[x]
		if !ok {
			return nil, fmt.Errorf("%w: %d", ErrMissingHash, x)
		}
		out[i] = h
	}
	return out, nil
}

func (m memHashes) WriteHashes(_ context.Context, start int64, hs []tlog.Hash) error {
	for i, h := range hs {
		if _, dup := m[start+int64(i)]; dup {
			return fmt.Errorf("index %d written twice", start+int64(i))
		}
		m[start+int64(i)] = h
	}
	return nil
}

func records(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = fmt.Appendf(nil, `{"decision_id":"D%03d","n":%d}`, i, i)
	}
	return out
}

func TestAppendMatchesBuilderAndProofsCheck(t *testing.T) {
	ctx := context.Background()
	m := memHashes{}
	var b Builder
	recs := records(37)
	for i, r := range recs {
		if _, err := Append(ctx, m, int64(i), r); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Add(r); err != nil {
			t.Fatal(err)
		}
		n := int64(i + 1)
		if int64(len(m)) != tlog.StoredHashCount(n) {
			t.Fatalf("size %d: %d stored hashes, want %d", n, len(m), tlog.StoredHashCount(n))
		}
		root, err := Root(ctx, m, n)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := b.Root(n); root != want {
			t.Fatalf("size %d: root %v, builder %v", n, root, want)
		}
	}
	n := int64(len(recs))
	root, _ := Root(ctx, m, n)
	for i, r := range recs {
		p, err := ProveRecord(ctx, m, int64(i), n)
		if err != nil {
			t.Fatal(err)
		}
		if err := tlog.CheckRecord(p, n, root, int64(i), tlog.RecordHash(r)); err != nil {
			t.Fatalf("leaf %d: %v", i, err)
		}
		if err := tlog.CheckRecord(p, n, root, int64(i), tlog.RecordHash(append(r, ' '))); err == nil {
			t.Fatalf("leaf %d: an edited record still proves", i)
		}
	}
	old, _ := Root(ctx, m, 20)
	tp, err := ProveTree(ctx, m, 20, n)
	if err != nil {
		t.Fatal(err)
	}
	if err := tlog.CheckTree(tp, n, root, 20, old); err != nil {
		t.Fatal(err)
	}
	delete(m, tlog.StoredHashIndex(5, 0)) // the 32-leaf subtree a root of 37 reads
	if _, err := Root(ctx, m, n); !errors.Is(err, ErrMissingHash) {
		t.Fatalf("root over a tree missing a hash: %v", err)
	}
}

func testSigner(t testing.TB, name string) (*Signer, ed25519.PublicKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSigner(name, priv)
	if err != nil {
		t.Fatal(err)
	}
	return s, pub
}

func TestCheckpointRoundTripAndSignatures(t *testing.T) {
	s, pub := testSigner(t, "example.com/log")
	other, otherPub := testSigner(t, "example.com/log")
	c := Checkpoint{Origin: "example.com/log", Size: 42, Root: tlog.RecordHash([]byte("x"))}
	msg, err := Sign(c, s)
	if err != nil {
		t.Fatal(err)
	}
	want := "example.com/log\n42\n" + base64.StdEncoding.EncodeToString(c.Root[:]) + "\n\n— example.com/log "
	if !strings.HasPrefix(string(msg), want) {
		t.Fatalf("not a C2SP checkpoint note:\n%s", msg)
	}
	// Without trusted keys: parsed, not checked.
	o, err := Open(msg)
	if err != nil || o.Size != 42 || o.Root != c.Root || o.Origin != c.Origin || len(o.VerifierKeys) != 0 {
		t.Fatalf("open unverified: %+v %v", o, err)
	}
	vt, err := ParseTrusted(s.VerifierKey())
	if err != nil {
		t.Fatal(err)
	}
	for name, trusted := range map[string]Trusted{"verifier key": vt, "bare key": {Public: pub}} {
		o, err := Open(msg, trusted)
		if err != nil || len(o.VerifierKeys) != 1 || o.VerifierKeys[0] != s.VerifierKey() {
			t.Fatalf("%s: %+v %v", name, o.VerifierKeys, err)
		}
	}
	ot, _ := ParseTrusted(other.VerifierKey())
	for name, trusted := range map[string]Trusted{"other verifier key": ot, "other bare key": {Public: otherPub}} {
		if _, err := Open(msg, trusted); !errors.Is(err, ErrBadSignature) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	edited := strings.Replace(string(msg), "\n42\n", "\n43\n", 1)
	if _, err := Open([]byte(edited), vt); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("edited size still verifies: %v", err)
	}
	for _, bad := range []string{"", "hello\n", "example.com/log\n42\n\n— x abc\n",
		strings.Replace(string(msg), "\n42\n", "\n042\n", 1), strings.Replace(string(msg), "\n42\n", "\n-1\n", 1)} {
		if _, err := Open([]byte(bad)); !errors.Is(err, ErrNotCheckpoint) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := NewSigner("two words", nil); !errors.Is(err, ErrBadOrigin) {
		t.Fatalf("bad origin accepted: %v", err)
	}
}

func TestNoteSignerKey(t *testing.T) {
	skey, vkey, err := note.GenerateKey(rand.Reader, "ci.example.com/tausik")
	if err != nil {
		t.Fatal(err)
	}
	s, gotV, err := ParseSignerKey(skey)
	if err != nil || gotV != vkey {
		t.Fatalf("ParseSignerKey: %q %v, want %q", gotV, err, vkey)
	}
	msg, err := Sign(Checkpoint{Origin: "example.com/app", Size: 1, Root: tlog.RecordHash(nil)}, s)
	if err != nil {
		t.Fatal(err)
	}
	vt, _ := ParseTrusted(vkey)
	if _, err := Open(msg, vt); err != nil {
		t.Fatal(err)
	}
}

// bundleFixture proves record 3 of 10 against a checkpoint signed by s.
func bundleFixture(t testing.TB, s *Signer) []byte {
	t.Helper()
	ctx := context.Background()
	m := memHashes{}
	recs := records(10)
	for i, r := range recs {
		if _, err := Append(ctx, m, int64(i), r); err != nil {
			t.Fatal(err)
		}
	}
	root, _ := Root(ctx, m, 10)
	msg, err := Sign(Checkpoint{Origin: "example.com/log", Size: 10, Root: root}, s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ProveRecord(ctx, m, 3, 10)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBundle("D003", 3, recs[3], p, msg, s.VerifierKey())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBundleOffline(t *testing.T) {
	s, pub := testSigner(t, "example.com/log")
	_, otherPub := testSigner(t, "example.com/log")
	b := bundleFixture(t, s)
	if v, err := VerifyBundle(b, nil); err != nil || v.Pinned || v.Index != 3 || v.Checkpoint.Size != 10 {
		t.Fatalf("valid bundle: %+v %v", v, err)
	}
	if v, err := VerifyBundle(b, []Trusted{{Public: pub}}); err != nil || !v.Pinned {
		t.Fatalf("valid bundle, pinned: %v", err)
	}
	edit := func(f func(*Bundle)) []byte {
		var x Bundle
		if err := json.Unmarshal(b, &x); err != nil {
			t.Fatal(err)
		}
		f(&x)
		out, _ := json.Marshal(x)
		return out
	}
	for name, data := range map[string][]byte{
		"decision bytes edited": edit(func(x *Bundle) { x.Record = strings.Replace(x.Record, `"n":3`, `"n":4`, 1) }),
		"decision re-encoded":   edit(func(x *Bundle) { x.Record = strings.Replace(x.Record, `,`, `, `, 1) }),
		"another decision id":   edit(func(x *Bundle) { x.DecisionID = "D004" }),
		"proof edited":          edit(func(x *Bundle) { x.Proof[1] = x.Proof[0] }),
		"proof shortened":       edit(func(x *Bundle) { x.Proof = x.Proof[1:] }),
		"index moved":           edit(func(x *Bundle) { x.Index = 2 }),
		"index past the end":    edit(func(x *Bundle) { x.Index = 10 }),
		"checkpoint size":       edit(func(x *Bundle) { x.Checkpoint = strings.Replace(x.Checkpoint, "\n10\n", "\n11\n", 1) }),
	} {
		if _, err := VerifyBundle(data, nil); !errors.Is(err, ErrInvalidBundle) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A checkpoint from another key: fine on its own terms, refused when pinned.
	if _, err := VerifyBundle(b, []Trusted{{Public: otherPub}}); !errors.Is(err, ErrInvalidBundle) || !errors.Is(err, ErrBadSignature) {
		t.Fatalf("another key: %v", err)
	}
	forger, _ := testSigner(t, "example.com/log")
	swapped := edit(func(x *Bundle) { x.VerifierKey = forger.VerifierKey() })
	if _, err := VerifyBundle(swapped, nil); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("embedded key swapped: %v", err)
	}
	for _, junk := range []string{"", "{}", `{"schema":"other"}`, "not json", string(b) + "{}", `{"schema":"tausik-inclusion-proof/v1","x":1}`} {
		if _, err := VerifyBundle([]byte(junk), nil); !errors.Is(err, ErrNotBundle) {
			t.Errorf("%q: %v", junk, err)
		}
	}
}

func TestAnchorsAgainstTree(t *testing.T) {
	var b, forged Builder
	for i, r := range records(12) {
		b.Add(r)
		if i == 6 {
			r = []byte(`{"forged":true}`)
		}
		forged.Add(r)
	}
	anchor := func(t Tree, n int64) Anchor {
		root, _ := t.Root(n)
		return Anchor{Name: fmt.Sprint(n), Opened: Opened{Checkpoint: Checkpoint{Origin: "o", Size: n, Root: root}}}
	}
	res, err := CheckAnchors(&forged, []Anchor{anchor(&b, 12), anchor(&b, 4), anchor(&b, 15)})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Kind != AnchorRewritten || res[0].First != 5 || res[0].Last != 12 {
		t.Errorf("rewritten: %+v", res[0])
	}
	if res[1].Kind != AnchorOK {
		t.Errorf("prefix: %+v", res[1])
	}
	// 15 > 12: the forged log is shorter than this checkpoint.
	if res[2].Kind != AnchorTruncated || res[2].First != 13 {
		t.Errorf("truncated: %+v", res[2])
	}
	res, _ = CheckAnchors(&b, []Anchor{anchor(&forged, 9), anchor(&b, 12)})
	if res[0].Kind != AnchorFork || res[1].Kind != AnchorOK {
		t.Errorf("a checkpoint of another history: %+v", res)
	}
}

// BenchmarkVerifyBundle measures `log verify-proof`'s work: parse the
// bundle, check the checkpoint's signature and the inclusion proof.
func BenchmarkVerifyBundle(b *testing.B) {
	s, _ := testSigner(b, "example.com/log")
	data := bundleFixture(b, s)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := VerifyBundle(data, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAddHashMatchesTlog holds Builder.AddHash, which builds the stored
// hashes itself, to what tlog.StoredHashesForRecordHash gives for every
// leaf of trees up to 1,100 leaves (every shape of trailing ones up to 2^10).
func TestAddHashMatchesTlog(t *testing.T) {
	var b Builder
	var want []tlog.Hash
	for n := range int64(1100) {
		leaf := tlog.RecordHash([]byte(fmt.Sprint("record ", n)))
		hs, err := tlog.StoredHashesForRecordHash(n, leaf, tlog.HashReaderFunc(func(idx []int64) ([]tlog.Hash, error) {
			out := make([]tlog.Hash, len(idx))
			for i, x := range idx {
				out[i] = want[x]
			}
			return out, nil
		}))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, hs...)
		if err := b.AddHash(leaf); err != nil {
			t.Fatal(err)
		}
		if len(b.Stored) != len(want) || b.Stored[len(want)-1] != want[len(want)-1] {
			t.Fatalf("leaf %d: %d stored hashes, tlog has %d", n, len(b.Stored), len(want))
		}
	}
	for i := range want {
		if b.Stored[i] != want[i] {
			t.Fatalf("stored hash %d differs from tlog's", i)
		}
	}
}
