package pycodec

import (
	"strings"
	"unicode/utf8"
)

// codingCookie finds a PEP 263 declaration the way CPython's tokenizer does:
// in a comment that is the first thing on line 1, or on line 2 when line 1 is
// blank or only a comment. It returns the declared name and its line, or "".
func codingCookie(src []byte) (string, int32) {
	end1, next := lineBounds(src, 0)
	line1 := src[:end1]
	if name := codingSpec(line1); name != "" {
		return name, 1
	}
	if !blankOrComment(line1) || next >= len(src) {
		return "", 0
	}
	end2, _ := lineBounds(src, next)
	if name := codingSpec(src[next:end2]); name != "" {
		return name, 2
	}
	return "", 0
}

// lineBounds returns the end of the line starting at start (excluding its
// terminator) and the start of the next line.
func lineBounds(src []byte, start int) (end, next int) {
	i := start
	for i < len(src) && src[i] != '\n' && src[i] != '\r' {
		i++
	}
	next = i
	if i < len(src) {
		next = i + 1
		if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			next = i + 2
		}
	}
	return i, next
}

// blankOrComment reports whether a line holds only whitespace before any
// comment, which lets CPython look for a cookie on the next line.
func blankOrComment(line []byte) bool {
	for _, c := range line {
		if c == '#' {
			return true
		}
		if c != ' ' && c != '\t' && c != '\f' {
			return false
		}
	}
	return true
}

// codingSpec mirrors CPython's get_coding_spec on one line: the line must be
// a comment (only whitespace before '#'), holding "coding" directly followed
// by ':' or '=', optional blanks, then the name ([A-Za-z0-9._-]+).
func codingSpec(s []byte) string {
	size := len(s)
	i := 0
	for ; i < size-6; i++ {
		if s[i] == '#' {
			break
		}
		if s[i] != ' ' && s[i] != '\t' && s[i] != '\f' {
			return ""
		}
	}
	for ; i < size-6; i++ {
		if string(s[i:i+6]) != "coding" {
			continue
		}
		t := i + 6
		if s[t] != ':' && s[t] != '=' {
			continue
		}
		t++
		for t < size && (s[t] == ' ' || s[t] == '\t') {
			t++
		}
		begin := t
		for t < size && (isAlnum(s[t]) || s[t] == '-' || s[t] == '_' || s[t] == '.') {
			t++
		}
		if t > begin {
			return string(s[begin:t])
		}
	}
	return ""
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// normalName is CPython's get_normal_name: the utf-8 and latin-1 spellings
// become "utf-8" and "iso-8859-1" (looking at the first 12 characters, '_'
// read as '-', any case); any other name is returned unchanged.
func normalName(s string) string {
	b := []byte(s)
	if len(b) > 12 {
		b = b[:12]
	}
	for i, c := range b {
		if c == '_' {
			b[i] = '-'
		} else if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	h := string(b)
	switch {
	case h == "utf-8" || strings.HasPrefix(h, "utf-8-"):
		return "utf-8"
	case h == "latin-1" || h == "iso-8859-1" || h == "iso-latin-1",
		strings.HasPrefix(h, "latin-1-"), strings.HasPrefix(h, "iso-8859-1-"), strings.HasPrefix(h, "iso-latin-1-"):
		return "iso-8859-1"
	}
	return s
}

// validUTF8Prefix returns the offset of the first byte of src that is not
// valid UTF-8, or -1.
func validUTF8Prefix(src []byte) int {
	if utf8.Valid(src) {
		return -1
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}
