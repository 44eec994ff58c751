package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReleaseTargets runs `make release` as a maintainer would, with an ssh
// ed25519 signing key: every platform builds, SHA256SUMS verifies with
// sha256sum -c, its signature verifies with ssh-keygen against the public
// key, the linux/amd64 binary reports the version, commit and date it was
// given, and a second build of the same commit is byte for byte the same.
func TestReleaseTargets(t *testing.T) {
	for _, tool := range []string{"make", "ssh-keygen", "sha256sum", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed to build a release: %v", tool, err)
		}
	}
	dir := t.TempDir()
	key := filepath.Join(dir, "release_key")
	run(t, "", "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "tausik-release", "-f", key)
	dist := filepath.Join(dir, "dist")
	run(t, "", "make", "--no-print-directory", "release", "DIST="+dist, "SIGNING_KEY="+key, "VERSION=v0.0.0-test")

	want := []string{"darwin_amd64", "darwin_arm64", "linux_amd64", "linux_arm64", "windows_amd64.exe", "windows_arm64.exe"}
	sums := run(t, dist, "sha256sum", "-c", "SHA256SUMS")
	for _, p := range want {
		if !strings.Contains(sums, "tausik_v0.0.0-test_"+p+": OK") {
			t.Errorf("SHA256SUMS does not check %s:\n%s", p, sums)
		}
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	signers := filepath.Join(dir, "allowed_signers")
	if err := os.WriteFile(signers, []byte("release@tausik "+string(pub)), 0o644); err != nil {
		t.Fatal(err)
	}
	verify := exec.Command("ssh-keygen", "-Y", "verify", "-f", signers, "-I", "release@tausik", "-n", "tausik-release",
		"-s", filepath.Join(dist, "SHA256SUMS.sig"))
	sumsFile, err := os.Open(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer sumsFile.Close()
	verify.Stdin = sumsFile
	if out, err := verify.CombinedOutput(); err != nil {
		t.Fatalf("the signature of SHA256SUMS does not verify: %v\n%s", err, out)
	}

	bin := filepath.Join(dist, "tausik_v0.0.0-test_linux_amd64")
	head := strings.TrimSpace(run(t, "", "git", "rev-parse", "HEAD"))
	version := run(t, "", bin, "version")
	for _, w := range []string{"tausik v0.0.0-test\n", "commit " + head + "\n", "built from a commit of "} {
		if !strings.Contains(version, w) {
			t.Errorf("tausik version lacks %q:\n%s", w, version)
		}
	}

	again := filepath.Join(dir, "again")
	run(t, "", "make", "--no-print-directory", "release", "DIST="+again, "VERSION=v0.0.0-test", "PLATFORMS=linux/amd64")
	a, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(again, "tausik_v0.0.0-test_linux_amd64"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("two release builds of one commit differ (%d and %d bytes): not reproducible", len(a), len(b))
	}
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
