package runners

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/tausik/tausik/runners/internal/pycodec"
)

// IsPythonSource reports whether the file at p is Python source by its
// extension (.py, .pyw, or a .pyi stub). Python reads such a file by its own
// rules, not by sniffing: UTF-8 unless a coding cookie says otherwise.
func IsPythonSource(p string) bool {
	switch strings.ToLower(path.Ext(strings.TrimLeft(path.Base(p), "."))) {
	case ".py", ".pyw", ".pyi":
		return true
	}
	return false
}

// PythonText is src as the text Python reads from a source file: decoded by
// its PEP 263 coding cookie, else UTF-8 (PEP 3120), a UTF-8 BOM dropped.
// When Python refuses the file (bytes its encoding cannot decode, a NUL
// byte, an unknown codec) text is nil and line and msg say where and why,
// in Python's words.
func PythonText(src []byte) (text []byte, line int, msg string) {
	t, _, l, m := pycodec.Text(src, nil)
	if m != "" {
		return nil, int(max(l, 1)), m
	}
	if utf8.Valid(t) {
		return t, 0, ""
	}
	// No cookie (or one naming UTF-8): the bytes are the text, and Python
	// refuses the file at its first byte that is not UTF-8, wherever it
	// stands (a comment included), as it does when it runs or imports it.
	i := 0
	for i < len(t) {
		r, n := utf8.DecodeRune(t[i:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		i += n
	}
	line = 1 + bytes.Count(t[:i], []byte{'\n'})
	return nil, line, fmt.Sprintf("Non-UTF-8 code starting with '\\x%02x', and no coding cookie names another encoding (PEP 263)", t[i])
}
