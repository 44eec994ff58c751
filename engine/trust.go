package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/tausik/tausik/runners/command"
)

// This file holds the rules that keep a committed file from choosing which
// programs tausik runs (docs/command-gates.md, "Trust"): command gates stay
// off the agent's every edit unless a person's tier puts them there, and the
// environment variables that name a tier's file or an interpreter may not
// point into the repository under review.

// keepCommandsOffHooks drops hook triggers from command gates that only the
// project tier put there: a project's own command gate, or a project
// override adding the trigger to any command gate. A command gate runs at
// pre-write when its built-in default, its user- or managed-tier definition,
// or a user- or managed-tier "triggers" override says so. Each drop is a
// config warning, reported and logged with every decision.
func (e *Engine) keepCommandsOffHooks(tiers []*tierFile) {
	var project *tierFile
	for _, t := range tiers {
		if t != nil && t.tier == TierProject {
			project = t
		}
	}
	for _, g := range e.gates {
		eff := e.eff[g.Name]
		if eff == nil || !e.isCommand(g.Name) {
			continue
		}
		if by := eff.SetBy["triggers"]; by == TierUser || by == TierManaged {
			continue
		}
		tc := e.teamCommand(g.Name)
		trusted := tc == nil || tc.tier.tier != TierProject
		var kept, dropped []string
		for _, tr := range eff.Triggers {
			if slices.Contains(hookTriggers, tr) && !(trusted && slices.Contains(g.Triggers, tr)) {
				dropped = append(dropped, tr)
				continue
			}
			kept = append(kept, tr)
		}
		if len(dropped) == 0 {
			continue
		}
		eff.Triggers = nonNil(kept)
		file, line, key := "tausik/gates.json", 0, "gates."+g.Name+".triggers"
		switch {
		case eff.SetBy["triggers"] == TierProject && project != nil:
			file, line = project.display, project.doc.line("gates", g.Name, "triggers")
		case tc != nil:
			file, line, key = tc.tier.display, tc.tier.doc.line(keyCommands, g.Name, "triggers"), keyCommands+"."+g.Name+".triggers"
		}
		e.warnings = append(e.warnings, fmt.Sprintf("%s:%d: %s: %s refused: a command gate runs on an agent's every edit only when "+
			"the user or managed tier says so (gates.%s.triggers there); it runs at its other triggers",
			file, line, key, strings.Join(dropped, ", "), g.Name))
	}
}

// pythonNameRE is what an interpreter's file name must look like.
var pythonNameRE = regexp.MustCompile(`^(python|pypy)[0-9.]*$`)

// CheckEnv refuses the environment variables that name a config tier's file
// or an interpreter when they point into the repository at root, where a
// commit (or a Makefile export, an .envrc) could choose them: the user and
// managed tiers are a person's and an organisation's, never the code's
// under review. TAUSIK_PYTHON must moreover name a Python interpreter: its
// file name, and its target's when it is a link, must read python,
// python3, python3.12 (or pypy…), so a shell cannot become the allowed
// `python3 -m pytest`. Every refusal is ErrConfig naming the variable.
func CheckEnv(root string, getenv func(string) string) error {
	if err := checkTierEnv(root, getenv); err != nil {
		return err
	}
	p := command.PythonFromEnv()
	if p == "" {
		return nil
	}
	resolved := resolveProgram(p)
	for _, name := range []string{filepath.Base(p), filepath.Base(resolved)} {
		if !pythonNameRE.MatchString(name) {
			return fmt.Errorf("%w: %s=%s: refused: %q is not a Python interpreter (want python, python3, python3.12…); "+
				"it is run as the allowed `python3 -m pytest`", ErrConfig, command.PythonEnv, p, resolved)
		}
	}
	if inside(root, resolved) {
		return fmt.Errorf("%w: %s=%s: refused: the interpreter %s is inside the repository %s; name one outside it "+
			"(a virtualenv's bin/python links to one)", ErrConfig, command.PythonEnv, p, resolved, root)
	}
	return nil
}

// checkTierEnv is CheckEnv's part for the tiers' files, which locating the
// store reads too.
func checkTierEnv(root string, getenv func(string) string) error {
	for _, k := range []string{EnvUserConfig, EnvManagedConfig} {
		if p := getenv(k); p != "" && inside(root, p) {
			return fmt.Errorf("%w: %s=%s: refused: the file is inside the repository %s; a tier above the project "+
				"must live outside the code it judges (e.g. ~/.tausik/config.json)", ErrConfig, k, p, root)
		}
	}
	return nil
}

// resolveProgram returns the file p runs: found on PATH when bare, with
// links followed; p itself when it cannot be found.
func resolveProgram(p string) string {
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

// Programs records, with every decision, the files and interpreters that
// chose what ran: the user and managed tiers' config files (as named, ""
// when absent) and the Python interpreter the pytest gate runs, resolved.
type Programs struct {
	UserConfig    string `json:"user_config"`
	ManagedConfig string `json:"managed_config"`
	Python        string `json:"python"`
}

// programsRecord builds the engine's Programs from its config paths.
func (e *Engine) programsRecord(cfg ConfigPaths) *Programs {
	p := &Programs{Python: resolveProgram(e.Python())}
	if _, err := os.Stat(cfg.User); cfg.User != "" && err == nil {
		p.UserConfig = cfg.User
	}
	if cfg.Managed != "" {
		p.ManagedConfig = cfg.Managed
	}
	return p
}
