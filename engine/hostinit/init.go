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
)

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
	out      string
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
	cmd := o.Command
	if len(cmd) == 0 {
		cmd = DefaultCommand
	}
	p := &Plan{out: out}
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
	if _, err := os.Stat(filepath.Join(o.Root, ConfigRel)); errors.Is(err, fs.ErrNotExist) {
		f := File{Rel: ConfigRel, New: []byte(StarterConfig), Mode: 0o644}
		f.Old, f.Exists = readIfExists(filepath.Join(out, ConfigRel))
		p.Files = append(p.Files, f)
	}
	sort.SliceStable(p.Files, func(i, j int) bool { return p.Files[i].Rel < p.Files[j].Rel })
	return p, nil
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
	f := File{Rel: rel, New: n, Mode: g.mode}
	f.Old, f.Exists = readIfExists(filepath.Join(out, filepath.FromSlash(rel)))
	if info, err := os.Stat(filepath.Join(out, filepath.FromSlash(rel))); err == nil && g.mode&0o111 == 0 {
		f.Mode = info.Mode().Perm()
	}
	return f, nil
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
// over the old one), keeping an existing file's permissions.
func (p *Plan) Apply() error {
	for _, f := range p.Files {
		if !f.Changed() {
			continue
		}
		path := filepath.Join(p.out, filepath.FromSlash(f.Rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", f.Rel, err)
		}
		tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tausik-*")
		if err != nil {
			return fmt.Errorf("write %s: %w", f.Rel, err)
		}
		_, err = tmp.Write(f.New)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Chmod(tmp.Name(), f.Mode)
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("write %s: %w", f.Rel, err)
		}
	}
	return nil
}

// conflictErr is the refusal to overwrite a hand-written hook script.
func conflictErr(rel, command string) error {
	return fmt.Errorf("%w: %s:1: this hook script is not tausik's; add `%s` to it by hand, or move it away and rerun init", ErrConflict, rel, command)
}
