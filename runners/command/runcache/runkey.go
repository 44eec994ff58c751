package runcache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tausik/tausik/internal/filehash"

	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/cache"
)

// runKey is everything a kept run of a stack gate in one root is keyed by.
// What a tool reads outside it is not seen: files outside the project other
// than the inputs named in aroundInputs (a tsconfig that extends a file
// above the project, a Go replace or Cargo path dependency pointing there),
// the contents of node_modules and vendor/ beyond their install records,
// and the network. The key takes the whole project rather than the root,
// since a root's tool may read its siblings; so an edit anywhere runs every
// cached root again.
type runKey struct {
	Format   string   `json:"format"`
	Gate     string   `json:"gate"`
	Variant  string   `json:"variant"`
	Project  string   `json:"project"` // the absolute project root
	Dir      string   `json:"dir"`     // the stack root, repo-relative
	Argv     []string `json:"argv"`    // as run, files root-relative; report paths unexpanded
	Parser   string   `json:"parser"`
	Timeout  string   `json:"timeout"`
	OutCap   int      `json:"out_cap"`
	Env      []string `json:"env"`      // the tool's environment, sorted, less volatileEnv
	Programs []string `json:"programs"` // each program's identity and version
	Tree     string   `json:"tree"`     // the project's files (treeDigest)
	Around   string   `json:"around"`   // the inputs around the root (aroundDigest)
}

// Run is one run of a stack gate's tool in one root, as the key takes it.
type Run struct {
	Gate, Variant string
	Dir           string   // the root, repo-relative ("." for the project root)
	Argv          []string // as run: files root-relative, report placeholders unexpanded
	Parser        string
	Timeout       time.Duration
	OutCap        int      // how much of each stream the facts quote
	Env           []string // what the runner adds to the inherited environment
	Spec          Spec
}

// Key returns the key of run in s's project, "" when something it must
// cover could not be read or asked: then the tool runs and nothing is
// kept. fresh recomputes the project's and the root's inputs instead of
// taking those the evaluation shares, to see a change made while the tool
// ran.
func (c *Cache) Key(ctx context.Context, s *runners.Scope, run Run, fresh bool) string {
	if c == nil || len(run.Argv) == 0 {
		return ""
	}
	dir := filepath.Join(s.Root, filepath.FromSlash(run.Dir))
	env := append(os.Environ(), run.Env...)
	k := runKey{Format: format, Gate: run.Gate, Variant: run.Variant, Project: s.Root, Dir: run.Dir,
		Argv: run.Argv, Parser: run.Parser, Timeout: run.Timeout.String(), OutCap: run.OutCap, Env: keyEnv(env)}
	version := run.Spec.Version
	if version == nil {
		version = []string{run.Argv[0], "--version"}
	}
	ix := s.Memo("command.programs", func() any {
		return cache.LoadIndex(ctx, c.st, runnerName+".programs", format, string(filepath.Separator))
	}).(*cache.Index)
	defer func() { _ = ix.Save(ctx) }() // a store that fails costs the next evaluation a read of each program
	programs := [][]string{{run.Argv[0]}, version}
	for _, also := range run.Spec.Also {
		programs = append(programs, also[:1], also)
	}
	for _, argv := range programs {
		id, ok := s.Memo("command.program\x00"+dir+"\x00"+strings.Join(argv, "\x00")+"\x00"+strings.Join(k.Env, "\x00"), func() any {
			return program(ctx, ix, dir, argv, env)
		}).(string)
		if !ok || id == "" {
			return ""
		}
		k.Programs = append(k.Programs, id)
	}
	if fresh {
		k.Tree, k.Around = treeDigest(ctx, c.st, s), aroundDigest(dir, env)
	} else {
		k.Tree = s.Memo("command.tree", func() any { return treeDigest(ctx, c.st, s) }).(string)
		k.Around = s.Memo("command.around\x00"+dir+"\x00"+strings.Join(k.Env, "\x00"), func() any { return aroundDigest(dir, env) }).(string)
	}
	if k.Tree == "" || k.Around == "" {
		return ""
	}
	b, err := json.Marshal(k)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// program identifies the program argv runs: with one item, its executable
// as found on PATH (the path, the file it resolves to and that file's
// content, and for a script the interpreter its #! line names, alike);
// with more, what the command prints, run in dir with env (it must exit
// 0). Content, not the file's stamp, so that a CI job with a restored
// cache and freshly installed tools of the same build can hit; ix keeps
// each file's sha256 by its stamp, so an unchanged executable is not read
// again. "" when it cannot be found or asked.
func program(ctx context.Context, ix *cache.Index, dir string, argv, env []string) string {
	if len(argv) > 1 {
		return probe(ctx, dir, argv, env)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return ""
	}
	id, interp := fileID(ix, path)
	if id == "" {
		return ""
	}
	if interp != "" {
		iid, _ := fileID(ix, interp)
		if iid == "" {
			return ""
		}
		id += " interpreter " + iid
	}
	return id
}

// fileID names the executable path: itself, the file it resolves to, and
// that file's sha256 and mode. interp is the program its #! line runs
// ("/usr/bin/env node" gives node on PATH).
func fileID(ix *cache.Index, path string) (id, interp string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", ""
	}
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", ""
	}
	info, err := os.Stat(target)
	if err != nil || !info.Mode().IsRegular() {
		return "", ""
	}
	sum := fileSum(ix, target, target, info)
	if sum == "" {
		return "", ""
	}
	id = fmt.Sprintf("%s -> %s %s %s", abs, target, info.Mode(), sum)
	f, err := os.Open(target)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	line, _, _ := bytes.Cut(head[:n], []byte("\n"))
	if words := strings.Fields(string(bytes.TrimPrefix(line, []byte("#!")))); bytes.HasPrefix(line, []byte("#!")) && len(words) > 0 {
		interp = words[0]
		if filepath.Base(interp) == "env" {
			for _, w := range words[1:] { // env's options and assignments, then the program
				if !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
					if p, err := exec.LookPath(w); err == nil {
						interp = p
					}
					break
				}
			}
		}
	}
	return id, interp
}

