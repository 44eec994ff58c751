package cli_test

import (
	"os"
	"path/filepath"
	"strings"
)

// Environment the built-in command gates' real tools need, set once for the
// test process and handed to every script by setupScript.
const (
	// toolsEnv marks a process whose PATH already holds the ruff shim, so a
	// script's tausik (this test binary again) does not put it back after a
	// script removed it.
	toolsEnv = "TAUSIK_TEST_TOOLS"
	// pathNoRuffEnv is the PATH without any directory holding a ruff, for
	// scripts that show what a missing tool does.
	pathNoRuffEnv = "PATH_NO_RUFF"
)

// init puts testdata/ruff (the real ruff, compiled to WebAssembly, behind a
// CLI shim; `npm ci --prefix testdata/ruff` installs it) first on PATH and
// points TAUSIK_PYTHON at Debian's /usr/bin/python3, which has pytest, unless
// the caller chose an interpreter. Without them the ruff and pytest fixtures
// that `policy test` runs would report COULD_NOT_RUN, and the tests say so.
func init() {
	if os.Getenv(toolsEnv) != "" {
		return
	}
	path := os.Getenv("PATH")
	if shim, err := filepath.Abs(filepath.Join("..", "testdata", "ruff")); err == nil {
		os.Setenv("PATH", shim+string(os.PathListSeparator)+path)
	}
	if os.Getenv("TAUSIK_PYTHON") == "" {
		if _, err := os.Stat("/usr/bin/python3"); err == nil {
			os.Setenv("TAUSIK_PYTHON", "/usr/bin/python3")
		}
	}
	os.Setenv(toolsEnv, "1")
}

// withoutTool drops the directories of path that hold an executable named tool.
func withoutTool(path, tool string) string {
	var keep []string
	for _, dir := range filepath.SplitList(path) {
		if info, err := os.Stat(filepath.Join(dir, tool)); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			continue
		}
		keep = append(keep, dir)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// toolVars are the variables setupScript passes to every script.
func toolVars() map[string]string {
	return map[string]string{
		toolsEnv:        "1",
		pathNoRuffEnv:   withoutTool(os.Getenv("PATH"), "ruff"), // PATH as testscript.Main extended it
		"TAUSIK_PYTHON": os.Getenv("TAUSIK_PYTHON"),
	}
}
