// Package hostinit generates every agent host's wiring for tausik: the hooks
// that call `tausik hook <host> pre-tool-use|post-tool-use`, the OpenCode/Kilo
// plugin, and the registration of `tausik mcp`. It merges into files that
// exist — JSON, JSONC with its comments, Codex's TOML — and touches only what
// is tausik's, so a second run changes no byte. docs/hosts-init.md says what
// each host's files look like and where a host has no such file.
package hostinit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/tausik/tausik/internal/atomicfile"
)

// commands are how a host runs tausik: run for the MCP server, hook for
// the hook commands (the same, or the thin client beside it).
type commands struct{ run, hook []string }

// DefaultCommand runs tausik from PATH: an absolute path to the binary that
// ran init would break on every other machine and checkout, so hooks name
// `tausik` unless Options.Command says otherwise.
var DefaultCommand = []string{"tausik"}

// StarterConfig is the project configuration init writes when there is
// none: no overrides, every built-in gate at its default.
const StarterConfig = "{\n  \"gates\": {}\n}\n"

// ConfigRel is the project configuration's path below the root.
const ConfigRel = "tausik/gates.json"

// Options say what to generate and where.
type Options struct {
	// Root is the project: existing files are read from here.
	Root string
	// Out is where files are written (and compared, for Check); empty
	// means Root. What lands in Out is exactly what would land in Root.
	Out string
	// Hosts to wire; empty means every host detected under Root.
	Hosts []string
	// Command runs tausik (default DefaultCommand), e.g. an absolute path
	// or `go run ./cmd/tausik`; hooks append `hook <host> <event>`, MCP
	// registrations `mcp`.
	Command []string
	// HookCommand runs the hooks instead of Command when set: the thin hook
	// client (tausik-hook), which takes the same `hook <host> <event>`.
	HookCommand []string
}

// File is one file of the plan: its path below Out, what is there now
// (nil when absent) and what init would write.
type File struct {
	Rel  string
	Old  []byte
	New  []byte
	Mode fs.FileMode
	// Exists says the file is there now (Old may be empty).
	Exists bool
	// path is where it is written: below Out, symlinks resolved.
	path string
}

// Changed reports whether writing the file would change it.
func (f File) Changed() bool { return !f.Exists || !bytes.Equal(f.Old, f.New) }

// Plan is everything init would write.
type Plan struct {
	// Hosts are the hosts wired, and Detected whether they were found
	// (true) or named (false).
	Hosts    []string
	Detected bool
	Files    []File
}

// ErrNoHost marks a repository with no host detected and none named.
var ErrNoHost = errors.New("no agent host found")

// Detect returns the known hosts whose config is present under root.
func Detect(root string) []string {
	var out []string
	for _, h := range Hosts {
		for _, p := range h.Detect {
			if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil {
				out = append(out, h.Name)
				break
			}
		}
	}
	return out
}

