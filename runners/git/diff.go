package git

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Caps bound how much added text the "since" facts keep, so a large refactor
// cannot blow up the facts document. Counts are never capped; only the quoted
// text is.
type Caps struct {
	LinesPerFile int // added lines quoted per file
	LineBytes    int // bytes kept of each quoted line
	TotalBytes   int // quoted bytes across all files
}

// DefaultCaps keeps enough text to quote a changelog entry.
var DefaultCaps = Caps{LinesPerFile: 20, LineBytes: 300, TotalBytes: 128 << 10}

// added accumulates one file's added lines.
type added struct {
	count, nonBlank int64
	lines           []string
	trunc           bool
}

// collector gathers added lines per path under caps.
type collector struct {
	caps  Caps
	used  int
	files map[string]*added
}

func newCollector(c Caps) *collector {
	return &collector{caps: c, files: map[string]*added{}}
}

func (c *collector) file(path string) *added {
	a := c.files[path]
	if a == nil {
		a = &added{}
		c.files[path] = a
	}
	return a
}

// add records one added line of path (without its trailing newline).
func (c *collector) add(path string, line []byte) {
	line = bytes.TrimSuffix(line, []byte{'\r'})
	a := c.file(path)
	a.count++
	if !isBlank(line) {
		a.nonBlank++
	}
	if len(a.lines) >= c.caps.LinesPerFile || c.used >= c.caps.TotalBytes {
		a.trunc = true
		return
	}
	keep := min(len(line), c.caps.LineBytes, c.caps.TotalBytes-c.used)
	if keep < len(line) {
		a.trunc = true
		for keep > 0 && !utf8.RuneStart(line[keep]) {
			keep--
		}
	}
	c.used += keep
	a.lines = append(a.lines, strings.ToValidUTF8(string(line[:keep]), "\uFFFD"))
}

// isBlank reports whether line holds only whitespace.
func isBlank(line []byte) bool {
	for len(line) > 0 {
		r, size := utf8.DecodeRune(line)
		if !unicode.IsSpace(r) {
			return false
		}
		line = line[size:]
	}
	return true
}

// parseAddedLines reads `git diff --unified=0 --src-prefix=a/ --dst-prefix=b/`
// output and hands every added line to c under its new path. It follows the
// hunk headers' line counts, so an added line that itself starts with "+++ "
// or "diff --git" is never mistaken for a header.
func parseAddedLines(patch []byte, c *collector) error {
	var path string
	var oldLeft, newLeft int64
	inHunk := false
	for lineNo := 1; len(patch) > 0; lineNo++ {
		var line []byte
		if i := bytes.IndexByte(patch, '\n'); i >= 0 {
			line, patch = patch[:i], patch[i+1:]
		} else {
			line, patch = patch, nil
		}
		if inHunk {
			switch {
			case len(line) > 0 && line[0] == '\\': // "\ No newline at end of file"
				continue
			case len(line) > 0 && line[0] == '+':
				newLeft--
				if path != "" {
					c.add(path, line[1:])
				}
			case len(line) > 0 && line[0] == '-':
				oldLeft--
			case len(line) == 0 || line[0] == ' ':
				oldLeft--
				newLeft--
			default:
				return fmt.Errorf("diff line %d: unexpected %q inside a hunk", lineNo, truncate(string(line), 40))
			}
			if oldLeft < 0 || newLeft < 0 {
				return fmt.Errorf("diff line %d: hunk longer than its header says", lineNo)
			}
			inHunk = oldLeft > 0 || newLeft > 0
			continue
		}
		switch {
		case bytes.HasPrefix(line, []byte("diff --git ")):
			path = ""
		case bytes.HasPrefix(line, []byte("+++ ")):
			p, err := diffPath(string(line[4:]))
			if err != nil {
				return fmt.Errorf("diff line %d: %w", lineNo, err)
			}
			path = p
		case bytes.HasPrefix(line, []byte("@@ ")):
			o, n, err := hunkCounts(string(line))
			if err != nil {
				return fmt.Errorf("diff line %d: %w", lineNo, err)
			}
			oldLeft, newLeft = o, n
			inHunk = o > 0 || n > 0
		}
	}
	if inHunk {
		return fmt.Errorf("diff ends inside a hunk")
	}
	return nil
}

// diffPath turns the name on a "+++ " line into a path: "/dev/null" is no
// path, a C-quoted name is unquoted, the "b/" prefix is dropped, and the tab
// git appends after a name that contains a space is removed.
func diffPath(name string) (string, error) {
	if name == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(name, `"`) {
		u, err := strconv.Unquote(strings.TrimSuffix(name, "\t"))
		if err != nil {
			return "", fmt.Errorf("unquote path %s: %w", truncate(name, 40), err)
		}
		name = u
	} else {
		name = strings.TrimSuffix(name, "\t")
	}
	p, ok := strings.CutPrefix(name, "b/")
	if !ok {
		return "", fmt.Errorf("path %q lacks the b/ prefix", truncate(name, 40))
	}
	return p, nil
}

// hunkCounts reads the old and new line counts of "@@ -l[,s] +l[,s] @@".
func hunkCounts(h string) (int64, int64, error) {
	rest, ok := strings.CutPrefix(h, "@@ -")
	if !ok {
		return 0, 0, fmt.Errorf("bad hunk header %q", truncate(h, 40))
	}
	oldSpec, rest, ok1 := strings.Cut(rest, " +")
	newSpec, _, ok2 := strings.Cut(rest, " @@")
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("bad hunk header %q", truncate(h, 40))
	}
	o, err1 := rangeCount(oldSpec)
	n, err2 := rangeCount(newSpec)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("bad hunk header %q", truncate(h, 40))
	}
	return o, n, nil
}

// rangeCount reads the count of "start[,count]"; a missing count means 1.
func rangeCount(spec string) (int64, error) {
	start, count, has := strings.Cut(spec, ",")
	if _, err := strconv.ParseUint(start, 10, 63); err != nil {
		return 0, err
	}
	if !has {
		return 1, nil
	}
	n, err := strconv.ParseUint(count, 10, 31)
	return int64(n), err
}
