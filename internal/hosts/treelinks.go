package hosts

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/engine/toolcall"
	"github.com/tausik/tausik/facts"
)

// maxLinkWalk bounds the entries linksBelow looks at under one written
// directory: a hook stays fast on a large tree.
const maxLinkWalk = 5000

// linkWrites adds, for each written path that is a directory on disk, what
// the symbolic links below it point to outside it: a copy or an extraction
// into the directory writes through them (tar -C src -x
// writes tausik/gates.json through src/l -> ../tausik). A directory too
// large to look through is an Unknown. A removal (removed: rm -r, find
// -delete, git clean) deletes the links themselves and writes nothing
// through them.
func linkWrites(tc *toolcall.Call, removed map[string]bool) {
	n := len(tc.Writes)
	for _, p := range tc.Writes[:n] {
		if removed[p] {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			continue
		}
		targets, complete := linksBelow(p, maxLinkWalk)
		tc.Writes = append(tc.Writes, targets...)
		if !complete {
			tc.Unknown = append(tc.Unknown, facts.UnknownWrite{Text: p,
				Reason: "the directory written holds more than 5000 entries, and a symbolic link below it may point anywhere"})
		}
	}
}

// linksBelow lists the targets (resolved, or read from the link when it
// dangles) of the symbolic links below dir that point outside it, .git
// left out; complete is false when dir holds more than limit entries.
func linksBelow(dir string, limit int) (targets []string, complete bool) {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r // the targets are resolved: so is the directory they are compared with
	}
	seen := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: nothing below it is written either
		}
		if seen++; seen > limit {
			return fs.SkipAll
		}
		if d.IsDir() && d.Name() == ".git" {
			return fs.SkipDir
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		t, err := filepath.EvalSymlinks(p)
		if err != nil {
			raw, rerr := os.Readlink(p)
			if rerr != nil {
				return nil
			}
			if t = raw; !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(p), raw)
			}
		}
		if t != dir && !strings.HasPrefix(t, dir+string(filepath.Separator)) {
			targets = append(targets, t)
		}
		return nil
	})
	return targets, err == nil && seen <= limit
}
