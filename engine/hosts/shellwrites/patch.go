package shellwrites

import (
	"errors"
	"strings"
)

// ErrNoPatchFiles marks a patch that names no file: nothing can be judged,
// so a hook refuses it rather than letting an unread patch through.
var ErrNoPatchFiles = errors.New("the patch names no file")

// Patch returns the paths a patch writes: in the apply_patch format of Codex
// and OpenCode, every "*** Add File:", "*** Update File:", "*** Delete File:"
// and "*** Move to:" header; in a unified diff (when there is no "*** Begin
// Patch"), every "--- a/x" and "+++ b/x" header other than /dev/null, with
// the a/ and b/ prefixes git puts there removed.
func Patch(text string) (Result, error) {
	var r Result
	if strings.Contains(text, "*** Begin Patch") || strings.Contains(text, "*** Update File:") ||
		strings.Contains(text, "*** Add File:") || strings.Contains(text, "*** Delete File:") {
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimRight(line, "\r")
			for _, h := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
				if p, ok := strings.CutPrefix(line, h); ok {
					if p = strings.TrimSpace(p); p != "" {
						r.Writes = append(r.Writes, Write{Path: p})
					}
				}
			}
		}
	} else {
		lines := strings.Split(text, "\n")
		for i := 0; i+1 < len(lines); i++ {
			// A header is a "--- " line followed by a "+++ " line; inside a
			// hunk a removed "-- x" line also starts with "--- ".
			old, ok1 := strings.CutPrefix(strings.TrimRight(lines[i], "\r"), "--- ")
			nw, ok2 := strings.CutPrefix(strings.TrimRight(lines[i+1], "\r"), "+++ ")
			if !ok1 || !ok2 {
				continue
			}
			for _, p := range []string{old, nw} {
				if p = diffPath(p); p != "" {
					r.Writes = append(r.Writes, Write{Path: p})
				}
			}
			i++
		}
	}
	if len(r.Writes) == 0 {
		return r.clean(), ErrNoPatchFiles
	}
	return r.clean(), nil
}

// diffPath is the path of a unified diff header, "" for /dev/null.
func diffPath(p string) string {
	p, _, _ = strings.Cut(p, "\t") // a timestamp may follow
	p = strings.TrimSpace(p)
	if p == "/dev/null" {
		return ""
	}
	if len(p) > 2 && (p[:2] == "a/" || p[:2] == "b/") {
		p = p[2:]
	}
	return p
}
