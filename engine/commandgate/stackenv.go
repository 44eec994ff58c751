package commandgate

import (
	"os"
	"os/exec"
	"path/filepath"
)

// stackToolEnv adds to a fixture's tool environment what the stack gates'
// tools need once HOME points into the fixture: cargo keeps its registry
// and git caches in the copy (CARGO_HOME), while rustup's proxies still
// find the installed toolchains (RUSTUP_HOME, read-only in the sandbox),
// which they look for under the real HOME.
func stackToolEnv(dir string) []string {
	env := []string{"CARGO_HOME=" + filepath.Join(dir, ".cargo")}
	if v := os.Getenv("RUSTUP_HOME"); v != "" {
		return append(env, "RUSTUP_HOME="+v)
	}
	// A rustup install puts its proxies in <home>/.cargo/bin and its
	// toolchains in <home>/.rustup, whatever HOME says now.
	if cargo, err := exec.LookPath("cargo"); err == nil {
		if bin := filepath.Dir(cargo); filepath.Base(bin) == "bin" && filepath.Base(filepath.Dir(bin)) == ".cargo" {
			rustup := filepath.Join(filepath.Dir(filepath.Dir(bin)), ".rustup")
			if info, err := os.Stat(rustup); err == nil && info.IsDir() {
				return append(env, "RUSTUP_HOME="+rustup)
			}
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		if info, err := os.Stat(filepath.Join(home, ".rustup")); err == nil && info.IsDir() {
			env = append(env, "RUSTUP_HOME="+filepath.Join(home, ".rustup"))
		}
	}
	return env
}
