package facts

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// Parse reads a facts document from JSON, as written by `tausik facts` or a
// fixture's facts.json. Every top-level key but "schema" is a namespace and must
// be an object with a valid status; a namespace that is not ok needs a reason.
// Errors name the line where that can be known.
func Parse(b []byte) (*Document, error) {
	v, err := DecodeGeneric(b)
	if err != nil {
		return nil, jsonError(b, err)
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("facts document must be a JSON object")
	}
	if s, present := top["schema"]; present && s != Schema {
		return nil, fmt.Errorf("schema %v is not %s", s, Schema)
	}
	doc := NewDocument()
	names := make([]string, 0, len(top))
	for k := range top {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		if name == "schema" {
			continue
		}
		obj, ok := top[name].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("namespace %q must be an object", name)
		}
		st, _ := obj["status"].(string)
		status := Status(st)
		if !status.Valid() {
			return nil, fmt.Errorf("namespace %q: status must be ok, unavailable or error, got %v", name, obj["status"])
		}
		reason, _ := obj["reason"].(string)
		if status != StatusOK && reason == "" {
			return nil, fmt.Errorf("namespace %q: status %s needs a reason", name, status)
		}
		data := make(map[string]any, len(obj))
		for k, e := range obj {
			if k != "status" && k != "reason" {
				data[k] = e
			}
		}
		doc.Set(name, Namespace{Status: status, Reason: reason, Data: data})
	}
	return doc, nil
}

// jsonError turns a decoder error into one that names the line.
func jsonError(b []byte, err error) error {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Errorf("line %d: %w", LineAt(b, syn.Offset), err)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return fmt.Errorf("line %d: %w", LineAt(b, typ.Offset), err)
	}
	return err
}

// LineAt returns the 1-based line number of byte offset off in b.
func LineAt(b []byte, off int64) int {
	line := 1
	for i := int64(0); i < off && i < int64(len(b)); i++ {
		if b[i] == '\n' {
			line++
		}
	}
	return line
}
