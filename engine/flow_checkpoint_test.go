package engine

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"

	"github.com/tausik/tausik/store/receipt"
)

func TestRemoteOrigin(t *testing.T) {
	for url, want := range map[string]string{
		"https://github.com/acme/app.git":     "github.com/acme/app",
		"https://user@github.com/acme/app":    "github.com/acme/app",
		"ssh://git@gitlab.example:22/a/b.git": "gitlab.example:22/a/b",
		"git@github.com:acme/app.git":         "github.com/acme/app",
		"github.com:acme/app/":                "github.com/acme/app",
	} {
		if got := remoteOrigin(url); got != want {
			t.Errorf("remoteOrigin(%q) = %q, want %q", url, got, want)
		}
	}
}

func TestLogOriginAndCheckpointKeySources(t *testing.T) {
	root := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if o, err := LogOrigin(filepath.Join(root), getenv); err != nil || o != "local/"+filepath.Base(root) {
		t.Fatalf("origin without a remote: %q %v", o, err)
	}
	env[EnvLogOrigin] = "two words"
	if _, err := LogOrigin(root, getenv); !errors.Is(err, ErrConfig) {
		t.Fatalf("bad origin accepted: %v", err)
	}
	env[EnvLogOrigin] = "example.com/app"
	if _, err := LoadCheckpointKey(root, "", getenv); !errors.Is(err, ErrNoKey) {
		t.Fatalf("no key: %v", err)
	}
	if _, err := receipt.InitKey(receipt.KeyDir(root), false); err != nil {
		t.Fatal(err)
	}
	k, err := LoadCheckpointKey(root, "", getenv)
	if err != nil || !strings.HasPrefix(k.VerifierKey, "example.com/app+") || !strings.HasPrefix(k.Source, "project key") {
		t.Fatalf("project key: %+v %v", k, err)
	}
	// A CI secret: a note signer key in the environment, or a PEM file.
	skey, vkey, err := note.GenerateKey(rand.Reader, "ci.example.com/signer")
	if err != nil {
		t.Fatal(err)
	}
	env[EnvLogKey] = skey
	if k, err := LoadCheckpointKey(root, "", getenv); err != nil || k.VerifierKey != vkey || k.Source != "$"+EnvLogKey {
		t.Fatalf("env key: %+v %v", k, err)
	}
	other := t.TempDir()
	ok, err := receipt.InitKey(other, false)
	if err != nil {
		t.Fatal(err)
	}
	env[EnvLogKeyFile] = filepath.Join(other, receipt.PrivateKeyFile)
	k, err = LoadCheckpointKey(root, "", getenv)
	if err != nil || k.Signer.KeyHash() == 0 || !strings.Contains(k.Source, EnvLogKeyFile) {
		t.Fatalf("key file: %+v %v", k, err)
	}
	want, _ := LoadCheckpointKey(other, filepath.Join(other, receipt.PrivateKeyFile), getenv)
	if k.VerifierKey != want.VerifierKey || ok.Public == nil {
		t.Fatalf("key file signs as %s, want %s", k.VerifierKey, want.VerifierKey)
	}
	bad := filepath.Join(t.TempDir(), "bad.key")
	if err := os.WriteFile(bad, []byte("nope"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCheckpointKey(root, bad, getenv); !errors.Is(err, ErrConfig) {
		t.Fatalf("malformed --key accepted: %v", err)
	}
}
