// Package shtext holds text rules of the shell and of the programs it runs
// that need no command line around them: how the shell unquotes a word,
// and which awk and perl programs only edit text.
package shtext

import (
	"regexp"
	"strings"
)

// Unescape removes the backslashes the shell removes: before any character
// outside quotes, before $ ` " \ and newline inside double quotes; a
// backslash-newline disappears.
func Unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case !quoted || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte('\\')
		}
	}
	return b.String()
}

// AwkWrites reports an awk program that may write a file or run a command.
func AwkWrites(prog string) bool {
	return strings.ContainsAny(prog, ">|") || strings.Contains(prog, "system") || strings.Contains(prog, "@load")
}

// perlSubst is one substitution or transliteration with a usual delimiter
// and without the e flag (which runs the replacement as code).
var perlSubst = regexp.MustCompile(`^(s|y|tr)(/[^/]*/[^/]*/|\|[^|]*\|[^|]*\||#[^#]*#[^#]*#|,[^,]*,[^,]*,)[gimsxrcdu]*$`)

// PerlSubstitutes reports a perl -e program that only edits text: nothing
// but substitutions, no code in a pattern or replacement ((?{…}), @{[…]},
// ${\…}).
func PerlSubstitutes(code []string) bool {
	for _, c := range code {
		if strings.ContainsAny(c, "{`") || strings.Contains(c, "(?") {
			return false
		}
		for _, stmt := range strings.Split(c, ";") {
			if stmt = strings.TrimSpace(stmt); stmt != "" && !perlSubst.MatchString(stmt) {
				return false
			}
		}
	}
	return len(code) > 0
}
