package goscan

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
// for the root) to the module path it declares, or, for a go.mod that does
// not parse or names no module, to the error (see broken).
type modules map[string]module

// module is one go.mod: its module path, or why it has none.
type module struct {
	path   string
	broken string // "file:line: what is wrong"; "" for a usable go.mod
}

// readModules reads every go.mod among the repository's files (all,
// repo-relative). It runs on every evaluation, never from the fact cache, so
// an import path always reflects the go.mod files as they are now: there are
// few of them, and a per-file cache keyed on a .go file's bytes alone would
// keep a stale path after a go.mod edit. A listed go.mod that no longer
// exists is skipped; one that cannot be read is an error naming the file (a
// fact not gathered). One that does not parse or names no module is kept as
// broken: it spoils only the .go files it encloses (setImportPaths), so a
// broken go.mod under testdata/ does not fail a repository's every gate.
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
		switch {
		case err != nil:
			mods[path.Dir(p)] = module{broken: err.Error()}
		case mf.Module == nil || mf.Module.Mod.Path == "":
			mods[path.Dir(p)] = module{broken: p + ":1: no module line"}
		default:
			mods[path.Dir(p)] = module{path: mf.Module.Mod.Path}
		}
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
// p (see facts.GoFile.ImportPath), or, when the nearest go.mod is broken,
// "" and what is wrong with it.
func (m modules) importPath(p string) (string, string) {
	dir := path.Dir(p)
	for d := dir; ; d = path.Dir(d) {
		if mod, ok := m[d]; ok {
			if mod.broken != "" {
				return "", mod.broken
			}
			mp := mod.path
			rel := "."
			if d != dir {
				rel = strings.TrimPrefix(dir, d+"/")
				if d == "." {
					rel = dir
				}
			}
			switch {
			case strings.HasPrefix(rel, "vendor/"):
				return strings.TrimPrefix(rel, "vendor/"), ""
			case rel == ".":
				return mp, ""
			case mp == stdModule:
				return rel, ""
			}
			return mp + "/" + rel, ""
		}
		if d == "." {
			return "", ""
		}
	}
}

// setImportPaths fills ImportPath in files from the go.mod files of the
// repository's listing all. A file whose nearest go.mod is broken is marked
// not parsed, its error naming the go.mod's file and line.
func setImportPaths(ctx context.Context, root string, all []string, files []facts.GoFile) error {
	mods, err := readModules(ctx, root, all)
	if err != nil {
		return err
	}
	for i := range files {
		f := &files[i]
		var broken string
		f.ImportPath, broken = mods.importPath(f.Path)
		if broken != "" {
			// The file's package has no import path to read: it is not a
			// file the go tool would build, so it reads as not parsed.
			*f = facts.GoFile{Path: f.Path, Package: f.Package, Imports: map[string]string{},
				Structs: []facts.GoStruct{}, Methods: []facts.GoMethod{},
				Error: &facts.GoError{Line: 1, Msg: "its go.mod is broken: " + broken}}
		}
	}
	return nil
}
