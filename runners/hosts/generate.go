package hosts

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tausik/tausik/internal/hosts/formats"
	"github.com/tausik/tausik/internal/sandbox"
	"github.com/tausik/tausik/runners"
)

// tailBytes is how much of a generator's stderr is kept, and tailLines how
// many of its last lines the facts carry.
const (
	tailBytes = 4096
	tailLines = 12
)

// generate runs g in ws's clean copy of the project and reads what it
// wrote. Every failure is a host with status failed and a reason.
func (r *Runner) generate(ctx context.Context, ws *workspace, g Generator) Host {
	hi := info(g)
	h := Host{Format: hi.Format, Kind: formats.Kind(hi.Format), Profile: hi.Profile, Generator: g.Argv, Status: StatusFailed, ExitCode: -1}
	if err := ws.clean(); err != nil {
		h.Reason = "copy the project for the generator: " + err.Error()
		return h
	}
	tmp, dirs, err := generatorDirs(ws)
	if err != nil {
		h.Reason = err.Error()
		return h
	}
	defer removeAll(tmp)
	argv, err := r.expand(g.Argv, dirs["out"])
	if err != nil {
		h.Reason = err.Error()
		return h
	}
	if !r.runGenerator(ctx, ws, g, argv, tmp, dirs, &h) {
		return h
	}
	rd, err := formats.Read(hi.Format, dirs["out"], hi.Profile, hi.MCPFiles, formats.BuiltinTable(g.Host).Extend(g.Table))
	if err != nil {
		h.Reason = fmt.Sprintf("generator for %s wrote a file that does not read as %s: %v", g.Host, hi.Format, err)
		return h
	}
	if len(rd.Files) == 0 {
		h.Reason = fmt.Sprintf("generator for %s wrote nothing readable as %s under {out}/%s", g.Host, hi.Format, hi.Profile)
		return h
	}
	h.Status, h.Generated = StatusOK, &rd
	return h
}

// generatorDirs makes the generator's temp dir under ws and in it the
// home, out and tmp directories it runs with; dirs maps those names, and
// "repo", to their paths.
func generatorDirs(ws *workspace) (tmp string, dirs map[string]string, err error) {
	tmp, err = os.MkdirTemp(ws.dir, "gen-")
	if err != nil {
		return "", nil, fmt.Errorf("make the generator's temp dir: %w", err)
	}
	dirs = map[string]string{"repo": ws.repo}
	for _, d := range []string{"home", "out", "tmp"} {
		dirs[d] = filepath.Join(tmp, d)
		if err := os.MkdirAll(dirs[d], 0o755); err != nil {
			removeAll(tmp)
			return "", nil, err
		}
	}
	return tmp, dirs, nil
}

// runGenerator runs the generator's expanded argv in the project's copy, confined
// and within its timeout, and records its exit and stderr in h. False when
// it did not exit 0, with h.Reason saying why.
func (r *Runner) runGenerator(ctx context.Context, ws *workspace, g Generator, argv []string, tmp string, dirs map[string]string, h *Host) bool {
	timeout := g.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	exe := argv[0]
	if strings.ContainsRune(exe, '/') && !filepath.IsAbs(exe) {
		exe = filepath.Join(dirs["repo"], filepath.FromSlash(exe)) // the project's own script, in the copy
	}
	path, err := exec.LookPath(exe)
	if err != nil {
		h.Reason = fmt.Sprintf("generator %s: %v", g.Argv[0], err)
		return false
	}
	cmd := exec.CommandContext(tctx, path, argv[1:]...)
	cmd.Dir = dirs["repo"]
	cmd.Env = generatorEnv(tmp, dirs)
	tail := &tailWriter{}
	cmd.Stdout = io.Discard
	cmd.Stderr = tail
	runners.Contain(cmd)
	if r.confine != nil {
		_ = sandbox.Confine(cmd, append(slices.Clone(r.confine), ws.dir)...) // ErrUnavailable: unconfined, as the caller reports
	}
	err = cmd.Run()
	h.StderrTail = tail.lines()
	switch {
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		h.Reason = fmt.Sprintf("generator for %s: no exit within %s", g.Host, timeout)
		return false
	case ctx.Err() != nil:
		h.Reason = "canceled: " + ctx.Err().Error()
		return false
	case cmd.ProcessState == nil:
		h.Reason = fmt.Sprintf("generator for %s did not start: %v", g.Host, err)
		return false
	}
	h.ExitCode = cmd.ProcessState.ExitCode()
	if h.ExitCode != 0 {
		h.Reason = fmt.Sprintf("generator for %s exited %d", g.Host, h.ExitCode)
		if h.ExitCode < 0 {
			h.Reason = fmt.Sprintf("generator for %s was killed: %v", g.Host, err)
		}
		return false
	}
	return true
}

// expand replaces the placeholders of argv.
func (r *Runner) expand(argv []string, out string) ([]string, error) {
	res := make([]string, len(argv))
	for i, a := range argv {
		if strings.Contains(a, SelfArg) {
			if r.self == "" {
				return nil, fmt.Errorf("%s: the tausik binary is not known to this run", SelfArg)
			}
			a = strings.ReplaceAll(a, SelfArg, r.self)
		}
		res[i] = strings.ReplaceAll(a, OutArg, out)
	}
	return res, nil
}

// generatorEnv is the inherited environment with HOME, the XDG directories
// and TMPDIR pointed into tmp and tausik's own locations dropped, so a
// generator writes nowhere but its temp dir and no user's configuration
// changes what it writes.
func generatorEnv(tmp string, dirs map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || k == "TMPDIR" || strings.HasPrefix(k, "XDG_") || (strings.HasPrefix(k, "TAUSIK_") && k != "TAUSIK_PYTHON") {
			continue
		}
		env = append(env, kv)
	}
	home := dirs["home"]
	return append(env, "HOME="+home, "TMPDIR="+dirs["tmp"],
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_CACHE_HOME="+filepath.Join(home, ".cache"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"), "XDG_STATE_HOME="+filepath.Join(home, ".local", "state"),
		"TAUSIK_DB="+filepath.Join(tmp, "tausik.db"), "PYTHONDONTWRITEBYTECODE=1", "GOTELEMETRY=off")
}

// copyFiles copies the project-relative files from root into dir, keeping
// the executable bit; a file that vanished since the listing is skipped.
func copyFiles(root, dir string, files []string) error {
	for _, f := range files {
		src := filepath.Join(root, filepath.FromSlash(f))
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, b, info.Mode().Perm()|0o200); err != nil {
			return err
		}
	}
	return nil
}

// tailWriter keeps the last tailBytes written to it.
type tailWriter struct{ buf []byte }

func (t *tailWriter) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = t.buf[len(t.buf)-tailBytes:]
	}
	return len(p), nil
}

// lines returns the last tailLines lines kept.
func (t *tailWriter) lines() string {
	s := strings.TrimRight(string(bytes.ToValidUTF8(t.buf, []byte("?"))), "\n")
	ls := strings.Split(s, "\n")
	if len(ls) > tailLines {
		ls = ls[len(ls)-tailLines:]
	}
	return strings.Join(ls, "\n")
}
