package render

import (
	"fmt"
	"strings"
)

// sarifPathKeeps are the bytes beside RFC 3986's unreserved ones and '/'
// that a SARIF artifact URI keeps as they are: the sub-delimiters, ':' and
// '@', all valid in a path.
const sarifPathKeeps = "!$&'()*+,;=:@"

// mdPathKeeps are those a Markdown link target keeps: not '(' or ')',
// which would end the target, nor '&', which would start an entity.
const mdPathKeeps = "!$'*+,;=:@"

// uriPath is a repository path as a relative URI reference: every byte
// that is not unreserved, '/' or in keep is percent-encoded (a space, '#',
// '%', a line break, a non-ASCII letter's UTF-8 bytes), and so is a colon
// in the first segment, which would read as a scheme.
func uriPath(p, keep string) string {
	var b strings.Builder
	first := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '/':
			first = false
			b.WriteByte(c)
		case c == ':' && first:
			b.WriteString("%3A")
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-._~", c) >= 0,
			strings.IndexByte(keep, c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
