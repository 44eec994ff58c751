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
}

// parseJSONDoc parses b, returning a diagnostic-ready error with the line of a
// syntax error.
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
	doc.index(b)
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

// index walks the token stream once, recording the line of every object key.
func (d *jsonDoc) index(b []byte) {
	dec := json.NewDecoder(bytes.NewReader(b))
	_ = d.walk(dec, b, "")
}

func (d *jsonDoc) walk(dec *json.Decoder, b []byte, path string) error {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		for dec.More() {
			off := dec.InputOffset()
			k, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := k.(string)
			// The offset before a key may point at a separator; the key is the next quote.
			if i := bytes.IndexByte(b[off:], '"'); i >= 0 {
				off += int64(i)
			}
			d.lines[join(key)] = facts.LineAt(b, off)
			if err := d.walk(dec, b, join(key)); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := d.walk(dec, b, join(strconv.Itoa(i))); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	return err
}
