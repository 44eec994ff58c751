package pycodec

import (
	"bytes"
	"fmt"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// Text turns a file's bytes into the UTF-8 text CPython tokenises,
// following what ast.parse does with bytes: no NUL bytes, a UTF-8 BOM is
// dropped (and then a cookie may only say utf-8), a PEP 263 coding cookie on
// line 1 or 2 names the charset. Without a cookie (or with one that CPython
// normalises to "utf-8") the bytes are used as they are: invalid UTF-8 is
// only an error where CPython decodes it, in names and string literals. buf
// is scratch space for decoding; the (possibly grown) buffer is returned. A
// file CPython refuses to decode gives the line and CPython's message, and
// no text.
func Text(src, buf []byte) (text, scratch []byte, line int32, msg string) {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		return nil, buf, lineOf(src, i), "source code cannot contain null bytes"
	}
	hasBOM := bytes.HasPrefix(src, bom)
	if hasBOM {
		src = src[len(bom):]
	}
	name, cline := codingCookie(src)
	if name == "" {
		return src, buf, 0, ""
	}
	norm := normalName(name)
	if hasBOM && norm != "utf-8" {
		return nil, buf, cline, fmt.Sprintf("encoding problem: %s with BOM", norm)
	}
	if norm == "utf-8" {
		return src, buf, 0, ""
	}
	c := lookupCodec(norm)
	if c == nil {
		return nil, buf, cline, "unknown encoding: " + norm
	}
	out, bad, ok := c.decode(src, buf[:0])
	if len(out) > 0 && len(src) > 0 && &out[0] != &src[0] {
		buf = out // keep the grown scratch buffer, never the caller's src
	}
	if !ok {
		return nil, buf, lineOf(src, bad), fmt.Sprintf("(unicode error) '%s' codec can't decode byte 0x%02x in position %d", c.errName, src[bad], bad)
	}
	return out, buf, 0, ""
}

// lineOf returns the 1-based line of byte offset off, counting \n, \r\n and
// lone \r as line ends like CPython.
func lineOf(src []byte, off int) int32 {
	line := int32(1)
	for i := 0; i < off && i < len(src); i++ {
		switch src[i] {
		case '\n':
			line++
		case '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				line++
			}
		}
	}
	return line
}
