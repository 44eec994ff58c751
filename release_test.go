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
// ed25519 signing key: tausik and the thin hook client tausik-hook build
// for every platform, SHA256SUMS verifies with
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
		for _, name := range []string{"tausik", "tausik-hook"} {
			if !strings.Contains(sums, name+"_v0.0.0-test_"+p+": OK") {
				t.Errorf("SHA256SUMS does not check %s %s:\n%s", name, p, sums)
			}
		}
	}
	if n := strings.Count(sums, ": OK"); n != 2*len(want) {
		t.Errorf("SHA256SUMS checks %d files, want %d:\n%s", n, 2*len(want), sums)
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
	for _, name := range []string{"tausik_v0.0.0-test_linux_amd64", "tausik-hook_v0.0.0-test_linux_amd64"} {
		a, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(again, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("two release builds of %s from one commit differ (%d and %d bytes): not reproducible", name, len(a), len(b))
		}
	}
}

// TestCrossCompiles builds every package, and vets the hook client, the
// evaluator and their protocol with their tests, for macOS and Windows:
// the platform-specific peer checks (SO_PEERCRED on Linux, LOCAL_PEERCRED
// on macOS, none on Windows, where every hook call is judged in process)
// must compile wherever tausik ships.
func TestCrossCompiles(t *testing.T) {
	for _, goos := range []string{"darwin", "windows"} {
		for _, args := range [][]string{{"build", "./..."}, {"vet", "./internal/hookd", "./internal/hookwire", "./cmd/tausik-hook"}} {
			cmd := exec.Command("go", args...)
			cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("GOOS=%s go %s: %v\n%s", goos, strings.Join(args, " "), err, out)
			}
		}
	}
}

// run runs args in dir and returns its output, failing t on error.
func run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}
