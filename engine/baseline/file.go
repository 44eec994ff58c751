package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tausik/tausik/engine/diag"
	"github.com/tausik/tausik/engine/internal/jsondoc"
	"github.com/tausik/tausik/facts"
	"github.com/tausik/tausik/internal/boundedread"
)

// Path is where a project's baseline lives, relative to its root
// (committed, written by `tausik baseline`, docs/baseline.md).
const Path = "tausik/baseline.json"

// Format tags every baseline file; a file of another format is
// refused, never half read.
const Format = "tausik-baseline/v1"

// maxBaseline caps the baseline file: a legacy repository's findings, one
// short entry each, stay far below it.
const maxBaseline = 32 << 20

// File is the violations a project accepted when it adopted tausik: each
// may stay while its quantity does not grow.
type File struct {
	Format  string  `json:"format"`
	Entries []Entry `json:"entries"`
}

// Entry is one accepted violation, named by its fingerprint (gate,
// rule, file, key) with the quantity it may not exceed and the commit (git
// HEAD, "" outside git) the entry was recorded or last lowered at.
type Entry struct {
	Gate     string `json:"gate"`
	Rule     string `json:"rule"`
	File     string `json:"file"`
	Key      string `json:"key"`
	Quantity int    `json:"quantity"`
	Commit   string `json:"commit"`
}

// Fingerprint names what a baseline entry holds.
type Fingerprint struct{ Gate, Rule, File, Key string }

// Fingerprint returns the entry's fingerprint.
func (b Entry) Fingerprint() Fingerprint { return Fingerprint{b.Gate, b.Rule, b.File, b.Key} }

// String names the fingerprint as messages show it: gate/rule, then the
// key, or the file when the key is the file.
func (f Fingerprint) String() string {
	s := f.Gate
	if f.Rule != "" {
		s += "/" + f.Rule
	}
	if f.Key != "" && f.Key != f.File {
		return s + " " + f.Key
	}
	return s + " " + f.File
}

// less orders entries by fingerprint, so a baseline's bytes depend only on
// its content.
func (b Entry) less(o Entry) int {
	for _, c := range [][2]string{{b.Gate, o.Gate}, {b.Rule, o.Rule}, {b.File, o.File}, {b.Key, o.Key}} {
		if n := strings.Compare(c[0], c[1]); n != 0 {
			return n
		}
	}
	return 0
}

// Encode returns the baseline's canonical bytes: entries sorted by
// fingerprint, two-space indented, one trailing newline.
func (b *File) Encode() ([]byte, error) {
	out := File{Format: Format, Entries: slices.Clone(b.Entries)}
	if out.Entries == nil {
		out.Entries = []Entry{}
	}
	slices.SortFunc(out.Entries, Entry.less)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("encode baseline: %w", err)
	}
	return buf.Bytes(), nil
}

// Load reads root's baseline file: nil without error when there is
// none; an diag.ErrConfig diag.Diagnostics naming file:line when it cannot be trusted
// (bad JSON, a repeated key, an unknown key, another format, an entry
// without gate or key, a negative quantity, a fingerprint listed twice).
func Load(root string) (*File, error) {
	b, err := boundedread.In(root, Path, maxBaseline)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	d := &diag.Diagnostics{Kind: diag.ErrConfig}
	if err != nil {
		d.Add(Path, 0, "cannot read: %v", err)
		return nil, d
	}
	return Parse(b)
}

// Parse decodes a baseline file's bytes strictly (see Load).
func Parse(b []byte) (*File, error) {
	d := &diag.Diagnostics{Kind: diag.ErrConfig}
	doc, err := jsondoc.Parse(b)
	if err != nil {
		var le *jsondoc.LineError
		switch {
		case errors.As(err, &le) && le.Line == 0 && strings.Contains(le.Msg, "EOF"):
			// No offset: the text ended before the JSON did (cut short).
			d.Add(Path, facts.LineAt(b, int64(len(b))), "invalid JSON: %s (the file ends before the JSON does)", le.Msg)
		case errors.As(err, &le):
			d.Add(Path, le.Line, "invalid JSON: %s", le.Msg)
		default:
			d.Add(Path, 0, "invalid JSON: %v", err)
		}
		return nil, d
	}
	var bl File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&bl); err != nil {
		d.Add(Path, decodeLine(b, err), "%v (want {\"format\": %q, \"entries\": [{gate, rule, file, key, quantity, commit}]})", err, Format)
		return nil, d
	}
	if bl.Format != Format {
		d.Add(Path, doc.Line("format"), "format: want %q, got %q", Format, bl.Format)
	}
	seen := map[Fingerprint]int{}
	for i, en := range bl.Entries {
		at := func(k string) int { return doc.Line("entries", strconv.Itoa(i), k) }
		switch {
		case strings.TrimSpace(en.Gate) == "":
			d.Add(Path, at("gate"), "entries[%d].gate: empty", i)
		case strings.TrimSpace(en.Key) == "":
			d.Add(Path, at("key"), "entries[%d].key: empty", i)
		case en.Quantity < 1:
			d.Add(Path, at("quantity"), "entries[%d].quantity: want a positive whole number, got %d", i, en.Quantity)
		}
		if first, dup := seen[en.Fingerprint()]; dup {
			d.Add(Path, at("gate"), "entries[%d]: %s is listed twice (first entries[%d]); keep one", i, en.Fingerprint(), first)
		}
		seen[en.Fingerprint()] = i
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return &bl, nil
}

// decodeLine is the line a strict decoding error points at: the offending
// key's for an unknown field, the value's for a wrong type, else 0.
func decodeLine(b []byte, err error) int {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return facts.LineAt(b, te.Offset)
	}
	if m := unknownFieldRE().FindStringSubmatch(err.Error()); m != nil {
		if i := bytes.Index(b, []byte(`"`+m[1]+`"`)); i >= 0 {
			return facts.LineAt(b, int64(i))
		}
	}
	return 0
}

var unknownFieldRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`unknown field "([^"]*)"`) })
