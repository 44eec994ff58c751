package shellwrites

import (
	"errors"
	"strings"

	"github.com/tausik/tausik/internal/hosts/shellwrites/scripts"
)

// ErrNoPatchFiles marks a patch that names no file: nothing can be judged,
// so a hook refuses it rather than letting an unread patch through.
var ErrNoPatchFiles = errors.New("the patch names no file")

// applyPatchHeaders are the headers of the apply_patch format of Codex and
// OpenCode; their applier trims the line around them.
var applyPatchHeaders = []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"}

// Patch returns the paths a patch writes: every apply_patch header (Codex,
// OpenCode) "*** Add File:", "*** Update File:", "*** Delete File:" and
// "*** Move to:", whatever whitespace surrounds it, as their applier trims
// it; and every file a unified or git diff names: both names of each "--- "
// / "+++ " pair and "diff --git" line, "rename from" and "rename to" (the
// source of a rename is deleted), "copy to", /dev/null left out, the a/ and
// b/ git puts there removed. Both formats are read in every patch, so one
// quoting the other cannot hide its files.
func Patch(text string) (Result, error) {
	var r Result
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		for _, h := range applyPatchHeaders {
			if p, ok := strings.CutPrefix(line, h); ok {
				if p = strings.TrimSpace(p); p != "" {
					r.Writes = append(r.Writes, Write{Path: p})
				}
			}
		}
	}
	for _, f := range scripts.DiffFiles(text) {
		p := f.Name
		if !f.Bare && len(p) > 2 && (p[:2] == "a/" || p[:2] == "b/") {
			p = p[2:]
		}
		r.Writes = append(r.Writes, Write{Path: p})
	}
	if len(r.Writes) == 0 {
		return r.clean(), ErrNoPatchFiles
	}
	return r.clean(), nil
}
