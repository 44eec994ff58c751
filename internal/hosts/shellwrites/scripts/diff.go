package scripts

import (
	"strconv"
	"strings"
)

// DiffFile is one file a diff names: Bare is a name git writes without its
// a/ or b/ prefix (rename from, copy to).
type DiffFile struct {
	Name string
	Bare bool
}

// DiffFiles lists the files a unified, context or git diff names, as
// written, /dev/null left out. In a git diff of a copy ("copy from"), the
// source is only read: its old names are left out.
func DiffFiles(text string) []DiffFile {
	var out, section []DiffFile
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
			section, old = append(section, DiffFile{Name: p, Bare: bare}), append(old, src)
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
