package artifacts

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// signedRepo is a project with a SPEC and an ADAPT signed by a fresh key.
func signedRepo(t *testing.T) (Repo, ed25519.PrivateKey) {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	r := Repo{Root: t.TempDir(), Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }}
	if _, err := r.CreateSpec(NewSpec{Slug: "s", Type: "API", Title: "t"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.CreateAdapt(NewAdapt{Slug: "a", Spec: "s"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Sign("a", "architect", "alice", key); err != nil {
		t.Fatal(err)
	}
	return r, key
}

// checks returns the signature checks of ADAPT a as the runner sees them.
func checks(t *testing.T, r Repo) []Signature {
	t.Helper()
	d, a, err := r.LoadAdapt("a")
	if err != nil {
		t.Fatal(err)
	}
	ring, problems := LoadKeyring(r.Root)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	ring.Verify(d, &a)
	return a.Signatures
}

func edit(t *testing.T, r Repo, from, to string) {
	t.Helper()
	p := filepath.Join(r.Root, filepath.FromSlash(Rel(KindAdapt, "a")))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), from) {
		t.Fatalf("%q not in the ADAPT", from)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), from, to, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestSignatureCoversContentNotLifecycle(t *testing.T) {
	r, key := signedRepo(t)
	if s := checks(t, r); len(s) != 1 || !s[0].Valid || !s[0].KeyFound {
		t.Fatalf("fresh signature: %+v, want one valid", s)
	}
	// Lifecycle fields and task links may move after signing.
	if _, err := r.SetAdaptStatus("a", "approved"); err != nil {
		t.Fatal(err)
	}
	if err := r.AddAdaptTask("a", "t1"); err != nil {
		t.Fatal(err)
	}
	if s := checks(t, r); !s[0].Valid {
		t.Fatalf("after a status change and a task link: %s", s[0].Reason)
	}
	// The body and the covered fields may not.
	for _, e := range [][2]string{{"## Backward findings", "## Backward findings\n\n### [gap] (s)"}, {"tz_ref: s", "tz_ref: other"},
		{"signed_by: alice", "signed_by: mallory"}, {"role: architect", "role: client"}} {
		edit(t, r, e[0], e[1])
		s := checks(t, r)
		if s[0].Valid || !strings.Contains(s[0].Reason, "changed after it was signed") {
			t.Errorf("after %q: %+v, want invalid", e[1], s[0])
		}
		edit(t, r, e[1], e[0])
	}
	// Re-signing after an edit replaces the old signature.
	edit(t, r, "## Backward findings", "## Backward findings\n\n### [gap] (s)")
	if _, err := r.Sign("a", "architect", "alice", key); err != nil {
		t.Fatal(err)
	}
	if s := checks(t, r); len(s) != 1 || !s[0].Valid {
		t.Errorf("after re-signing: %+v, want one valid signature", s)
	}
}

func TestSignatureNeedsAKnownKey(t *testing.T) {
	r, _ := signedRepo(t)
	keys, _ := filepath.Glob(filepath.Join(r.Root, "renar", "keys", "*.pub"))
	if len(keys) != 1 {
		t.Fatalf("published keys %v, want one", keys)
	}
	if err := os.Remove(keys[0]); err != nil {
		t.Fatal(err)
	}
	if s := checks(t, r); s[0].Valid || s[0].KeyFound || !strings.Contains(s[0].Reason, "no known public key") {
		t.Errorf("without the key: %+v", s[0])
	}
}

func TestSignRefusesRoles(t *testing.T) {
	r, key := signedRepo(t)
	for role, want := range map[string]string{"client": "withdrawn", "reviewer": "not one of architect"} {
		if _, err := r.Sign("a", role, "bob", key); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("role %s: err %v, want %q", role, err, want)
		}
	}
}
