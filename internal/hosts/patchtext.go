package hosts

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tausik/tausik/engine/toolcall"
)

// patchFile is one file section of an apply_patch patch.
type patchFile struct {
	path, moveTo string
	add          bool
	hunks        [][]string // each hunk's lines, with their ' ', '-', '+' prefix
}

// patchTexts computes the text each file of an apply_patch patch (the
// format Codex, OpenCode, Cline, Copilot and Factory send) has after it is
// applied to the files on disk, read from cwd. A file the patch deletes has
// no text; a unified or git diff is not modelled (its files are judged as
// they are on disk).
func patchTexts(patch, cwd string) []toolcall.WriteText {
	if !strings.Contains(patch, "*** Begin Patch") {
		return nil
	}
	var files []*patchFile
	var cur *patchFile
	for _, line := range strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(t, "*** Add File:"):
			cur = &patchFile{path: strings.TrimSpace(strings.TrimPrefix(t, "*** Add File:")), add: true, hunks: [][]string{nil}}
			files = append(files, cur)
		case strings.HasPrefix(t, "*** Update File:"):
			cur = &patchFile{path: strings.TrimSpace(strings.TrimPrefix(t, "*** Update File:"))}
			files = append(files, cur)
		case strings.HasPrefix(t, "*** Delete File:"):
			cur = nil
		case strings.HasPrefix(t, "*** Move to:") && cur != nil:
			cur.moveTo = strings.TrimSpace(strings.TrimPrefix(t, "*** Move to:"))
		case strings.HasPrefix(t, "***"):
		case cur == nil:
		case strings.HasPrefix(line, "@@"):
			cur.hunks = append(cur.hunks, nil)
		case len(cur.hunks) == 0:
			cur.hunks = [][]string{{line}}
		default:
			cur.hunks[len(cur.hunks)-1] = append(cur.hunks[len(cur.hunks)-1], line)
		}
	}
	var out []toolcall.WriteText
	for _, f := range files {
		dest := f.path
		if f.moveTo != "" {
			dest = f.moveTo
		}
		if !filepath.IsAbs(dest) && cwd == "" {
			continue
		}
		out = append(out, applyPatchFile(f, within(cwd, f.path), within(cwd, dest)))
	}
	return out
}

func within(cwd, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

// applyPatchFile applies f's hunks to src's text on disk (none for a new
// file), for dest.
func applyPatchFile(f *patchFile, src, dest string) toolcall.WriteText {
	w := toolcall.WriteText{Path: dest}
	text := ""
	if !f.add {
		var err error
		if text, err = readBounded(src); err != nil {
			w.Err = err.Error()
			return w
		}
	}
	final := strings.HasSuffix(text, "\n") || text == ""
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	at := 0
	for i, h := range f.hunks {
		var old, repl []string
		for _, l := range h {
			switch {
			case strings.HasPrefix(l, "+"):
				repl = append(repl, l[1:])
				w.Added = append(w.Added, l[1:])
			case strings.HasPrefix(l, "-"):
				old = append(old, l[1:])
			case strings.HasPrefix(l, " "):
				old, repl = append(old, l[1:]), append(repl, l[1:])
			case l == "":
				old, repl = append(old, ""), append(repl, "")
			}
		}
		for len(old) > 0 && len(repl) > 0 && old[len(old)-1] == "" && repl[len(repl)-1] == "" {
			old, repl = old[:len(old)-1], repl[:len(repl)-1] // the blank line a patch ends with
		}
		pos := find(lines, old, at)
		if pos < 0 {
			w.Err = fmt.Sprintf("the patch does not apply: the lines of hunk %d are not in the file", i+1)
			return w
		}
		lines = append(lines[:pos:pos], append(repl, lines[pos+len(old):]...)...)
		at = pos + len(repl)
	}
	w.Text = strings.Join(lines, "\n")
	if final && len(lines) > 0 {
		w.Text += "\n"
	}
	if len(w.Text) > toolcall.MaxWriteText {
		w.Text, w.Err = "", tooBig("the text after the call")
		return w
	}
	w.Known = true
	return w
}

// find is the first index at or after from where lines holds old, exactly
// or, failing that, with trailing spaces ignored as the patch tool does.
func find(lines, old []string, from int) int {
	if len(old) == 0 {
		return min(from, len(lines))
	}
	for _, trim := range []bool{false, true} {
		for i := from; i+len(old) <= len(lines); i++ {
			ok := true
			for j, o := range old {
				a, b := lines[i+j], o
				if trim {
					a, b = strings.TrimRight(a, " \t"), strings.TrimRight(b, " \t")
				}
				if a != b {
					ok = false
					break
				}
			}
			if ok {
				return i
			}
		}
	}
	return -1
}
