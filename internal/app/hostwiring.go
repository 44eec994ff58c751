package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/internal/hosts/hostinit"
)

// HookClient is the thin hook client to wire instead of command for the
// hooks: tausik-hook, when command is one word naming a tausik binary (on
// PATH or by path) that has it installed beside it. Otherwise nil: the
// hooks run command itself.
func HookClient(command []string) []string {
	if len(command) != 1 {
		return nil
	}
	bin, err := exec.LookPath(command[0])
	if err != nil {
		return nil
	}
	if bin, err = filepath.EvalSymlinks(bin); err != nil {
		return nil
	}
	client := filepath.Join(filepath.Dir(bin), "tausik-hook")
	if info, err := os.Stat(client); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	if filepath.IsAbs(command[0]) || strings.ContainsRune(command[0], filepath.Separator) {
		return []string{client}
	}
	return []string{"tausik-hook"}
}

// HostMarkers lists, comma-separated, the files and directories whose
// presence makes init wire a host.
func HostMarkers() string {
	var out []string
	for _, h := range hostinit.Hosts {
		out = append(out, h.Detect...)
	}
	return strings.Join(out, ", ")
}
