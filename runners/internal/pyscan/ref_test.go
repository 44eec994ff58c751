package pyscan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

// refScript is the CPython reference the scanner is compared against.
const refScript = "../../../testdata/python/classfacts.py"

// refFile is one line of the reference script's output.
type refFile struct {
	// Minor is the reference CPython's minor version (3.Minor), set by runRef.
	Minor   int                 `json:"-"`
	Path    string              `json:"path"`
	Parsed  bool                `json:"parsed"`
	Error   *refError           `json:"error"`
	Classes []facts.PythonClass `json:"classes"`
}

type refError struct {
	Line int    `json:"line"`
	Msg  string `json:"msg"`
	Kind string `json:"kind"`
}

// refPython returns the interpreter that runs the reference: $TAUSIK_PY_REF
// or python3 from PATH. Without one the test is skipped, loudly.
func refPython(t testing.TB) string {
	t.Helper()
	name := os.Getenv("TAUSIK_PY_REF")
	if name == "" {
		name = "python3"
	}
	py, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("SKIP: no %s on PATH (%v): the comparison with CPython's ast needs a Python interpreter", name, err)
	}
	return py
}

// pyVersion returns the interpreter's "major.minor".
func pyVersion(t testing.TB, py string) string {
	t.Helper()
	out, err := exec.Command(py, "-c", "import sys; print('%d.%d' % sys.version_info[:2])").Output()
	if err != nil {
		t.Fatalf("%s: %v", py, err)
	}
	return strings.TrimSpace(string(out))
}

// scanFiles reads and scans the paths under root, in order.
func scanFiles(t testing.TB, root string, paths []string) []facts.PythonFile {
	t.Helper()
	sc := NewScanner()
	out := make([]facts.PythonFile, 0, len(paths))
	for _, p := range paths {
		src, err := os.ReadFile(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sc.Scan(p, src))
	}
	return out
}

// runRef runs the reference over paths under root and returns its facts by path.
func runRef(t testing.TB, py, root string, paths []string, jobs int) map[string]refFile {
	t.Helper()
	cmd := exec.Command(py, refScript, "--jobs", fmt.Sprint(jobs), root)
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8", "PYTHONDONTWRITEBYTECODE=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("reference %s: %v\n%s", refScript, err, stderr.String())
	}
	minor, err := strconv.Atoi(strings.TrimPrefix(pyVersion(t, py), "3."))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]refFile{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var f refFile
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("reference output %q: %v", sc.Text(), err)
		}
		f.Minor = minor
		got[f.Path] = f
	}
	if len(got) != len(paths) {
		t.Fatalf("reference reported %d files, want %d", len(got), len(paths))
	}
	return got
}

// literal errors are not all checked: \N{...} names are not looked up.
var uncheckedLiteral = "unknown Unicode character name"

