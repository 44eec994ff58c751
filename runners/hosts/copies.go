package hosts

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Copy is a source directory and the directories it is deployed to, all
// project-relative and "/"-separated ("scripts/" → ".claude/scripts/").
type Copy struct {
	Source  string
	Targets []string
}

// CopyFacts compares one deployed copy with its source.
type CopyFacts struct {
	Source        string `json:"source"`
	Target        string `json:"target"`
	SourcePresent bool   `json:"source_present"`
	TargetPresent bool   `json:"target_present"`
	// Files counts the source files compared.
	Files int `json:"files"`
	// Drifted lists the target files that differ from their source or are
	// missing, sorted by path.
	Drifted []Drift `json:"drifted"`
}

// Drift is one deployed file that is not its source's copy.
type Drift struct {
	Path  string `json:"path"`  // the deployed path, project-relative
	State string `json:"state"` // "differs" or "missing"
}

// skipCopy reports whether a source entry is not deployed: bytecode and
// VCS directories.
func skipCopy(name string, dir bool) bool {
	if dir {
		return name == "__pycache__" || name == ".git"
	}
	return strings.HasSuffix(name, ".pyc")
}

// compareCopies compares every target of c with c's source under root.
func compareCopies(root string, c Copy) ([]CopyFacts, error) {
	var out []CopyFacts
	for _, t := range c.Targets {
		cf, err := compareCopy(root, c.Source, t)
		if err != nil {
			return nil, err
		}
		out = append(out, cf)
	}
	return out, nil
}

// compareCopy compares target with source: every file under source,
// recursively, must have a byte-identical copy under target, CRLF read as
// LF. Extra files in the target are fine. A source or target that is there
// but cannot be looked at, a target that is a file, and a source directory
// that cannot be walked are errors naming the path: a copy not compared must
// not read as one not deployed, which passes.
func compareCopy(root, source, target string) (CopyFacts, error) {
	cf := CopyFacts{Source: source, Target: target, Drifted: []Drift{}}
	src := filepath.Join(root, filepath.FromSlash(source))
	dst := filepath.Join(root, filepath.FromSlash(target))
	var err error
	if cf.SourcePresent, err = isDir(src, source, false); err != nil {
		return cf, err
	}
	if cf.TargetPresent, err = isDir(dst, target, true); err != nil {
		return cf, err
	}
	if !cf.SourcePresent || !cf.TargetPresent {
		return cf, nil
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != src && skipCopy(d.Name(), d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(src, p)
		cf.Files++
		deployed := path.Join(strings.TrimSuffix(target, "/"), filepath.ToSlash(rel))
		want, err1 := os.ReadFile(p)
		got, err2 := os.ReadFile(filepath.Join(dst, rel))
		switch {
		case err2 != nil:
			cf.Drifted = append(cf.Drifted, Drift{Path: deployed, State: "missing"})
		case err1 != nil || !bytes.Equal(lf(want), lf(got)):
			cf.Drifted = append(cf.Drifted, Drift{Path: deployed, State: "differs"})
		}
		return nil
	})
	if err != nil {
		return cf, fmt.Errorf("compare %s with %s: %w", target, source, err)
	}
	return cf, nil
}

func lf(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// isDir reports whether p (rel, for messages) is a directory: false when
// nothing is there; an error when it cannot be looked at (a file where a
// directory on its path belongs included) and, for a target, when a file
// sits where the copy belongs.
func isDir(p, rel string, target bool) (bool, error) {
	st, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("%s: %w", rel, err)
	case !st.IsDir() && target:
		return false, fmt.Errorf("%s: a file where the deployed copy's directory belongs", rel)
	}
	return st.IsDir(), nil
}