// Build computes the plan without writing anything. It fails on an unknown
// host (ErrUnknownHost), on no host (ErrNoHost), and on an existing file it
// cannot merge into (ErrMalformed, ErrConflict, naming file and line); then
// nothing is planned at all.
func Build(o Options) (*Plan, error) {
	out := o.Out
	if out == "" {
		out = o.Root
	}
	cmd := commands{run: o.Command, hook: o.HookCommand}
	if len(cmd.run) == 0 {
		cmd.run = DefaultCommand
	}
	if len(cmd.hook) == 0 {
		cmd.hook = cmd.run
	}
	p := &Plan{}
	names := o.Hosts
	if len(names) == 0 {
		names, p.Detected = Detect(o.Root), true
		if len(names) == 0 {
			return nil, fmt.Errorf("%w", ErrNoHost)
		}
	}
	var hosts []Host
	for _, n := range names {
		i := slices.IndexFunc(Hosts, func(h Host) bool { return h.Name == n })
		if i < 0 {
			return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownHost, n, strings.Join(HostNames(), ", "))
		}
		if !slices.ContainsFunc(hosts, func(h Host) bool { return h.Name == n }) {
			hosts = append(hosts, Hosts[i])
			p.Hosts = append(p.Hosts, n)
		}
	}
	var errs []error
	for _, h := range hosts {
		for _, g := range h.files(cmd) {
			f, err := plan(o.Root, out, g)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			p.Files = append(p.Files, f)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	f, err := planConfig(o.Root, out, hosts)
	if err != nil {
		return nil, err
	}
	if f != nil {
		p.Files = append(p.Files, *f)
	}
	sort.SliceStable(p.Files, func(i, j int) bool { return p.Files[i].Rel < p.Files[j].Rel })
	return p, nil
}

// planConfig plans tausik/gates.json: the starter when the project has
// none, with what the hosts need of it (Cline's hook scripts allowed past
// memory_route) merged in; nothing when the project has one that needs
// nothing.
func planConfig(root, out string, hosts []Host) (*File, error) {
	base, exists := readIfExists(filepath.Join(root, ConfigRel))
	var allow []string
	for _, h := range hosts {
		allow = append(allow, h.allow...)
	}
	if exists && len(allow) == 0 {
		return nil, nil
	}
	if !exists {
		base = []byte(StarterConfig)
	}
	if len(allow) > 0 {
		d, err := parseJSONDoc(ConfigRel, base, false)
		if err != nil {
			return nil, err
		}
		if err := d.addStrings([]string{"gates", "memory_route", "params", "allow"}, allow); err != nil {
			return nil, err
		}
		base = d.bytes()
	}
	path, err := writePath(out, ConfigRel)
	if err != nil {
		return nil, err
	}
	f := &File{Rel: ConfigRel, New: base, Mode: 0o644, path: path}
	f.Old, f.Exists = readIfExists(path)
	return f, nil
}

// plan computes one file: merged from the project's copy under root, and
// compared with what is under out.
func plan(root, out string, g fileGen) (File, error) {
	rel := g.rel
	if g.alt != "" {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(g.alt))); err == nil {
			rel = g.alt
		}
	}
	base, exists := readIfExists(filepath.Join(root, filepath.FromSlash(rel)))
	n, err := g.gen(rel, base, exists)
	if err != nil {
		return File{}, err
	}
	path, err := writePath(out, rel)
	if err != nil {
		return File{}, err
	}
	f := File{Rel: rel, New: n, Mode: g.mode, path: path}
	f.Old, f.Exists = readIfExists(path)
	if info, err := os.Stat(path); err == nil && g.mode&0o111 == 0 {
		f.Mode = info.Mode().Perm()
	}
	return f, nil
}

// writePath is where init writes rel below out: through a symlink to its
// target (so a linked settings file stays linked), and refused (ErrLink)
// when the file or a directory on its path links out of out or to nothing.
func writePath(out, rel string) (string, error) {
	base, err := realPath(out)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", ErrLink, out, err)
	}
	path, err := realPath(filepath.Join(out, filepath.FromSlash(rel)))
	if err != nil {
		return "", fmt.Errorf("%w: %s:1: a symlink on its path leads to nothing (%v); fix or remove the link and rerun init", ErrLink, rel, err)
	}
	if r, err := filepath.Rel(base, path); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %s:1: resolves to %s, outside the project; init writes only inside it: wire that file by hand, or replace the link with a file", ErrLink, rel, path)
	}
	return path, nil
}

// realPath resolves the symlinks of p's longest existing prefix and joins
// the rest, which does not exist yet and so holds no link.
func realPath(p string) (string, error) {
	rest := ""
	for {
		if _, err := os.Lstat(p); err == nil || filepath.Dir(p) == p {
			break
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = filepath.Dir(p)
	}
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Join(r, rest), nil
}

func readIfExists(path string) ([]byte, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	return b, true
}

// Changed lists the files whose content on disk differs from the plan.
func (p *Plan) Changed() []string {
	var out []string
	for _, f := range p.Files {
		if f.Changed() {
			out = append(out, f.Rel)
		}
	}
	return out
}

// Diff is a unified diff from what is on disk to the plan.
func (p *Plan) Diff() []byte {
	var b bytes.Buffer
	for _, f := range p.Files {
		if !f.Changed() {
			continue
		}
		oldName := "a/" + f.Rel
		if !f.Exists {
			oldName = "/dev/null"
		}
		b.Write(diff.Diff(oldName, f.Old, "b/"+f.Rel, f.New))
	}
	return b.Bytes()
}

// Apply writes every changed file, each atomically (a temporary file renamed
// over the old one), keeping an existing file's permissions; a symlinked
// file is written at its target, so the link stays.
func (p *Plan) Apply() error {
	for _, f := range p.Files {
		if !f.Changed() {
			continue
		}
		err := os.MkdirAll(filepath.Dir(f.path), 0o755)
		if err == nil {
			err = atomicfile.Write(f.path, f.New, f.Mode)
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", f.Rel, err)
		}
	}
	return nil
}

// conflictErr is the refusal to overwrite a hand-written hook script.
func conflictErr(rel, command string) error {
	return fmt.Errorf("%w: %s:1: this hook script is not tausik's; add `%s` to it by hand, or move it away and rerun init", ErrConflict, rel, command)
}
