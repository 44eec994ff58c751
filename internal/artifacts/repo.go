package artifacts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tausik/tausik/internal/atomicfile"
)

// Repo reads and writes the artifacts of the project at Root.
type Repo struct {
	Root string
	// Now stamps created_at, updated_at and signed_at; time.Now when nil.
	Now func() time.Time
}

func (r Repo) now() string {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	return now().UTC().Format(time.RFC3339)
}

// Rel is the repo-relative path of an artifact of kind with slug.
func Rel(kind, slug string) string {
	if kind == KindSpec {
		return SpecsDir + "/" + slug + ".md"
	}
	return AdaptsDir + "/" + slug + ".md"
}

func (r Repo) abs(rel string) string { return filepath.Join(r.Root, filepath.FromSlash(rel)) }

// Slugs lists the slugs of kind's files on disk, sorted.
func (r Repo) Slugs(kind string) ([]string, error) {
	dir := SpecsDir
	if kind == KindAdapt {
		dir = AdaptsDir
	}
	entries, err := os.ReadDir(r.abs(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		if s, ok := strings.CutSuffix(e.Name(), ".md"); ok && !e.IsDir() {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Load reads and parses the artifact of kind with slug. ErrNotFound names
// the slugs there are; a file that does not parse is a *ParseError.
func (r Repo) Load(kind, slug string) (*Doc, error) {
	if err := checkSlug(kind, slug); err != nil {
		return nil, err
	}
	rel := Rel(kind, slug)
	data, err := os.ReadFile(r.abs(rel))
	if errors.Is(err, fs.ErrNotExist) {
		have, _ := r.Slugs(kind)
		return nil, fmt.Errorf("%w: %s %q (%s does not exist; there are: %s)", ErrNotFound, kind, slug, rel, listOrNone(have))
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	return Parse(rel, data)
}

// LoadSpec loads and decodes a SPEC.
func (r Repo) LoadSpec(slug string) (*Doc, Spec, error) {
	d, err := r.Load(KindSpec, slug)
	if err != nil {
		return nil, Spec{}, err
	}
	s, err := ReadSpec(d)
	return d, s, err
}

// LoadAdapt loads and decodes an ADAPT.
func (r Repo) LoadAdapt(slug string) (*Doc, Adapt, error) {
	d, err := r.Load(KindAdapt, slug)
	if err != nil {
		return nil, Adapt{}, err
	}
	a, err := ReadAdapt(d)
	return d, a, err
}

// Save writes d back to its file atomically.
func (r Repo) Save(d *Doc) error {
	b, err := d.Bytes()
	if err != nil {
		return err
	}
	return writeAtomic(r.abs(d.File), b)
}

// create writes a new artifact file, refusing one that exists (ErrExists).
func (r Repo) create(kind, slug string, d *Doc) error {
	path := r.abs(Rel(kind, slug))
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%w: %s", ErrExists, Rel(kind, slug))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", Rel(kind, slug), err)
	}
	return r.Save(d)
}

// writeAtomic writes data over path atomically, keeping path's mode, so a
// reader never sees half a file.
func writeAtomic(path string, data []byte) error {
	mode, err := atomicfile.Mode(path, 0o644)
	if err == nil {
		err = atomicfile.Write(path, data, mode)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func listOrNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	const most = 20
	if len(l) > most {
		return strings.Join(l[:most], ", ") + fmt.Sprintf(" and %d more", len(l)-most)
	}
	return strings.Join(l, ", ")
}