// probe runs argv (a version command) in dir with env and returns what it
// printed, "" when it did not exit 0 or printed more than 64 KiB.
func probe(ctx context.Context, dir string, argv, env []string) string {
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return ""
	}
	cmd := exec.CommandContext(tctx, path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Dir = dir
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runners.Contain(cmd)
	if cmd.Run() != nil || out.Len() > 64<<10 {
		return ""
	}
	return strings.Join(argv, " ") + ": " + out.String()
}

// keyEnv is env as the key takes it: one entry per name (the last, as exec
// does), sorted, less volatileEnv.
func keyEnv(env []string) []string {
	last := map[string]string{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		last[name] = kv
	}
	out := make([]string, 0, len(last))
	for name, kv := range last {
		if !volatile(name) {
			out = append(out, kv)
		}
	}
	slices.Sort(out)
	return out
}

// volatileEnv names variables that change from one shell, terminal or CI
// run to the next and that no linter or compiler reads: the key leaves them
// out so that a CI job with a restored cache can hit. Every other variable
// counts, unknown ones included.
var volatileEnv = []string{"_", "PWD", "HOSTNAME", "RUNNER_NAME", "OLDPWD", "SHLVL", "TERM", "COLORTERM", "COLUMNS", "LINES", "DISPLAY",
	"WAYLAND_DISPLAY", "XAUTHORITY", "WINDOWID", "DBUS_SESSION_BUS_ADDRESS", "TMUX", "TMUX_PANE", "STY",
	"SSH_AUTH_SOCK", "SSH_AGENT_PID", "SSH_CLIENT", "SSH_CONNECTION", "SSH_TTY", "GPG_TTY", "MAIL",
	"LS_COLORS", "INVOCATION_ID", "JOURNAL_STREAM", "XDG_SESSION_ID", "RUNNER_TRACKING_ID"}

// volatilePrefixes are prefixes of such variables: a terminal's session,
// a CI run's ids, refs, step files and tokens.
var volatilePrefixes = []string{"TERM_", "GITHUB_RUN_", "GITHUB_JOB", "GITHUB_SHA", "GITHUB_REF", "GITHUB_HEAD_REF",
	"GITHUB_BASE_REF", "GITHUB_EVENT_", "GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STATE",
	"GITHUB_STEP_SUMMARY", "GITHUB_ACTION", "GITHUB_ACTOR", "GITHUB_WORKFLOW_SHA", "GITHUB_WORKFLOW_REF", "GITHUB_TRIGGERING_ACTOR", "ACTIONS_",
	"CI_JOB_", "CI_PIPELINE_", "CI_COMMIT_", "CI_RUNNER_", "TAUSIK_"}

func volatile(name string) bool {
	return slices.Contains(volatileEnv, name) || slices.ContainsFunc(volatilePrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}

// treeDigest digests every file of s's project (tracked and
// untracked-not-ignored, as the files runner lists them): path, executable
// bit and content sha256, a symlink's target, an absent tracked file. A
// file whose lstat stamp is what the index recorded is not read again
// (package cache). "" when a listed path is a directory (a submodule's
// work tree, whose files the listing does not name) or special, or
// something cannot be read.
func treeDigest(ctx context.Context, st cache.Store, s *runners.Scope) string {
	files, err := s.RepoFiles(ctx)
	if err != nil {
		return ""
	}
	ix := cache.LoadIndex(ctx, st, runnerName+".tree", format, s.Root)
	h := sha256.New()
	for _, f := range files {
		p := filepath.Join(s.Root, filepath.FromSlash(f))
		info, err := os.Lstat(p)
		var line string
		switch {
		case errors.Is(err, fs.ErrNotExist):
			line = "absent"
		case err != nil:
			return ""
		case info.Mode().IsRegular():
			sum := fileSum(ix, f, p, info)
			if sum == "" {
				return ""
			}
			line = fmt.Sprintf("file %t %s", info.Mode()&0o111 != 0, sum)
		case info.Mode()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return ""
			}
			line = "link " + t
		default:
			return ""
		}
		fmt.Fprintf(h, "%s\x00%s\n", f, line)
	}
	ix.Retain(files)
	_ = ix.Save(ctx) // a store that fails costs the next evaluation the reads
	return hex.EncodeToString(h.Sum(nil))
}

// fileSum is the sha256 of the regular file p (f in the index), from the
// index when its stamp is unchanged, else read and recorded; "" when it
// cannot be read.
func fileSum(ix *cache.Index, f, p string, info fs.FileInfo) string {
	stamp, stamped := cache.StampOf(info)
	if stamped {
		if hit, ok := ix.Lookup(f, stamp); ok {
			return hit.SHA256
		}
	}
	seen := time.Now()
	sum, err := filehash.SHA256(p)
	if err != nil {
		return ""
	}
	if stamped {
		ix.Record(f, stamp, seen, cache.Hit{SHA256: sum, Token: "c"})
	}
	return sum
}
