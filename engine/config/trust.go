package config

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/runners/command"
)

// This file holds the rules that keep a committed file from choosing which
// programs tausik runs (docs/command-gates.md, "Trust"): command gates stay
// off the agent's every edit unless a person's tier puts them there, and the
// environment variables that name a tier's file or an interpreter may not
// point into the repository under review.

// pythonNameRE is what an interpreter's file name must look like.
var pythonNameRE = regexp.MustCompile(`^(python|pypy)[0-9.]*$`)

// CheckEnv refuses the environment variables that name a config tier's file
// or an interpreter when they point into the repository at root, where a
// commit (or a Makefile export, an .envrc) could choose them: the user and
// managed tiers are a person's and an organisation's, never the code's
// under review. TAUSIK_PYTHON must moreover name a Python interpreter: its
// file name, and its target's when it is a link, must read python,
// python3, python3.12 (or pypy…), so a shell cannot become the allowed
// `python3 -m pytest`. Every refusal is diag.ErrConfig naming the variable.
func CheckEnv(root string, getenv func(string) string) error {
	if err := checkTierEnv(root, getenv); err != nil {
		return err
	}
	p := command.PythonFromEnv()
	if p == "" {
		return nil
	}
	resolved := ResolveProgram(p)
	for _, name := range []string{filepath.Base(p), filepath.Base(resolved)} {
		if !pythonNameRE.MatchString(name) {
			return fmt.Errorf("%w: %s=%s: refused: %q is not a Python interpreter (want python, python3, python3.12…); "+
				"it is run as the allowed `python3 -m pytest`", diag.ErrConfig, command.PythonEnv, p, resolved)
		}
	}
	if inside(root, resolved) {
		return fmt.Errorf("%w: %s=%s: refused: the interpreter %s is inside the repository %s; name one outside it "+
			"(a virtualenv's bin/python links to one)", diag.ErrConfig, command.PythonEnv, p, resolved, root)
	}
	return nil
}

// checkTierEnv is CheckEnv's part for the tiers' files, which locating the
// store reads too.
func checkTierEnv(root string, getenv func(string) string) error {
	for _, k := range []string{EnvUserConfig, EnvManagedConfig} {
		if p := getenv(k); p != "" && inside(root, p) {
			return fmt.Errorf("%w: %s=%s: refused: the file is inside the repository %s; a tier above the project "+
				"must live outside the code it judges (e.g. ~/.tausik/config.json)", diag.ErrConfig, k, p, root)
		}
	}
	return nil
}

// ResolveProgram returns the file p runs: found on PATH when bare, with
// links followed; p itself when it cannot be found.
func ResolveProgram(p string) string {
	if lp, err := exec.LookPath(p); err == nil {
		p = lp
	}
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// inside reports whether p, with links followed as far as they exist, lies
// in root.
func inside(root, p string) bool {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	// Follow links on the longest part of the path that exists.
	dir, rest := abs, ""
	for {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			abs = filepath.Join(r, rest)
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	rel, err := filepath.Rel(root, abs)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}
