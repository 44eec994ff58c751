package receipt

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newKey(t *testing.T) Key {
	t.Helper()
	k, err := InitKey(filepath.Join(t.TempDir(), ".tausik", "keys"), false)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func sample() Receipt {
	return Receipt{
		Task: "fix-login", GitSHA: "0123abcd",
		Gates:  []Gate{{Name: "pytest", Passed: true, Severity: "block"}, {Name: "mypy", Passed: false, Severity: "warn"}},
		Passed: true, RanAt: time.Date(2026, 3, 1, 9, 30, 15, 987654321, time.FixedZone("X", 3600)),
		FilesHash: "sha256:aa", GateSignature: "sha256:bb",
	}
}

func TestKeyFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".tausik", "keys")
	k, err := InitKey(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, PrivateKeyFile): 0o600} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Fatalf("%s: mode %v, want %v (%v)", path, fi.Mode().Perm(), want, err)
		}
	}
	if _, err := InitKey(dir, false); !errors.Is(err, ErrKeyExists) {
		t.Fatalf("second init without force: %v", err)
	}
	loaded, err := LoadKey(dir)
	if err != nil || !loaded.Public.Equal(k.Public) || !loaded.Private.Equal(k.Private) {
		t.Fatalf("load: %v", err)
	}
	pub, err := LoadPublicKey(dir)
	if err != nil || !pub.Equal(k.Public) {
		t.Fatalf("load public: %v", err)
	}
	fp := k.Fingerprint()
	if !strings.HasPrefix(fp, "sha256:") || len(fp) != 7+64 || fp != Fingerprint(pub) {
		t.Fatalf("fingerprint %q", fp)
	}
	k2, err := InitKey(dir, true)
	if err != nil || k2.Public.Equal(k.Public) {
		t.Fatalf("forced init: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("temporary files left behind: %v", entries)
	}

	if err := os.Chmod(filepath.Join(dir, PrivateKeyFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKey(dir); !errors.Is(err, ErrKeyPermissions) {
		t.Fatalf("world-readable key: %v", err)
	}
	if _, err := LoadKey(t.TempDir()); !errors.Is(err, ErrNoKey) {
		t.Fatalf("missing key: %v", err)
	}
	// A public key file from another key pair is refused.
	other := filepath.Join(t.TempDir(), "k")
	if _, err := InitKey(other, false); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(dir, PrivateKeyFile), 0o600)
	data, _ := os.ReadFile(filepath.Join(other, PublicKeyFile))
	os.WriteFile(filepath.Join(dir, PublicKeyFile), data, 0o644)
	if _, err := LoadKey(dir); !errors.Is(err, ErrKeyMismatch) {
		t.Fatalf("mismatched public key: %v", err)
	}
	os.WriteFile(filepath.Join(dir, PrivateKeyFile), []byte("junk"), 0o600)
	if _, err := LoadKey(dir); !errors.Is(err, ErrBadKey) {
		t.Fatalf("junk private key: %v", err)
	}
}

func TestCanonicalEncoding(t *testing.T) {
	b, err := Marshal(sample())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"files_hash":"sha256:aa","gate_signature":"sha256:bb","gates":[{"name":"pytest","passed":true,"severity":"block"},` +
		`{"name":"mypy","passed":false,"severity":"warn"}],"git_sha":"0123abcd","key_fingerprint":"","passed":true,` +
		`"ran_at":"2026-03-01T08:30:15Z","schema":"tausik-receipt/v1","task":"fix-login"}`
	if string(b) != want {
		t.Fatalf("canonical form:\n%s\nwant\n%s", b, want)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if hasNumber(v) {
		t.Fatal("a receipt carries a number; only strings and booleans are allowed")
	}
	if _, err := Marshal(Receipt{Task: "x"}); err == nil {
		t.Fatal("receipt without ran_at encoded")
	}
}

func TestSignVerify(t *testing.T) {
	k := newKey(t)
	payload, sig, err := Sign(sample(), k)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Verify(payload, sig, k.Public)
	if err != nil {
		t.Fatal(err)
	}
	if r.Task != "fix-login" || r.KeyFingerprint != k.Fingerprint() || !r.RanAt.Equal(sample().RanAt.Truncate(time.Second)) || len(r.Gates) != 2 {
		t.Fatalf("verified receipt %+v", r)
	}

	// Every single-byte change of the receipt or the signature is detected.
	for i := range payload {
		p := bytes.Clone(payload)
		p[i] ^= 0x01
		if _, err := Verify(p, sig, k.Public); err == nil {
			t.Fatalf("receipt byte %d flipped: still verifies", i)
		} else if !errors.Is(err, ErrBadSignature) && !errors.Is(err, ErrKeyMismatch) {
			t.Fatalf("receipt byte %d flipped: %v", i, err)
		}
	}
	for i := range sig {
		s := bytes.Clone(sig)
		s[i] ^= 0x80
		if _, err := Verify(payload, s, k.Public); !errors.Is(err, ErrBadSignature) {
			t.Fatalf("signature byte %d flipped: %v", i, err)
		}
	}
	other := newKey(t)
	if _, err := Verify(payload, sig, other.Public); !errors.Is(err, ErrKeyMismatch) {
		t.Fatalf("wrong key: %v", err)
	}
	// Signed by another key that claims this key's fingerprint.
	forged := sample()
	forged.KeyFingerprint = k.Fingerprint()
	if _, _, err := Sign(forged, other); !errors.Is(err, ErrKeyMismatch) {
		t.Fatalf("signing with a foreign fingerprint: %v", err)
	}
	if _, err := Verify(payload, sig, ed25519.PublicKey{1, 2}); !errors.Is(err, ErrBadKey) {
		t.Fatalf("short key: %v", err)
	}
	// Validly signed bytes that are not a receipt.
	junk := []byte(`{"hello":"world"}`)
	if _, err := Verify(junk, ed25519.Sign(k.Private, junk), k.Public); !errors.Is(err, ErrNotReceipt) {
		t.Fatalf("signed non-receipt: %v", err)
	}
	// A re-ordered (non-canonical) receipt is not accepted even if signed.
	var m map[string]any
	json.Unmarshal(payload, &m)
	pretty, _ := json.MarshalIndent(m, "", " ")
	if _, err := Verify(pretty, ed25519.Sign(k.Private, pretty), k.Public); !errors.Is(err, ErrNotReceipt) {
		t.Fatalf("non-canonical receipt: %v", err)
	}
}

func TestExportVerifyOffline(t *testing.T) {
	k := newKey(t)
	payload, sig, err := Sign(sample(), k)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := Export(payload, sig, k.Public)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := VerifyExport(exp, nil); err != nil || r.Task != "fix-login" {
		t.Fatalf("unpinned: %v", err)
	}
	if _, err := VerifyExport(exp, k.Public); err != nil {
		t.Fatalf("pinned: %v", err)
	}
	pinned, err := ParsePublicKey([]byte(base64.StdEncoding.EncodeToString(k.Public)))
	if err != nil || !pinned.Equal(k.Public) {
		t.Fatalf("parse base64 key: %v", err)
	}
	other := newKey(t)
	if _, err := VerifyExport(exp, other.Public); !errors.Is(err, ErrKeyMismatch) {
		t.Fatalf("wrong pinned key: %v", err)
	}
	// Re-indenting keeps it valid.
	var pretty bytes.Buffer
	json.Indent(&pretty, exp, "", "  ")
	if _, err := VerifyExport(pretty.Bytes(), k.Public); err != nil {
		t.Fatalf("indented export: %v", err)
	}
	// Changing a value inside the receipt, or the signature, is caught.
	for name, edit := range map[string]func(string) string{
		"task": func(s string) string { return strings.Replace(s, `"task":"fix-login"`, `"task":"fix-logout"`, 1) },
		"passed": func(s string) string {
			return strings.Replace(s, `"passed":true,"ran_at"`, `"passed":false,"ran_at"`, 1)
		},
		"gate": func(s string) string {
			return strings.Replace(s, `"passed":false,"severity":"warn"`, `"passed":true,"severity":"warn"`, 1)
		},
		"signature": func(s string) string {
			i := strings.Index(s, `"signature":"`) + 13
			return s[:i] + flip(s[i]) + s[i+1:]
		},
	} {
		tampered := edit(string(exp))
		if tampered == string(exp) {
			t.Fatalf("%s: edit did not apply", name)
		}
		if _, err := VerifyExport([]byte(tampered), k.Public); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s tampered: %v", name, err)
		}
	}
	// Swapping in another key and re-signing is a key mismatch once pinned.
	p2, s2, _ := Sign(sample(), other)
	exp2, _ := Export(p2, s2, other.Public)
	if _, err := VerifyExport(exp2, k.Public); !errors.Is(err, ErrKeyMismatch) {
		t.Fatalf("re-signed by another key: %v", err)
	}
	for _, junk := range []string{"", "{}", "[1]", `{"receipt":{"a":1},"signature":"AA==","public_key":"` +
		base64.StdEncoding.EncodeToString(k.Public) + `"}`, `{"receipt":"x","signature":"a","public_key":"b"}`, "not json"} {
		if _, err := VerifyExport([]byte(junk), nil); !errors.Is(err, ErrNotReceipt) {
			t.Errorf("%q: %v", junk, err)
		}
	}
	if _, err := VerifyExport([]byte(`{"x":1}`), nil); !errors.Is(err, ErrNotReceipt) {
		t.Fatalf("unrelated JSON: %v", err)
	}
	if _, err := Export(payload, s2, k.Public); err == nil {
		t.Fatal("exported a receipt whose signature does not verify")
	}
}

func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func hasNumber(v any) bool {
	switch x := v.(type) {
	case json.Number:
		return true
	case map[string]any:
		for _, e := range x {
			if hasNumber(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasNumber(e) {
				return true
			}
		}
	}
	return false
}
