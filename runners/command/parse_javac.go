package command

import (
	"regexp"
	"strings"
	"sync"

	"github.com/tausik/tausik/facts"
)

// javacHead matches the first line of a javac diagnostic:
// "src/main/java/ex/App.java:5: error: incompatible types: …".
var javacHead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+\.java):(\d+): (error|warning): (.+)$`)
})

// ParseJavac reads javac's diagnostics (it writes them to stderr): each
// "file:line: error|warning: message" line is one, located at the column of
// the caret javac prints two lines below it, with the "symbol:" and
// "location:" lines that follow a "cannot find symbol" added to the
// message. Other lines (the source, the count, notes) are skipped.
func ParseJavac(out []byte, root string) []facts.Diagnostic {
	diags := []facts.Diagnostic{}
	ls := strings.Split(strings.ReplaceAll(string(out), "\r\n", "\n"), "\n")
	for i, line := range ls {
		m := javacHead().FindStringSubmatch(line)
		if m == nil {
			continue
		}
		d := facts.Diagnostic{File: relPath(root, m[1]), Line: atoi(m[2]), Severity: m[3], Message: m[4]}
		if i+2 < len(ls) && strings.TrimSpace(ls[i+2]) == "^" {
			d.Column = int64(strings.IndexByte(ls[i+2], '^')) + 1
			for _, extra := range ls[i+3:] {
				t := strings.TrimSpace(extra)
				if !strings.HasPrefix(t, "symbol:") && !strings.HasPrefix(t, "location:") {
					break
				}
				d.Message += "; " + strings.Join(strings.Fields(t), " ")
			}
		}
		diags = append(diags, d)
	}
	return diags
}