// tokenizerLevel reports whether a CPython error message comes from its
// tokenizer or source decoding (or is one of the few grammar errors the
// scanner promises to catch too), which the scanner must reproduce, rather
// than from the grammar, which it only partly checks.
func tokenizerLevel(msg string) bool {
	if strings.Contains(msg, uncheckedLiteral) {
		return false
	}
	for _, s := range []string{
		"unterminated", "invalid character", "invalid non-printable character",
		"unindent does not match", "inconsistent use of tabs", "too many levels of indentation",
		"unknown encoding", "encoding problem", "codec can't decode",
		"null bytes", "leading zeros", "invalid digit", "decimal literal", "hexadecimal literal",
		"octal literal", "binary literal", "imaginary literal", "unmatched", "does not match opening parenthesis",
		"was never closed", "unexpected EOF", "unexpected character after line continuation",
		"too many nested", "f-string: single '}'", "f-string: expecting '}'", "expressions nested too deeply",
		// Grammar-level, but checked by the scanner too.
		"bytes can only contain ASCII", "cannot mix bytes and nonbytes", "Missing parentheses in call to",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// literalError reports whether CPython failed decoding a string literal.
func literalError(msg string) bool {
	return strings.HasPrefix(msg, "(unicode error)") || strings.HasPrefix(msg, "(value error)")
}

// compareRef compares the scanner's facts with the reference's for one file
// and returns what differs, or "". For files CPython rejects, the scanner
// must reject those rejected by the tokenizer, at the same line when it
// reports the same kind of error (a file with several errors may get a
// different one first: CPython's choice depends on its parser's internals);
// a file rejected only by the grammar may come out either way.
func compareRef(want refFile, got facts.PythonFile) string {
	if !want.Parsed {
		if !tokenizerLevel(want.Error.Msg) {
			return ""
		}
		if got.Parsed {
			return fmt.Sprintf("CPython rejects it in its tokenizer (line %d: %s), the scanner accepts it", want.Error.Line, want.Error.Msg)
		}
		lineOK := want.Error.Line <= 0 || want.Error.Line == got.Error.Line || !sameKind(want.Error.Msg, got.Error.Msg)
		if strings.HasPrefix(want.Error.Msg, "f-string") && want.Minor < 12 {
			// Before PEP 701 f-strings had their own parser and error lines.
			lineOK = true
		}
		if literalError(want.Error.Msg) {
			// CPython 3.11 names the last line of the string (or of the
			// implicitly concatenated strings), 3.12+ and the scanner the first.
			lineOK = want.Error.Line <= 0 || got.Error.Line <= want.Error.Line
		}
		if !lineOK {
			return fmt.Sprintf("CPython rejects it at line %d (%s), the scanner at line %d (%s)", want.Error.Line, want.Error.Msg, got.Error.Line, got.Error.Msg)
		}
		return ""
	}
	if !got.Parsed {
		return fmt.Sprintf("CPython parses it, the scanner rejects it: line %d: %s", got.Error.Line, got.Error.Msg)
	}
	w, g := normClasses(want.Classes), normClasses(got.Classes)
	if reflect.DeepEqual(w, g) {
		return ""
	}
	return classDiff(w, g)
}

// sameKind reports whether two error messages are the same kind of error
// (their first three words agree).
func sameKind(a, b string) bool {
	fa, fb := strings.Fields(a), strings.Fields(b)
	return slices.Equal(fa[:min(3, len(fa))], fb[:min(3, len(fb))])
}

// maybeNewer reports whether a file an older CPython (3.11) rejects, but the
// scanner parses, may be valid PEP 701 f-string syntax of CPython 3.12+.
func maybeNewer(want refFile, got facts.PythonFile) bool {
	if want.Parsed || !got.Parsed || want.Minor >= 12 {
		return false
	}
	m := want.Error.Msg
	return strings.Contains(m, "f-string") || strings.HasPrefix(m, "unterminated string literal") ||
		strings.HasPrefix(m, "unterminated triple-quoted string literal")
}

// checkNewer settles the files maybeNewer excused: with $TAUSIK_MODERN_PY
// they are compared with that CPython under compareRef's rules; without it
// they are only logged.
func checkNewer(t *testing.T, dir string, paths []string, got map[string]facts.PythonFile) {
	t.Helper()
	if len(paths) == 0 {
		return
	}
	py := os.Getenv("TAUSIK_MODERN_PY")
	if py == "" {
		t.Logf("%d files the reference rejects but the scanner parses as CPython 3.12+ f-strings: unverified (set TAUSIK_MODERN_PY to check them)", len(paths))
		return
	}
	ref := runRef(t, py, dir, paths, 1)
	valid := 0
	for _, p := range paths {
		if ref[p].Parsed {
			valid++
		}
		if d := compareRef(ref[p], got[p]); d != "" {
			t.Errorf("%s: against %s: %s", p, py, d)
		}
	}
	t.Logf("%d files the reference rejects but the scanner parses: %d valid in %s, the rest rejected there by its grammar only",
		len(paths), valid, py)
}

func normClasses(cs []facts.PythonClass) []facts.PythonClass {
	out := make([]facts.PythonClass, 0, len(cs))
	for _, c := range cs {
		if c.Bases == nil {
			c.Bases = []string{}
		}
		if c.Public == nil {
			c.Public = []string{}
		}
		out = append(out, c)
	}
	return out
}

// classDiff renders the classes of both sides, one per line, marking lines
// only CPython (-) or only the scanner (+) reports.
func classDiff(want, got []facts.PythonClass) string {
	render := func(cs []facts.PythonClass) []string {
		var out []string
		for _, c := range cs {
			b, _ := json.Marshal(c)
			out = append(out, string(b))
		}
		return out
	}
	w, g := render(want), render(got)
	var sb strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			fmt.Fprintf(&sb, "\n    - %s", l)
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			fmt.Fprintf(&sb, "\n    + %s", l)
		}
	}
	return "classes differ (- CPython, + scanner):" + sb.String()
}
