// Package jsondoc parses a JSON file and remembers the line where each key
// path starts, so that configuration and baseline errors can name file:line.
package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tausik/tausik/facts"
)

// Doc is a parsed JSON file that remembers on which line each key path
// starts, so configuration errors can point at file:line.
type Doc struct {
	Value any            // the decoded document
	lines map[string]int // "gates.filesize.params.max_lines" → line
	// counted is how many bytes the line index scanned for newlines: each
	// byte at most once, whatever the number of keys.
	counted int64
}

// Parse parses b, returning a diagnostic-ready error with the line of a
// syntax error or of a key that an object repeats: with a repeated key the
// last one wins in a decoder, so a reviewer could read one value and the
// engine apply another.
func Parse(b []byte) (*Doc, error) {
	v, err := facts.DecodeGeneric(b)
	if err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, &LineError{Line: facts.LineAt(b, syn.Offset), Msg: err.Error()}
		}
		return nil, &LineError{Line: 0, Msg: err.Error()}
	}
	doc := &Doc{Value: v, lines: map[string]int{}}
	if err := doc.index(b); err != nil {
		return nil, err
	}
	return doc, nil
}

// LineError is a JSON syntax error or a repeated key, at its line.
type LineError struct {
	Line int    // the line of the problem, 0 when unknown
	Msg  string // what is wrong
}

// Error says the line and what is wrong there.
func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Line returns the line where the value at path starts, or 0.
func (d *Doc) Line(path ...string) int {
	for i := len(path); i > 0; i-- {
		if l, ok := d.lines[strings.Join(path[:i], ".")]; ok {
			return l
		}
	}
	return 0
}

// index walks the token stream once, recording the line of every object key
// and refusing a key its object already has. Lines are counted as the walk
// moves forward, so the cost is linear in the file, however many keys.
// Scanned is how many bytes the line index scanned for newlines.
func (d *Doc) Scanned() int64 { return d.counted }

func (d *Doc) index(b []byte) error {
	w := &lineWalker{dec: json.NewDecoder(bytes.NewReader(b)), b: b, line: 1, doc: d}
	if err := w.walk(""); err != nil {
		var le *LineError
		if errors.As(err, &le) {
			return err
		}
	}
	return nil
}

// lineWalker is index's state: the decoder and how far lines are counted.
type lineWalker struct {
	dec  *json.Decoder
	b    []byte
	off  int64 // lines are counted up to here
	line int   // the line at off
	doc  *Doc
}

// lineAt returns the line of offset off, which is never before w.off.
func (w *lineWalker) lineAt(off int64) int {
	off = min(off, int64(len(w.b)))
	w.line += bytes.Count(w.b[w.off:off], []byte("\n"))
	w.doc.counted += off - w.off
	w.off = off
	return w.line
}

func (w *lineWalker) walk(path string) error {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]int{}
		for w.dec.More() {
			off := w.dec.InputOffset()
			k, err := w.dec.Token()
			if err != nil {
				return err
			}
			key, _ := k.(string)
			// The offset before a key may point at a separator; the key is the next quote.
			if i := bytes.IndexByte(w.b[off:], '"'); i >= 0 {
				off += int64(i)
			}
			line := w.lineAt(off)
			if first, dup := seen[key]; dup {
				return &LineError{Line: line, Msg: fmt.Sprintf("duplicate key %q (first at line %d)", join(key), first)}
			}
			seen[key] = line
			w.doc.lines[join(key)] = line
			if err := w.walk(join(key)); err != nil {
				return err
			}
		}
		_, err = w.dec.Token()
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			if err := w.walk(join(strconv.Itoa(i))); err != nil {
				return err
			}
		}
		_, err = w.dec.Token()
	}
	return err
}
