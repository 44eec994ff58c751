package command

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// capture keeps a stream's head, up to limit bytes, for parsing, and its last
// tailKeep bytes, so a report cut in the middle still ends with the tool's
// last words (pytest's summary, a compiler's final error).
type capture struct {
	limit    int
	tailKeep int
	head     []byte
	tail     []byte
	total    int64
}

func newCapture(limit, tailKeep int) *capture {
	return &capture{limit: limit, tailKeep: tailKeep}
}

// Write implements io.Writer; it never fails, so the tool is never blocked or
// killed by a full pipe.
func (c *capture) Write(p []byte) (int, error) {
	c.total += int64(len(p))
	if room := c.limit - len(c.head); room > 0 {
		c.head = append(c.head, p[:min(room, len(p))]...)
	}
	c.tail = append(c.tail, p...)
	if len(c.tail) > 2*c.tailKeep+4096 {
		c.tail = append(c.tail[:0:0], c.tail[len(c.tail)-c.tailKeep:]...)
	}
	return len(p), nil
}

// complete reports whether head holds the whole stream.
func (c *capture) complete() bool { return int64(len(c.head)) == c.total }

// report returns the stream for the facts: whole when it fits in n bytes,
// else its first and last n/2 bytes around a marker. Cuts fall on UTF-8
// boundaries and invalid bytes are replaced, so the text is valid JSON.
func (c *capture) report(n int) (string, bool) {
	if c.complete() && len(c.head) <= n {
		return strings.ToValidUTF8(string(c.head), "\uFFFD"), false
	}
	half := n / 2
	head := c.head[:min(half, len(c.head))]
	for len(head) > 0 && len(head) < len(c.head) && !utf8.RuneStart(c.head[len(head)]) {
		head = head[:len(head)-1]
	}
	tail := c.tail[max(0, len(c.tail)-half):]
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	cut := c.total - int64(len(head)) - int64(len(tail))
	s := fmt.Sprintf("%s\n[… %d bytes cut …]\n%s", head, cut, tail)
	return strings.ToValidUTF8(s, "\uFFFD"), true
}
