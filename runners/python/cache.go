package python

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tausik/tausik/facts"
)

// Version is the version of the facts the runner derives from a file's bytes
// and of their encoding in the fact cache (encodeFacts). Cached facts of
// another version are rebuilt: bump it whenever the scanner's output (then
// pyscan.Version too) or the encoding could change.
// TestVersionGuardsCachedFacts fails when the facts of the test corpus
// change and Version does not.
const Version = "1"

// encodeFacts writes a file's facts as a cache payload, read back by
// decodeFacts, in a form that loads faster than JSON:
//
//	<len(path)>:<path>E<line> <msg>                         unparseable
//	<len(path)>:<path>P{|<line> <name> <bases> <public>}    parsed
//
// with one |-prefixed group per class and the names of bases and public
// comma-separated. ok is false for facts this form could not give back
// exactly (a name holding a separator, a nil list, an error with classes);
// the scanner produces none, and such a file would simply not be cached.
func encodeFacts(f facts.PythonFile) (string, bool) {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(f.Path)))
	b.WriteByte(':')
	b.WriteString(f.Path)
	switch {
	case f.Classes == nil:
		return "", false
	case !f.Parsed:
		if f.Error == nil || f.Error.Line < 1 || f.Error.Msg == "" || len(f.Classes) > 0 {
			return "", false
		}
		b.WriteByte('E')
		b.WriteString(strconv.Itoa(f.Error.Line))
		b.WriteByte(' ')
		b.WriteString(f.Error.Msg)
		return b.String(), true
	case f.Error != nil:
		return "", false
	}
	b.WriteByte('P')
	for _, c := range f.Classes {
		if !encodableName(c.Name) || c.Line < 1 || c.Bases == nil || c.Public == nil {
			return "", false
		}
		b.WriteByte('|')
		b.WriteString(strconv.Itoa(c.Line))
		b.WriteByte(' ')
		b.WriteString(c.Name)
		for _, list := range [][]string{c.Bases, c.Public} {
			b.WriteByte(' ')
			for j, n := range list {
				if !encodableName(n) {
					return "", false
				}
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString(n)
			}
		}
	}
	return b.String(), true
}

// encodableName reports whether n survives the payload's separators.
func encodableName(n string) bool { return n != "" && !strings.ContainsAny(n, " ,|") }

// decodeFacts reads a payload of encodeFacts back as the facts of the file at
// path, size bytes long. ok is false for a payload that is malformed,
// describes another path, cannot describe a file of that size (a line past
// its last) or holds facts the scanner never produces (a class without a
// name, classes out of source order, unsorted public names): the file is
// then read again.
func decodeFacts(path string, size int64, payload string) (facts.PythonFile, bool) {
	maxLine := size + 1 // n bytes hold at most n newlines
	n, rest, found := strings.Cut(payload, ":")
	if !found || n != strconv.Itoa(len(path)) || !strings.HasPrefix(rest, path) {
		return facts.PythonFile{}, false
	}
	rest = rest[len(path):]
	f := facts.PythonFile{Path: path, Classes: []facts.PythonClass{}}
	if msg, ok := strings.CutPrefix(rest, "E"); ok {
		ln, msg, _ := strings.Cut(msg, " ")
		line, err := strconv.Atoi(ln)
		if err != nil || line < 1 || int64(line) > maxLine || msg == "" || ln != strconv.Itoa(line) {
			return facts.PythonFile{}, false
		}
		f.Error = &facts.PythonError{Line: line, Msg: msg}
		return f, true
	}
	rest, ok := strings.CutPrefix(rest, "P")
	if !ok {
		return facts.PythonFile{}, false
	}
	f.Parsed = true
	if rest == "" {
		return f, true
	}
	groups := strings.Split(rest, "|")
	if groups[0] != "" {
		return facts.PythonFile{}, false
	}
	f.Classes = make([]facts.PythonClass, 0, len(groups)-1)
	for _, g := range groups[1:] {
		c, ok := decodeClass(g)
		if !ok || int64(c.Line) > maxLine || len(f.Classes) > 0 && c.Line <= f.Classes[len(f.Classes)-1].Line {
			return facts.PythonFile{}, false
		}
		f.Classes = append(f.Classes, c)
	}
	return f, true
}

// decodeClass reads one "<line> <name> <bases> <public>" group.
func decodeClass(g string) (facts.PythonClass, bool) {
	var fields [4]string // cut, not split: no allocation per class
	rest, ok := g, true
	for i := range 3 {
		if fields[i], rest, ok = strings.Cut(rest, " "); !ok {
			return facts.PythonClass{}, false
		}
	}
	if fields[3] = rest; strings.Contains(rest, " ") {
		return facts.PythonClass{}, false
	}
	line, err := strconv.Atoi(fields[0])
	if err != nil || line < 1 || fields[0] != strconv.Itoa(line) || fields[1] == "" || strings.Contains(fields[1], ",") {
		return facts.PythonClass{}, false
	}
	bases, ok1 := splitNames(fields[2])
	public, ok2 := splitNames(fields[3])
	if !ok1 || !ok2 || !strictlySorted(public) {
		return facts.PythonClass{}, false
	}
	return facts.PythonClass{Name: fields[1], Line: line, Bases: bases, Public: public}, true
}

// splitNames reads a comma-separated list of names; "" is the empty list.
func splitNames(s string) ([]string, bool) {
	if s == "" {
		return []string{}, true
	}
	names := strings.Split(s, ",")
	return names, !slices.Contains(names, "")
}

// strictlySorted reports whether names are sorted and free of duplicates.
func strictlySorted(names []string) bool {
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			return false
		}
	}
	return true
}
