package shellwrites

import (
	"errors"
	"strconv"
	"strings"
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
	for _, f := range diffFiles(text) {
		p := f.name
		if !f.bare && len(p) > 2 && (p[:2] == "a/" || p[:2] == "b/") {
			p = p[2:]
		}
		r.Writes = append(r.Writes, Write{Path: p})
	}
	if len(r.Writes) == 0 {
		return r.clean(), ErrNoPatchFiles
	}
	return r.clean(), nil
}

// diffFile is one file a diff names: bare is a name git writes without its
// a/ or b/ prefix (rename from, copy to).
type diffFile struct {
	name string
	bare bool
}

// diffFiles lists the files a unified, context or git diff names, as
// written, /dev/null left out. In a git diff of a copy ("copy from"), the
// source is only read: its old names are left out.
func diffFiles(text string) []diffFile {
	var out, section []diffFile
	var old []bool // old[i]: section[i] is a source name
	isCopy := false
	flush := func() {
		for i, f := range section {
			if !isCopy || !old[i] {
				out = append(out, f)
			}
		}
		section, old, isCopy = nil, nil, false
	}
	add := func(src bool, p string, bare bool) {
		if p = diffPath(p); p != "" {
			section, old = append(section, diffFile{name: p, bare: bare}), append(old, src)
		}
	}
	lines := strings.Split(text, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], "\r")
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		switch {
		case strings.HasPrefix(line, "diff --git "):
			flush()
			a, b := gitDiffNames(line[len("diff --git "):])
			add(true, a, false)
			add(false, b, false)
		case strings.HasPrefix(line, "copy from "):
			isCopy = true
		case strings.HasPrefix(line, "rename from "):
			add(false, line[len("rename from "):], true) // deleted
		case strings.HasPrefix(line, "rename to "):
			add(false, line[len("rename to "):], true)
		case strings.HasPrefix(line, "copy to "):
			add(false, line[len("copy to "):], true)
		case i+1 < len(lines) && (strings.HasPrefix(line, "--- ") && strings.HasPrefix(lines[i+1], "+++ ") ||
			strings.HasPrefix(line, "*** ") && strings.HasPrefix(lines[i+1], "--- ")):
			// A header is a "--- " line followed by a "+++ " line (or a
			// context diff's "*** " and "--- "); inside a hunk a removed
			// "-- x" line also starts with "--- ".
			add(true, line[4:], false)
			add(false, lines[i+1][4:], false)
			i++
		}
	}
	flush()
	return out
}

// gitDiffNames splits "a/x b/y" (or the quoted forms git uses for unusual
// names) into its two names.
func gitDiffNames(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		if q, err := strconv.QuotedPrefix(s); err == nil {
			a, _ := strconv.Unquote(q)
			return a, strings.TrimSpace(s[len(q):])
		}
	}
	if i := strings.Index(s, " b/"); i >= 0 {
		return s[:i], s[i+1:]
	}
	a, b, _ := strings.Cut(s, " ")
	return a, b
}

// diffPath is the path of a diff header, "" for /dev/null.
func diffPath(p string) string {
	p, _, _ = strings.Cut(p, "\t") // a timestamp may follow
	p = strings.TrimSpace(p)
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil {
			p = u
		}
	}
	if p == "/dev/null" {
		return ""
	}
	return p
}
