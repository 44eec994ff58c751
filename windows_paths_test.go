package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestWindowsPathTestsBuild: the Windows path tests of the hooks
// (internal/hosts/paths_windows_test.go) compile and vet for Windows (amd64;
// the arm64 build of the same code is TestReleaseTargets'), so a machine
// without Windows still catches them breaking; a Windows machine runs them.
func TestWindowsPathTestsBuild(t *testing.T) {
	cmd := exec.Command("go", "vet", "./internal/hosts/", "./internal/pathpat/")
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("windows/amd64: go vet: %v\n%s", err, strings.TrimSpace(string(out)))
	}
}
