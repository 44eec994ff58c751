package hosts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/tausik/tausik/engine/toolcall"
)

// The input fields in which the hosts' write tools carry a file's whole new
// text, one replacement, or a list of replacements (Claude, Qwen, Gemini,
// Cursor, Copilot, OpenCode, Factory, Windsurf, Cline spell them apart).
var (
	contentFields = []string{"content", "contents", "file_text", "fileText"}
	oldFields     = []string{"old_string", "old_str", "oldString"}
	newFields     = []string{"new_string", "new_str", "newString"}
	allFields     = []string{"replace_all", "replaceAll"}
)

// edit is one replacement a write tool asks for.
type edit struct {
	old, new string
	all      bool
	want     int // Gemini's expected_replacements: the count the old text must have (0: unset)
}

// afterTexts computes, for each path a write call names (resolved), its text
// after the call from the file on disk and the call's input: a Write's
// content, an Edit's replacements applied in order, a patch's hunks.
func afterTexts(c call, resolved []string) []toolcall.WriteText {
	if c.kind != toolcall.KindWrite {
		return nil
	}
	if c.patch != "" {
		return patchTexts(c.patch, c.cwd)
	}
	if len(resolved) == 0 {
		return nil
	}
	in := c.input
	w := toolcall.WriteText{Path: resolved[0]}
	switch {
	case hasString(in, contentFields):
		text, _ := firstStringAny(in, contentFields)
		w.Text, w.Known, w.Added = text, true, []string{text}
		if len(text) > toolcall.MaxWriteText {
			w.Err, w.Known, w.Text = tooBig("the call's text"), false, ""
		}
	case c.tool == "replace_in_file":
		diff, _ := firstStringAny(in, []string{"diff"})
		edits, err := searchReplace(diff)
		w = applyEdits(w, edits, err)
	default:
		edits, ok := editsOf(in)
		if !ok {
			if s, ok := firstStringAny(in, []string{"new_source"}); ok {
				w.Added = []string{s} // a notebook cell: its text, not the file's
			}
			return []toolcall.WriteText{w}
		}
		w = applyEdits(w, edits, nil)
	}
	return []toolcall.WriteText{w}
}

// editsOf reads the replacements of an Edit (one) or a MultiEdit (a list).
func editsOf(in map[string]any) ([]edit, bool) {
	one := func(m map[string]any) (edit, bool) {
		o, okO := firstStringAny(m, oldFields)
		n, okN := firstStringAny(m, newFields)
		all, _ := firstBool(m, allFields)
		e := edit{old: o, new: n, all: all}
		if v, ok := m["expected_replacements"].(float64); ok && v >= 1 {
			e.want, e.all = int(v), true
		}
		return e, okO || okN
	}
	if list, ok := in["edits"].([]any); ok {
		var out []edit
		for _, x := range list {
			m, _ := x.(map[string]any)
			if e, ok := one(m); ok {
				out = append(out, e)
			}
		}
		return out, true
	}
	e, ok := one(in)
	if !ok {
		return nil, false
	}
	return []edit{e}, true
}

// applyEdits applies edits in order to w.Path's text on disk.
func applyEdits(w toolcall.WriteText, edits []edit, parseErr error) toolcall.WriteText {
	if parseErr != nil {
		w.Err = parseErr.Error()
		return w
	}
	text, err := readBounded(w.Path)
	if err != nil {
		w.Err = err.Error()
		return w
	}
	for i, e := range edits {
		w.Added = append(w.Added, e.new)
		if text, err = replace(text, e); err != nil {
			w.Err = fmt.Sprintf("edit %d: %v", i+1, err)
			return w
		}
		if len(text) > toolcall.MaxWriteText {
			w.Err = tooBig("the text after the call")
			return w
		}
	}
	w.Text, w.Known = text, true
	return w
}

// replace applies one replacement as the hosts' edit tools do: the old text
// must occur exactly once unless every occurrence is asked for (or exactly
// the expected count); an empty old text only creates an empty file.
func replace(text string, e edit) (string, error) {
	if e.old == "" {
		if text != "" {
			return "", errors.New("old_string is empty but the file is not")
		}
		return e.new, nil
	}
	n := strings.Count(text, e.old)
	switch {
	case n == 0:
		return "", errors.New("old_string not found")
	case e.want > 0 && n != e.want:
		return "", fmt.Errorf("old_string found %d times, expected %d", n, e.want)
	case n > 1 && !e.all:
		return "", fmt.Errorf("old_string is ambiguous: found %d times without replace_all", n)
	case e.all:
		return strings.ReplaceAll(text, e.old, e.new), nil
	}
	return strings.Replace(text, e.old, e.new, 1), nil
}

// readBounded is the file's text, "" when it does not exist.
func readBounded(p string) (string, error) {
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("cannot read the file: %v", err)
	case !info.Mode().IsRegular():
		return "", errors.New("not a regular file")
	case info.Size() > toolcall.MaxWriteText:
		return "", fmt.Errorf("the file is %d bytes, over the %d-byte bound of the text after a call", info.Size(), toolcall.MaxWriteText)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("cannot read the file: %v", err)
	}
	return string(b), nil
}

func tooBig(what string) string {
	return fmt.Sprintf("%s is over the %d-byte bound of the text after a call", what, toolcall.MaxWriteText)
}

// searchReplace reads Cline's replace_in_file diff: SEARCH/REPLACE blocks
// ("------- SEARCH" … "=======" … "+++++++ REPLACE", or the older
// "<<<<<<< SEARCH" … ">>>>>>> REPLACE"), each a replacement of its first
// occurrence.
func searchReplace(diff string) ([]edit, error) {
	var out []edit
	var old, cur *strings.Builder
	var e edit
	for _, line := range strings.SplitAfter(diff, "\n") {
		t := strings.TrimRight(line, "\r\n")
		switch {
		case strings.HasSuffix(t, "SEARCH") && (strings.HasPrefix(t, "-------") || strings.HasPrefix(t, "<<<<<<<")):
			old = &strings.Builder{}
			cur = old
		case t == "=======" && old != nil:
			e.old, cur = old.String(), &strings.Builder{}
		case strings.HasSuffix(t, "REPLACE") && (strings.HasPrefix(t, "+++++++") || strings.HasPrefix(t, ">>>>>>>")) && cur != nil && cur != old:
			e.new = cur.String()
			out = append(out, edit{old: e.old, new: e.new})
			old, cur = nil, nil
		case cur != nil:
			cur.WriteString(line)
		}
	}
	if len(out) == 0 || old != nil {
		return nil, errors.New("the diff has no complete SEARCH/REPLACE block")
	}
	return out, nil
}

func hasString(m map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := m[k].(string); ok {
			return true
		}
	}
	return false
}

// firstStringAny is the first of keys holding a string in m, empty or not.
func firstStringAny(m map[string]any, keys []string) (string, bool) {
	for _, k := range keys {
		if s, ok := m[k].(string); ok {
			return s, true
		}
	}
	return "", false
}

func firstBool(m map[string]any, keys []string) (bool, bool) {
	for _, k := range keys {
		if b, ok := m[k].(bool); ok {
			return b, true
		}
	}
	return false, false
}
