package runners

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestIsPythonSource(t *testing.T) {
	for p, want := range map[string]bool{
		"a.py": true, "pkg/stub.pyi": true, "gui.pyw": true, "UPPER.PY": true,
		"a.pyc": false, "a.py.bak": false, "py": false, "a.txt": false, ".py": false,
	} {
		if got := IsPythonSource(p); got != want {
			t.Errorf("IsPythonSource(%q) = %v, want %v", p, got, want)
		}
	}
}

// pythonCases are source files and what Python makes of them: the text it
// reads, or the line it refuses the file at.
var pythonCases = []struct {
	name, src, text string
	line            int
	msg             string
}{
	{"utf-8", "# café\nx = 1\n", "# café\nx = 1\n", 0, ""},
	{"latin-1 cookie", "# -*- coding: latin-1 -*-\n# caf\xe9\nprint('ol\xe9')\n", "# -*- coding: latin-1 -*-\n# café\nprint('olé')\n", 0, ""},
	{"cookie on line 2", "#!/usr/bin/env python3\n# coding: iso-8859-15\ns = '\xa4'\n", "#!/usr/bin/env python3\n# coding: iso-8859-15\ns = '€'\n", 0, ""},
	{"BOM", "\xef\xbb\xbfx = 1\n", "x = 1\n", 0, ""},
	{"no cookie, latin-1 comment", "import os\n# caf\xe9\nprint(1)\n", "", 2, "Non-UTF-8 code starting with '\\xe9', and no coding cookie names another encoding (PEP 263)"},
	{"utf-8 cookie, latin-1 byte", "# coding: utf-8\nx = '\xe9'\n", "", 2, "Non-UTF-8 code starting with '\\xe9', and no coding cookie names another encoding (PEP 263)"},
	{"unknown codec", "# coding: klingon\nx = 1\n", "", 1, "unknown encoding: klingon"},
	{"NUL byte", "x = 1\ny = '\x00'\n", "", 2, "source code cannot contain null bytes"},
}

func TestPythonText(t *testing.T) {
	for _, tc := range pythonCases {
		text, line, msg := PythonText([]byte(tc.src))
		if string(text) != tc.text || line != tc.line || msg != tc.msg {
			t.Errorf("%s: PythonText = %q, %d, %q; want %q, %d, %q", tc.name, text, line, msg, tc.text, tc.line, tc.msg)
		}
	}
}

// TestPythonTextAsPythonRunsIt holds PythonText to the real interpreter
// running each file as a script: python3 runs the file PythonText reads,
// and refuses the one PythonText refuses, at the same line when it names
// one. (Importing a module is laxer: it lets bytes that are not UTF-8
// through in a comment. PEP 3120 and the script run are the rule here.)
func TestPythonTextAsPythonRunsIt(t *testing.T) {
	py := os.Getenv("TAUSIK_PYTHON")
	if py == "" {
		var err error
		if py, err = exec.LookPath("python3"); err != nil {
			t.Skip("no python3 on PATH and no TAUSIK_PYTHON")
		}
	}
	dir := t.TempDir()
	lineRE := regexp.MustCompile(`line (\d+)`)
	for i, tc := range pythonCases {
		file := filepath.Join(dir, fmt.Sprintf("case%d.py", i))
		if err := os.WriteFile(file, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd := exec.Command(py, file)
		cmd.Stderr = &stderr
		err := cmd.Run()
		switch {
		case tc.msg == "" && err != nil:
			t.Errorf("%s: PythonText reads it, python3 refuses it: %v\n%s", tc.name, err, stderr.String())
		case tc.msg != "" && (err == nil || !strings.Contains(stderr.String(), "SyntaxError")):
			t.Errorf("%s: PythonText refuses it at line %d, python3 runs it (%v)\n%s", tc.name, tc.line, err, stderr.String())
		case tc.msg != "":
			if m := lineRE.FindStringSubmatch(stderr.String()); m != nil && m[1] != strconv.Itoa(tc.line) {
				t.Errorf("%s: PythonText refuses it at line %d, python3 at line %s\n%s", tc.name, tc.line, m[1], stderr.String())
			}
		}
	}
}
