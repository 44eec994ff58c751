package command

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tausik/tausik/facts"
)

// maxMessage bounds a test case's message in the facts.
const maxMessage = 2000

// junitNode is a <testsuites> or <testsuite> element; suites may nest.
type junitNode struct {
	XMLName xml.Name
	Suites  []junitNode `xml:"testsuite"`
	Cases   []junitCase `xml:"testcase"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	File      string        `xml:"file,attr"`
	Line      string        `xml:"line,attr"`
	Time      string        `xml:"time,attr"`
	Failures  []junitResult `xml:"failure"`
	Errors    []junitResult `xml:"error"`
	Skipped   []junitResult `xml:"skipped"`
}

type junitResult struct {
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

// readJUnit reads the report the test tool wrote at p.
func readJUnit(p, root string) (*facts.TestReport, error) {
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errors.New("the tool wrote no JUnit report")
	}
	if err != nil {
		return nil, fmt.Errorf("open JUnit report: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, parseLimit+1))
	if err != nil {
		return nil, fmt.Errorf("read JUnit report: %w", err)
	}
	if len(data) > parseLimit {
		return nil, fmt.Errorf("JUnit report over %d bytes, too large to parse", parseLimit)
	}
	return ParseJUnit(data, root)
}

// ParseJUnit reads a pytest JUnit XML report (junit_family=xunit1, which keeps
// each case's file and 0-based line; lines are reported 1-based). Totals are
// counted from the cases, so they always agree with them. A case with an
// <error> is "error", else with a <failure> "failed", else with <skipped>
// "skipped", else "passed".
func ParseJUnit(data []byte, root string) (*facts.TestReport, error) {
	return parseJUnitWith(data, root, failLocation)
}

// parseJUnitWith reads a JUnit XML report, locating each failure in its
// body with locate (a Python traceback, a JavaScript stack).
func parseJUnitWith(data []byte, root string, locate func(body, root string) (string, int64)) (*facts.TestReport, error) {
	return decodeJUnit(data, func(c *junitCase) facts.TestCase { return testCase(c, root, locate) })
}

// decodeJUnit reads a JUnit XML report, each case turned into a fact by
// conv, with totals counted from the cases.
func decodeJUnit(data []byte, conv func(*junitCase) facts.TestCase) (*facts.TestReport, error) {
	var top junitNode
	if err := xml.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("read JUnit XML: %w", err)
	}
	if n := top.XMLName.Local; n != "testsuites" && n != "testsuite" {
		return nil, fmt.Errorf("read JUnit XML: root element is <%s>, want <testsuites> or <testsuite>", n)
	}
	rep := &facts.TestReport{Cases: []facts.TestCase{}}
	var walk func(n *junitNode)
	walk = func(n *junitNode) {
		for i := range n.Cases {
			rep.Cases = append(rep.Cases, conv(&n.Cases[i]))
		}
		for i := range n.Suites {
			walk(&n.Suites[i])
		}
	}
	walk(&top)
	countCases(rep)
	return rep, nil
}

func testCase(c *junitCase, root string, locate func(body, root string) (string, int64)) facts.TestCase {
	tc := facts.TestCase{Classname: c.Classname, Name: c.Name, Outcome: "passed"}
	if c.File != "" {
		tc.File = relPath(root, c.File)
	}
	if line, err := strconv.ParseInt(c.Line, 10, 64); err == nil && line >= 0 && line < math.MaxInt64 {
		tc.Line = line + 1
	}
	if secs, err := strconv.ParseFloat(c.Time, 64); err == nil && secs > 0 && secs < 1e9 {
		tc.DurationMS = int64(math.Round(secs * 1000))
	}
	var res *junitResult
	switch {
	case len(c.Errors) > 0:
		tc.Outcome, res = "error", &c.Errors[0]
	case len(c.Failures) > 0:
		tc.Outcome, res = "failed", &c.Failures[0]
	case len(c.Skipped) > 0:
		tc.Outcome, res = "skipped", &c.Skipped[0]
	}
	if res == nil {
		return tc
	}
	tc.Message = res.Message
	if tc.Message == "" {
		tc.Message = firstLine(res.Body)
	}
	tc.Message = clip(tc.Message, maxMessage)
	if tc.Outcome != "skipped" {
		tc.FailFile, tc.FailLine = locate(res.Body, root)
	}
	return tc
}

// tracebackLine matches pytest's "path:line: ..." traceback entries.
var tracebackLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^([^\s:][^:\n]*):(\d+): `) })

// failLocation returns the last traceback entry that names a file inside the
// project: where the failing assertion or the import error is.
func failLocation(body, root string) (string, int64) {
	var file string
	var line int64
	for _, m := range tracebackLine().FindAllStringSubmatch(body, -1) {
		p := relPath(root, m[1])
		if path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") {
			continue
		}
		if n := atoi(m[2]); n > 0 {
			file, line = p, n
		}
	}
	return file, line
}

// clip cuts s to at most n bytes on a UTF-8 boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
