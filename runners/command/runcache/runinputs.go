package runcache

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/internal/filehash"
)

// aroundInputs are the configuration files, lockfiles, manifests and
// install records the cached tools read (or that record what they read),
// looked for in a root and every directory above it up to the file
// system's root: a tool finds its config upwards (golangci-lint,
// shellcheck, eslint, ktlint's .editorconfig), a workspace's manifest and
// lockfile sit above its members (Cargo, go.work), and most of them are
// often ignored, so the project's listing does not hold them. One list for
// every tool: a name another tool reads only makes the key cover more.
var aroundInputs = []string{
	"Cargo.toml", "Cargo.lock", "rust-toolchain", "rust-toolchain.toml", ".cargo/config.toml", ".cargo/config",
	"clippy.toml", ".clippy.toml",
	"go.mod", "go.sum", "go.work", "go.work.sum", "vendor/modules.txt",
	".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json",
	"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", ".npmrc", ".yarnrc.yml",
	".pnp.cjs", "node_modules/.package-lock.json", "node_modules/.modules.yaml", "node_modules/.yarn-state.yml",
	"node_modules/.yarn-integrity",
	"tsconfig.json", "tsconfig.base.json", "jsconfig.json",
	"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", "eslint.config.mts", "eslint.config.cts",
	".eslintrc", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yaml", ".eslintrc.yml", ".eslintignore",
	".shellcheckrc", "shellcheckrc", ".yamllint", ".yamllint.yaml", ".yamllint.yml", ".editorconfig",
	"composer.json", "composer.lock", "vendor/composer/installed.json",
	"phpcs.xml", "phpcs.xml.dist", ".phpcs.xml", ".phpcs.xml.dist", "phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon",
	"Chart.yaml", "Chart.lock", "requirements.yaml", ".helmignore", ".hadolint.yaml", ".hadolint.yml",
	"pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
}

// homeInputs are the per-user configuration files of the cached tools,
// under $HOME; xdgInputs under $XDG_CONFIG_HOME (default ~/.config);
// cargoInputs under $CARGO_HOME (default ~/.cargo); and rustup's
// settings (the default toolchain) under $RUSTUP_HOME (default ~/.rustup).
var (
	homeInputs = []string{".shellcheckrc", ".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json",
		".npmrc", ".editorconfig", ".hadolint.yaml", ".yamllint", ".eslintrc", ".eslintrc.json", ".eslintrc.js", ".eslintrc.yml"}
	xdgInputs    = []string{"shellcheckrc", "yamllint/config", "hadolint.yaml", "golangci-lint/.golangci.yml"}
	cargoInputs  = []string{"config.toml", "config"}
	rustupInputs = []string{"settings.toml"}
)

// maxInput caps an input file read for the key; a bigger one makes the
// run uncached.
const maxInput = 64 << 20

// aroundDigest digests the inputs around the root dir (absolute) that are
// present, for the tool's environment env: their paths and contents; ""
// when one exists but cannot be read as a file.
func aroundDigest(dir string, env []string) string {
	h := sha256.New()
	var paths []string
	for d := dir; ; d = filepath.Dir(d) {
		for _, n := range aroundInputs {
			paths = append(paths, filepath.Join(d, filepath.FromSlash(n)))
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	get := func(name string) string {
		v := ""
		for _, kv := range env {
			if k, val, _ := strings.Cut(kv, "="); k == name {
				v = val
			}
		}
		return v
	}
	home := get("HOME")
	under := func(base, def string, names []string) {
		if base == "" && home != "" {
			base = filepath.Join(home, def)
		}
		if base == "" {
			return
		}
		for _, n := range names {
			paths = append(paths, filepath.Join(base, filepath.FromSlash(n)))
		}
	}
	under(home, "", homeInputs)
	under(get("XDG_CONFIG_HOME"), ".config", xdgInputs)
	under(get("CARGO_HOME"), ".cargo", cargoInputs)
	under(get("RUSTUP_HOME"), ".rustup", rustupInputs)
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil && exists(p):
			return "" // there, but its content is unknown (a dangling link, no permission)
		case err != nil, info.IsDir(): // absent; a directory is not the file a tool reads
			continue
		case !info.Mode().IsRegular() || info.Size() > maxInput:
			return ""
		}
		sum, err := filehash.SHA256(p)
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "%s\x00%s\n", p, sum)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// exists reports whether p's directory entry is there, even where the file
// cannot be stat'ed through.
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
