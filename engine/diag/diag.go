// Package diag holds what every stage of an evaluation reports failure with:
// the sentinel errors the CLI maps to exit codes, and Diagnostics, the list of
// file:line problems a bundle or config load collects before refusing.
package diag

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. The CLI maps them to exit codes: ErrUsage → 2,
// ErrBundle, ErrConfig and ErrStore → 3.
var (
	// ErrBundle marks a gate bundle that cannot be loaded: bad YAML, an unknown
	// key, a policy that does not compile or returns the wrong shape.
	ErrBundle = errors.New("malformed gate bundle")
	// ErrConfig marks a configuration file that cannot be trusted.
	ErrConfig = errors.New("malformed config")
	// ErrShape marks a policy result of the wrong shape (a violation that is
	// not {msg, file?, line?, rule?}, a condition that is not a boolean).
	ErrShape = errors.New("policy result of the wrong shape")
	// ErrUsage marks a request that names something that does not exist (an
	// unknown gate or trigger) or is otherwise malformed.
	ErrUsage = errors.New("bad request")
	// ErrStore marks a failure to read or write the store, including failing to
	// record a decision: an evaluation that cannot be logged is not trusted.
	ErrStore = errors.New("store error")
	// ErrExists marks a scaffold target that is already there.
	ErrExists = errors.New("already exists")
	// ErrNoKey marks a flow that must sign (verify) in a project without a
	// signing key: `tausik key init` creates one.
	ErrNoKey = errors.New("no signing key: run `tausik key init`")
	// ErrInvalidReceipt marks a receipt whose signature does not verify or
	// that was signed by another key than the one trusted.
	ErrInvalidReceipt = errors.New("receipt does not verify")
)

// Diagnostic is one problem found in a file, located by line when known.
type Diagnostic struct {
	File string
	Line int
	Msg  string
}

// String renders the diagnostic as "file:line: msg", the form editors jump to.
func (d Diagnostic) String() string {
	switch {
	case d.File == "":
		return d.Msg
	case d.Line > 0:
		return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Msg)
	default:
		return fmt.Sprintf("%s: %s", d.File, d.Msg)
	}
}

// Diagnostics is a list of problems of one kind (Kind is ErrBundle or
// ErrConfig). Loading reports every problem it finds, not just the first, and
// loads nothing when there is any.
type Diagnostics struct {
	Kind  error
	Items []Diagnostic
}

// Add records one problem at file:line (line 0 when unknown).
func (d *Diagnostics) Add(file string, line int, format string, args ...any) {
	d.Items = append(d.Items, Diagnostic{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// Err returns d as an error, or nil when it holds nothing.
func (d *Diagnostics) Err() error {
	if len(d.Items) == 0 {
		return nil
	}
	return d
}

// Error lists every diagnostic, one per line.
func (d *Diagnostics) Error() string {
	lines := make([]string, len(d.Items))
	for i, it := range d.Items {
		lines[i] = it.String()
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.Is match the kind.
func (d *Diagnostics) Unwrap() error { return d.Kind }

// Describe names v's JSON type (and its value when it is a scalar), for
// messages that say what a file held instead of what was wanted.
func Describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", x)
	case bool:
		return fmt.Sprintf("the boolean %v", x)
	case int64, float64:
		return fmt.Sprintf("the number %v", x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
