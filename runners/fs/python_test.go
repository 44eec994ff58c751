package fs

import "testing"

// TestPythonSourceBinary: a Python file is binary only for a NUL byte in its
// head; bytes that are not UTF-8 (Latin-1 under a coding cookie, or a file
// Python refuses) leave it a source file whose lines count.
func TestPythonSourceBinary(t *testing.T) {
	for _, tc := range []struct {
		rel, src string
		binary   bool
		lines    int64
	}{
		{"legacy.py", "# -*- coding: latin-1 -*-\n# caf\xe9\nx = 1\n", false, 3},
		{"nocookie.py", "# caf\xe9\nx = 1\n", false, 2},
		{"stub.PYI", "x: int  # \xff\n", false, 1},
		{"blob.py", "x = 1\x00\n", true, 1},
		{"notes.txt", "# caf\xe9\nx = 1\n", true, 2},
	} {
		root := tempDir(t)
		writeFile(t, root, tc.rel, []byte(tc.src))
		got := statOne(t, root, tc.rel)
		if got.Binary != tc.binary || got.Lines != tc.lines || !got.Exists {
			t.Errorf("%s: binary %v, %d lines; want binary %v, %d lines", tc.rel, got.Binary, got.Lines, tc.binary, tc.lines)
		}
	}
}
