package push

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// Config reads, from the git configuration of the work tree at root, what
// a push from branch (HEAD's, "" when detached) sends when the command line
// does not say: push.default, the remote a push naming none goes to, the
// branch's upstream, each remote's push refspecs and mirror setting, and
// whether tags or submodules go along.
func Config(ctx context.Context, root, branch string) (facts.PushConfig, error) {
	cmd := exec.CommandContext(ctx, "git", "config", "-z", "--get-regexp", `^(push|remote|branch|submodule)\.`)
	cmd.Dir, cmd.Env = root, runners.GitEnv()
	b, err := cmd.Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) { // 1: no such setting
		return facts.PushConfig{}, fmt.Errorf("read the push settings with git in %s: %v", root, err)
	}
	return parseConfig(string(b), branch), nil
}

// parseConfig reads git config -z output (KEY\nVALUE\x00, section and key
// lower-cased, a subsection as written) for branch.
func parseConfig(out, branch string) facts.PushConfig {
	c := facts.PushConfig{Default: "simple", Refspecs: map[string][]string{}, Mirror: []string{}}
	var pushRemote, pushDefault, recurse string
	subRecurse := false
	mirror := map[string]bool{}
	for _, e := range strings.Split(out, "\x00") {
		key, val, _ := strings.Cut(e, "\n")
		section, rest, _ := strings.Cut(key, ".")
		sub, name := "", rest
		if i := strings.LastIndex(rest, "."); i >= 0 {
			sub, name = rest[:i], rest[i+1:]
		}
		switch {
		case section == "push" && sub == "" && name == "default":
			c.Default = strings.ToLower(val)
		case section == "push" && sub == "" && name == "followtags":
			c.FollowTags = isTrue(val)
		case section == "push" && sub == "" && name == "recursesubmodules":
			recurse = strings.ToLower(val)
		case section == "submodule" && sub == "" && name == "recurse":
			subRecurse = isTrue(val)
		case section == "remote" && sub == "" && name == "pushdefault":
			pushDefault = val
		case section == "remote" && sub != "" && name == "push" && val != "":
			c.Refspecs[sub] = append(c.Refspecs[sub], val)
		case section == "remote" && sub != "" && name == "mirror":
			mirror[sub] = isTrue(val)
		case section == "branch" && branch != "" && sub == branch && name == "pushremote":
			pushRemote = val
		case section == "branch" && branch != "" && sub == branch && name == "remote":
			c.FetchRemote = val
		case section == "branch" && branch != "" && sub == branch && name == "merge":
			c.Upstream = strings.TrimPrefix(val, "refs/heads/")
		}
	}
	for r, on := range mirror {
		if on {
			c.Mirror = append(c.Mirror, r)
		}
	}
	slices.Sort(c.Mirror)
	if c.FetchRemote == "" {
		c.FetchRemote = "origin"
	}
	c.Remote = firstOf(pushRemote, pushDefault, c.FetchRemote)
	c.RecurseSubmodules = recurse
	if recurse == "" && subRecurse {
		c.RecurseSubmodules = "on-demand"
	}
	return c
}

// isTrue reads a git boolean: an empty value (a bare key) is true.
func isTrue(v string) bool {
	switch strings.ToLower(v) {
	case "", "true", "yes", "on", "1":
		return true
	}
	return false
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// OtherDirs returns the directories t's commands start in (absolute, or
// relative to root) that are not in the repository of the work tree at
// root (another git directory, or none), and a "" for a directory known
// only at run time. A directory equal to root costs no git run.
func OtherDirs(ctx context.Context, root string, t *facts.Tool) []facts.PushDir {
	out := []facts.PushDir{}
	if t == nil {
		return out
	}
	root = filepath.Clean(root)
	var mine string
	seen := map[string]bool{}
	for _, c := range t.Commands {
		d := c.Dir
		if d != "" && !filepath.IsAbs(d) {
			d = filepath.Join(root, d) // the namespace names it in the project
		}
		if seen[d] || d == root {
			continue
		}
		if seen[d] = true; len(seen) > maxDirs {
			return append(out, facts.PushDir{Dir: d, Why: fmt.Sprintf("the call moves through more than %d directories, and tausik reads no more", maxDirs)})
		}
		if d == "" {
			out = append(out, facts.PushDir{Why: "the directory is known only when the call runs"})
			continue
		}
		if mine == "" {
			var err error
			if mine, err = gitDir(ctx, root); err != nil {
				out = append(out, facts.PushDir{Dir: d, Why: err.Error()})
				continue
			}
		}
		switch theirs, err := gitDir(ctx, d); {
		case err != nil:
			out = append(out, facts.PushDir{Dir: d, Why: err.Error()})
		case theirs != mine:
			out = append(out, facts.PushDir{Dir: d, Why: "it is in the repository " + theirs + ", not the project's " + mine})
		}
	}
	return out
}

// maxDirs bounds the directories besides the root one call's check runs
// git in (a hook pays for every process it starts).
const maxDirs = 8

// gitDir is the absolute git directory of the work tree holding dir.
func gitDir(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--absolute-git-dir")
	cmd.Dir, cmd.Env = dir, runners.GitEnv()
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s is in no git repository git can read (%v)", dir, err)
	}
	return strings.TrimSpace(string(b)), nil
}
