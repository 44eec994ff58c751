package policytest

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/tausik/tausik/internal/yamlread"
)

// GitStep is one step of a fixture's `git:` list, which turns its copied
// tree/ into a git repository before the runners look. The repository is
// created first (branch main, no commit); the steps then run in order:
//
//	git:
//	  - commit: base                  # stage everything, commit with this message
//	  - write: {CHANGELOG.md: "x\n"}  # write files into the work tree
//	  - apply: after                  # copy fixtures/<case>/after/ over the work tree
//	  - stage: [CHANGELOG.md]         # git add these paths
//	  - remove: [old.py]              # delete these paths from the work tree
//	  - commit: {message: notes, date: "2026-01-01T02:00:00Z"}
//
// Everything happens inside the fixture's temp copy with a git that reads no
// user or system config, a fixed identity and fixed dates (a commit without
// a date is made at FixtureCommitBase plus one minute per earlier commit), so
// a case comes out the same on every machine.
type GitStep struct {
	Op      string            // commit, write, apply, stage or remove
	Message string            // commit
	Date    time.Time         // commit; zero = the default
	Files   map[string]string // write: path → content
	Dir     string            // apply: a directory of the case, next to tree/
	Paths   []string          // stage, remove
	line    int
}

// FixtureCommitBase is when a fixture's first commit without a date is made:
// a day before the default case time, so "since" points in between are easy.
var FixtureCommitBase = time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)

// parseGitSteps reads case.yaml's git list. Paths must stay inside the tree.
func parseGitSteps(r yamlread.Reader, n *yaml.Node, caseFS fs.FS, dir string) []GitStep {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		r.D.Add(r.File, n.Line, "git: want a list of steps (commit, write, apply, stage, remove)")
		return nil
	}
	steps := []GitStep{}
	for i, item := range n.Content {
		what := fmt.Sprintf("git[%d]", i)
		f := r.Fields(item, what, "commit", "write", "apply", "stage", "remove")
		if len(f) != 1 {
			r.D.Add(r.File, item.Line, "%s: a step has exactly one of commit, write, apply, stage, remove", what)
			continue
		}
		for op, v := range f {
			s := GitStep{Op: op, line: item.Line}
			switch op {
			case "commit":
				s.Message = gitCommit(r, v, what, &s)
			case "write":
				s.Files = map[string]string{}
				for _, kv := range r.Pairs(v, what+".write") {
					s.Files[kv[0].Value] = r.Str(kv[1], what+".write."+kv[0].Value)
					localPath(r, kv[0].Value, kv[0].Line, what)
				}
			case "apply":
				s.Dir = r.Str(v, what+".apply")
				if s.Dir == "tree" || !dirExists(caseFS, s.Dir) || !fs.ValidPath(s.Dir) || strings.Contains(s.Dir, "/") {
					r.D.Add(r.File, v.Line, "%s.apply: %q is not a directory of %s next to tree/", what, s.Dir, dir)
				}
			case "stage", "remove":
				s.Paths = r.Strs(v, what+"."+op)
				for _, p := range s.Paths {
					localPath(r, p, v.Line, what)
				}
				if len(s.Paths) == 0 {
					r.D.Add(r.File, v.Line, "%s.%s: name at least one path", what, op)
				}
			}
			steps = append(steps, s)
		}
	}
	return steps
}

func gitCommit(r yamlread.Reader, v *yaml.Node, what string, s *GitStep) string {
	if v.Kind == yaml.ScalarNode {
		return r.Str(v, what+".commit")
	}
	f := r.Fields(v, what+".commit", "message", "date")
	r.Require(v, f, what+".commit", "message")
	if f["date"] != nil {
		raw := r.Str(f["date"], what+".commit.date")
		t, err := time.Parse(time.RFC3339, raw)
		if err != nil {
			r.D.Add(r.File, f["date"].Line, "%s.commit.date: want an RFC 3339 time, got %q", what, raw)
		}
		s.Date = t
	}
	return r.Str(f["message"], what+".commit.message")
}

func localPath(r yamlread.Reader, p string, line int, what string) {
	if !filepath.IsLocal(filepath.FromSlash(p)) || p == ".git" || strings.HasPrefix(p, ".git/") {
		r.D.Add(r.File, line, "%s: path %q must stay inside the tree (and out of .git)", what, p)
	}
}

// buildRepo runs the steps in dir, the fixture's temp copy of tree/. caseFS
// is the case directory (for apply).
func buildRepo(ctx context.Context, dir string, caseFS fs.FS, steps []GitStep) error {
	env := hermeticGitEnv(dir)
	git := func(date time.Time, args ...string) error {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = dir
		cmd.Env = env
		if !date.IsZero() {
			stamp := date.UTC().Format(time.RFC3339)
			cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+stamp, "GIT_COMMITTER_DATE="+stamp)
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
		}
		return nil
	}
	if err := git(time.Time{}, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	// Local settings outrank the user's global ones the runners will read.
	for _, kv := range [][2]string{{"core.excludesFile", os.DevNull}, {"core.autocrlf", "false"}, {"commit.gpgSign", "false"}} {
		if err := git(time.Time{}, "config", kv[0], kv[1]); err != nil {
			return err
		}
	}
	commits := 0
	for _, s := range steps {
		var err error
		switch s.Op {
		case "commit":
			date := s.Date
			if date.IsZero() {
				date = FixtureCommitBase.Add(time.Duration(commits) * time.Minute)
			}
			commits++
			if err = git(date, "add", "-A"); err == nil {
				err = git(date, "commit", "-q", "--allow-empty", "--no-verify", "-m", s.Message)
			}
		case "write":
			for p, content := range s.Files {
				full := filepath.Join(dir, filepath.FromSlash(p))
				if err = os.MkdirAll(filepath.Dir(full), 0o755); err == nil {
					err = os.WriteFile(full, []byte(content), 0o644)
				}
				if err != nil {
					break
				}
			}
		case "apply":
			var sub fs.FS
			if sub, err = fs.Sub(caseFS, s.Dir); err == nil {
				err = copyTree(sub, dir)
			}
		case "stage":
			err = git(time.Time{}, append([]string{"add", "--"}, s.Paths...)...)
		case "remove":
			for _, p := range s.Paths {
				if err = os.RemoveAll(filepath.Join(dir, filepath.FromSlash(path.Clean(p)))); err != nil {
					break
				}
			}
		}
		if err != nil {
			return fmt.Errorf("git step %s (case.yaml line %d): %w", s.Op, s.line, err)
		}
	}
	return nil
}

// hermeticGitEnv is the environment of a fixture's git commands: no user or
// system config, no repository but dir's, a fixed identity.
func hermeticGitEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	return append(env,
		"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, ".git", "xdg"),
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C",
		"GIT_AUTHOR_NAME=tausik fixture", "GIT_AUTHOR_EMAIL=fixture@tausik.invalid",
		"GIT_COMMITTER_NAME=tausik fixture", "GIT_COMMITTER_EMAIL=fixture@tausik.invalid",
	)
}
