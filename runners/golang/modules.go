package golang

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/tausik/tausik/facts"
)

// stdModule is the module path of the standard library's go.mod
// (GOROOT/src), whose packages are imported by their directory alone.
const stdModule = "std"

// modules maps each directory of the repository that holds a go.mod ("."
// for the root) to the module path it declares.
type modules map[string]string

// readModules reads every go.mod among the repository's files (all,
// repo-relative). It runs on every evaluation, never from the fact cache, so
// an import path always reflects the go.mod files as they are now: there are
// few of them, and a per-file cache keyed on a .go file's bytes alone would
// keep a stale path after a go.mod edit. A listed go.mod that no longer
// exists is skipped; one that cannot be read, does not parse or names no
// module is an error naming the file (and the line, when there is one).
func readModules(ctx context.Context, root string, all []string) (modules, error) {
	mods := modules{}
	for _, p := range all {
		if path.Base(p) != "go.mod" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := readAll(filepath.Join(root, filepath.FromSlash(p)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", p, err)
		}
		mf, err := modfile.ParseLax(p, b, nil)
		if err != nil {
			return nil, fmt.Errorf("module path: %w", err)
		}
		if mf.Module == nil || mf.Module.Mod.Path == "" {
			return nil, fmt.Errorf("module path: %s:1: no module line", p)
		}
		mods[path.Dir(p)] = mf.Module.Mod.Path
	}
	return mods, nil
}

// readAll reads a file through openFile, so tests can fail the read.
func readAll(name string) ([]byte, error) {
	f, err := openFile(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// importPath is the import path of the directory of the repo-relative file
// p: see facts.GoFile.ImportPath.
func (m modules) importPath(p string) string {
	dir := path.Dir(p)
	for d := dir; ; d = path.Dir(d) {
		if mp, ok := m[d]; ok {
			rel := "."
			if d != dir {
				rel = strings.TrimPrefix(dir, d+"/")
				if d == "." {
					rel = dir
				}
			}
			switch {
			case strings.HasPrefix(rel, "vendor/"):
				return strings.TrimPrefix(rel, "vendor/")
			case rel == ".":
				return mp
			case mp == stdModule:
				return rel
			}
			return mp + "/" + rel
		}
		if d == "." {
			return ""
		}
	}
}

// setImportPaths fills ImportPath in files from the go.mod files of the
// repository's listing all.
func setImportPaths(ctx context.Context, root string, all []string, files []facts.GoFile) error {
	mods, err := readModules(ctx, root, all)
	if err != nil {
		return err
	}
	for i := range files {
		files[i].ImportPath = mods.importPath(files[i].Path)
	}
	return nil
}
