package fs

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/runners"
)

// linguist fills Linguist for the files that .gitattributes marks
// linguist-generated or linguist-vendored (generated when both), asking git
// itself (git check-attr), so the patterns, their order, nested
// .gitattributes files, .git/info/attributes and "-attr" / "attr=false"
// unsetting mean exactly what they mean to git and GitHub. The system-wide
// and the user's global attribute files are not read: what a file is must
// not depend on the machine. Outside a git work tree no file is marked
// (git reads .gitattributes only in a repository). Inside one, a git that
// fails is an error: a file it would have marked must not be judged by
// accident, nor one it would not have marked be skipped. git is not asked
// about a file no attribute source can mark, nor again about one whose
// sources are unchanged since it last answered (see attrSources).
func linguist(ctx context.Context, root string, files []facts.File) error {
	top := runners.GitTop(root)
	if top == "" {
		return nil
	}
	var paths []string
	for _, f := range files {
		if f.Exists {
			paths = append(paths, f.Path)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	src, known := readAttrSources(ctx, top, root, paths)
	at := make(map[string]int, len(files))
	var in bytes.Buffer
	for i, f := range files {
		if !f.Exists {
			continue
		}
		if known {
			if v, ok := rememberedLinguist(src.key(root, f.Path)); ok {
				files[i].Linguist = v
				continue
			}
			if src.unmarkable(root, f.Path) {
				rememberLinguist(src.key(root, f.Path), "")
				continue
			}
		}
		in.WriteString(f.Path)
		in.WriteByte(0)
		at[f.Path] = i
	}
	if len(at) == 0 {
		return nil
	}
	if err := checkAttr(ctx, root, top, &in, at, files); err != nil {
		return err
	}
	if known {
		for p, i := range at {
			rememberLinguist(src.key(root, p), files[i].Linguist)
		}
	}
	return nil
}

// checkAttr asks git check-attr about the NUL-separated paths of in and
// fills the Linguist of files[at[path]].
func checkAttr(ctx context.Context, root, top string, in *bytes.Buffer, at map[string]int, files []facts.File) error {
	cmd := exec.CommandContext(ctx, "git", "-c", "core.attributesFile=", "check-attr", "-z", "linguist-generated", "linguist-vendored", "--stdin")
	cmd.Dir = root
	cmd.Env = append(runners.GitEnv(), "GIT_ATTR_NOSYSTEM=1", "GIT_CEILING_DIRECTORIES="+filepath.Dir(top))
	cmd.Stdin = in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git check-attr: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	// -z output: path NUL attribute NUL value NUL, for each path and attribute.
	fields := bytes.Split(out, []byte{0})
	if n := len(fields); n > 0 && len(fields[n-1]) == 0 {
		fields = fields[:n-1]
	}
	if len(fields)%3 != 0 {
		return fmt.Errorf("git check-attr: %d output fields, not triples", len(fields))
	}
	for k := 0; k < len(fields); k += 3 {
		i, ok := at[string(fields[k])]
		if !ok {
			return fmt.Errorf("git check-attr: answered for %q, which was not asked", fields[k])
		}
		if v := string(fields[k+2]); v != "set" && v != "true" {
			continue // unset, unspecified, false or any other value: not marked
		}
		switch string(fields[k+1]) {
		case "linguist-generated":
			files[i].Linguist = "generated"
		case "linguist-vendored":
			if files[i].Linguist == "" {
				files[i].Linguist = "vendored"
			}
		}
	}
	return nil
}
