package app

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tausik/tausik/engine/diag"

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
	if o, err := LogOrigin(context.Background(), root, getenv); err != nil || o != "local/"+filepath.Base(root) {
		t.Fatalf("origin without a remote: %q %v", o, err)
	}
	env[EnvLogOrigin] = "two words"
	if _, err := LogOrigin(context.Background(), root, getenv); !errors.Is(err, diag.ErrConfig) {
		t.Fatalf("bad origin accepted: %v", err)
	}
	env[EnvLogOrigin] = "example.com/app"
	if _, err := LoadCheckpointKey(context.Background(), root, "", getenv); !errors.Is(err, diag.ErrNoKey) {
		t.Fatalf("no key: %v", err)
	}
	if _, err := receipt.InitKey(receipt.KeyDir(root), false); err != nil {
		t.Fatal(err)
	}
	k, err := LoadCheckpointKey(context.Background(), root, "", getenv)
	if err != nil || !strings.HasPrefix(k.VerifierKey, "example.com/app+") || !strings.HasPrefix(k.Source, "project key") {
		t.Fatalf("project key: %+v %v", k, err)
	}
	// A CI secret: a note signer key in the environment, or a PEM file.
	skey, vkey, err := note.GenerateKey(rand.Reader, "ci.example.com/signer")
	if err != nil {
		t.Fatal(err)
	}
	env[EnvLogKey] = skey
	if k, err := LoadCheckpointKey(context.Background(), root, "", getenv); err != nil || k.VerifierKey != vkey || k.Source != "$"+EnvLogKey {
		t.Fatalf("env key: %+v %v", k, err)
	}
	other := t.TempDir()
	ok, err := receipt.InitKey(other, false)
	if err != nil {
		t.Fatal(err)
	}
	env[EnvLogKeyFile] = filepath.Join(other, receipt.PrivateKeyFile)
	k, err = LoadCheckpointKey(context.Background(), root, "", getenv)
	if err != nil || k.Signer.KeyHash() == 0 || !strings.Contains(k.Source, EnvLogKeyFile) {
		t.Fatalf("key file: %+v %v", k, err)
	}
	want, _ := LoadCheckpointKey(context.Background(), other, filepath.Join(other, receipt.PrivateKeyFile), getenv)
	if k.VerifierKey != want.VerifierKey || ok.Public == nil {
		t.Fatalf("key file signs as %s, want %s", k.VerifierKey, want.VerifierKey)
	}
	bad := filepath.Join(t.TempDir(), "bad.key")
	if err := os.WriteFile(bad, []byte("nope"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadCheckpointKey(context.Background(), root, bad, getenv); !errors.Is(err, diag.ErrConfig) {
		t.Fatalf("malformed --key accepted: %v", err)
	}
}

// TestLogOriginCancelEndsGit makes real git block (its config includes a
// FIFO that nobody writes), cancels the request once git holds the FIFO
// open, and expects LogOrigin to return the cancellation, not to wait for
// git nor to fall back to a local origin.
func TestLogOriginCancelEndsGit(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "blocker")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", root}, {"-C", root, "config", "include.path", "../blocker"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opened := make(chan *os.File, 1)
	go func() {
		// Opening a FIFO for writing blocks until git opens it to read.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			opened <- w
		}
	}()
	done := make(chan error, 1)
	go func() {
		_, err := LogOrigin(ctx, root, func(string) string { return "" })
		done <- err
	}()
	select {
	case w := <-opened:
		defer w.Close()
	case err := <-done:
		// Unblock the writer goroutine before failing.
		if r, oerr := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); oerr == nil {
			r.Close()
		}
		t.Fatalf("LogOrigin returned before git read its config: %v", err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
