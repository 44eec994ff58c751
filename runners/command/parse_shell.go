package command

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/tausik/tausik/facts"
)

// The parsers of the shell and yaml stacks' linters.
const (
	ParserShellcheck Parser = "shellcheck" // `shellcheck -f json1` on stdout
	ParserYamllint   Parser = "yamllint"   // `yamllint -f parsable` on stdout
)

// The shell and yaml stacks' gates: shellcheck over the scoped scripts of
// each directory of shell scripts; yamllint over the scoped YAML files
// under each directory that keeps a yamllint config, run there so that
// yamllint finds that config.
func init() {
	RegisterStack(Spec{Name: "shellcheck", Argv: []string{"shellcheck", "-f", "json1", FilesArg},
		Extensions: []string{".sh", ".bash"}, Exclude: DefaultExclude, Timeout: 2 * time.Minute, Parser: ParserShellcheck},
		[]string{"shellcheck"})
	RegisterStack(Spec{Name: "yamllint", Argv: []string{"yamllint", "-f", "parsable", FilesArg},
		Extensions: []string{".yaml", ".yml"}, Exclude: DefaultExclude, Timeout: 2 * time.Minute, Parser: ParserYamllint},
		[]string{"yamllint"})
}

// ParseShellcheck reads `shellcheck -f json1`: {"comments": [{file, line,
// column, level, code, message}]}, one diagnostic per comment, its code
// "SC" and the number ("SC2086"), its severity shellcheck's level (error,
// warning, info, style). Output that is not such an object is an error.
func ParseShellcheck(stdout []byte, root string) ([]facts.Diagnostic, error) {
	trimmed := bytes.TrimSpace(stdout)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, errors.New("shellcheck output is not a JSON object")
	}
	var rep struct {
		Comments *[]struct {
			File    string `json:"file"`
			Line    int64  `json:"line"`
			Column  int64  `json:"column"`
			Level   string `json:"level"`
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"comments"`
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(&rep); err != nil {
		return nil, fmt.Errorf("read shellcheck JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("read shellcheck JSON: data after the object")
	}
	if rep.Comments == nil {
		return nil, errors.New("read shellcheck JSON: no comments list")
	}
	diags := make([]facts.Diagnostic, 0, len(*rep.Comments))
	for i, c := range *rep.Comments {
		if c.File == "" {
			return nil, fmt.Errorf("read shellcheck JSON: comment %d has no file", i+1)
		}
		diags = append(diags, facts.Diagnostic{File: relPath(root, c.File), Line: c.Line, Column: c.Column,
			Severity: c.Level, Code: "SC" + strconv.FormatInt(c.Code, 10), Message: c.Message})
	}
	return diags, nil
}

// yamllintLine is one problem of `yamllint -f parsable`:
// "file:line:col: [level] message (rule)"; a syntax error's rule is
// "syntax".
var yamllintLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+?):(\d+):(\d+): \[(error|warning)\] (.*?)(?: \(([a-z0-9-]+)\))?$`)
})

// ParseYamllint reads `yamllint -f parsable`, one diagnostic per line, its
// code the rule and its severity yamllint's level (error or warning, as
// the project's config sets each rule). A line in another form is an
// error: yamllint wrote something tausik does not understand.
func ParseYamllint(stdout []byte, root string) ([]facts.Diagnostic, error) {
	diags := []facts.Diagnostic{}
	for _, l := range lines(stdout) {
		m := yamllintLine().FindStringSubmatch(l)
		if m == nil {
			return nil, fmt.Errorf("yamllint: not a parsable problem line: %s", firstLine(l))
		}
		diags = append(diags, facts.Diagnostic{File: relPath(root, m[1]), Line: atoi(m[2]), Column: atoi(m[3]),
			Severity: m[4], Message: m[5], Code: m[6]})
	}
	return diags, nil
}
