package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tausik/tausik/facts"
)

// jsonDoc is a parsed JSON file that remembers on which line each key path
// starts, so configuration errors can point at file:line.
type jsonDoc struct {
	value any
	lines map[string]int // "gates.filesize.params.max_lines" → line
	// counted is how many bytes the line index scanned for newlines: each
	// byte at most once, whatever the number of keys.
	counted int64
}

// parseJSONDoc parses b, returning a diagnostic-ready error with the line of a
// syntax error or of a key that an object repeats: with a repeated key the
// last one wins in a decoder, so a reviewer could read one value and the
// engine apply another.
func parseJSONDoc(b []byte) (*jsonDoc, error) {
	v, err := facts.DecodeGeneric(b)
	if err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, &lineError{facts.LineAt(b, syn.Offset), err.Error()}
		}
		return nil, &lineError{0, err.Error()}
	}
	doc := &jsonDoc{value: v, lines: map[string]int{}}
	if err := doc.index(b); err != nil {
		return nil, err
	}
	return doc, nil
}

type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// line returns the line where the value at path starts, or 0.
func (d *jsonDoc) line(path ...string) int {
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
func (d *jsonDoc) index(b []byte) error {
	w := &lineWalker{dec: json.NewDecoder(bytes.NewReader(b)), b: b, line: 1, doc: d}
	if err := w.walk(""); err != nil {
		var le *lineError
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
	doc  *jsonDoc
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
				return &lineError{line, fmt.Sprintf("duplicate key %q (first at line %d)", join(key), first)}
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
