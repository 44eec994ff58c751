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

	"github.com/tausik/tausik/internal/sandbox"
	"github.com/tausik/tausik/runners"
	"github.com/tausik/tausik/runners/hosts/formats"
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
	tmp, err := os.MkdirTemp(ws.dir, "gen-")
	if err != nil {
		h.Reason = "make the generator's temp dir: " + err.Error()
		return h
	}
	defer removeAll(tmp)
	dirs := map[string]string{"repo": ws.repo}
	for _, d := range []string{"home", "out", "tmp"} {
		dirs[d] = filepath.Join(tmp, d)
		if err := os.MkdirAll(dirs[d], 0o755); err != nil {
			h.Reason = err.Error()
			return h
		}
	}
	argv, err := r.expand(g.Argv, dirs["out"])
	if err != nil {
		h.Reason = err.Error()
		return h
	}
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
		return h
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
		return h
	case ctx.Err() != nil:
		h.Reason = "canceled: " + ctx.Err().Error()
		return h
	case cmd.ProcessState == nil:
		h.Reason = fmt.Sprintf("generator for %s did not start: %v", g.Host, err)
		return h
	}
	h.ExitCode = cmd.ProcessState.ExitCode()
	if h.ExitCode != 0 {
		h.Reason = fmt.Sprintf("generator for %s exited %d", g.Host, h.ExitCode)
		if h.ExitCode < 0 {
			h.Reason = fmt.Sprintf("generator for %s was killed: %v", g.Host, err)
		}
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
