package artifacts

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// Spec is a SPEC's front matter as read, values as written (closed lists
// are not applied here). Lines maps each field present to its file line.
type Spec struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Artifact string `json:"artifact"`
	Slug     string `json:"slug"`
	Type     string `json:"type"`
	Status   string `json:"status"`
	Version  string `json:"version"`
	Title    string `json:"title"`
	// TitleFrom is "front_matter", "heading" (the first "# " heading, minus
	// a "SPEC-<TYPE>: " prefix) or "" when neither gives one.
	TitleFrom string `json:"title_from"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// UpdatedNS is updated_at in Unix nanoseconds (RFC 3339, or a date
	// read as its midnight UTC), null when it is neither.
	UpdatedNS   *int64         `json:"updated_ns"`
	LinkedTasks []string       `json:"linked_tasks"`
	ContentRef  string         `json:"content_ref"`
	Lines       map[string]int `json:"lines"`
}

// Adapt is an ADAPT's front matter and body findings as read.
type Adapt struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Artifact string `json:"artifact"`
	Slug     string `json:"slug"`
	Title    string `json:"title"`
	// Status is as written, except the legacy "signed", read as
	// "approved"; StatusRaw is always as written.
	Status    string `json:"status"`
	StatusRaw string `json:"status_raw"`
	// DeltaN is delta_n as written ("" when absent); DeltaInt is its value
	// when it is a YAML integer, else null.
	DeltaN                string         `json:"delta_n"`
	DeltaInt              *int64         `json:"delta_int"`
	ParentAdapt           string         `json:"parent_adapt"`
	TzRef                 string         `json:"tz_ref"`
	Links                 []Link         `json:"links"`
	Signatures            []Signature    `json:"signatures"`
	Findings              []Finding      `json:"findings"`
	CreatedAt             string         `json:"created_at"`
	UpdatedAt             string         `json:"updated_at"`
	SupersessionRationale string         `json:"supersession_rationale"`
	SupersededBy          string         `json:"superseded_by"`
	Lines                 map[string]int `json:"lines"`
}

// Link is one entry of an ADAPT's links.
type Link struct {
	TargetSlug string `json:"target_slug"`
	TargetType string `json:"target_type"`
	Line       int    `json:"line"`
}

// Signature is one entry of an ADAPT's signatures. Check is filled by
// Verify; the fields above it are as written.
type Signature struct {
	Role        string `json:"role"`
	SignedBy    string `json:"signed_by"`
	SignedAt    string `json:"signed_at"`
	Fingerprint string `json:"fingerprint"`
	Signature   string `json:"signature"`
	Line        int    `json:"line"`
	Check
}

// Finding is a "### [<category>] (<tz_ref>)" heading of an ADAPT body.
type Finding struct {
	Section  string `json:"section"`
	Category string `json:"category"`
	TzRef    string `json:"tz_ref"`
	Line     int    `json:"line"`
}

// reader decodes typed fields, remembering each one's line and the first
// field whose shape is wrong.
type reader struct {
	d     *Doc
	lines map[string]int
	err   error
}

func (r *reader) bad(n *yaml.Node, format string, args ...any) {
	if r.err == nil {
		r.err = &ParseError{File: r.d.File, Line: r.d.Line(n), Msg: fmt.Sprintf(format, args...)}
	}
}

// scalar returns field key as text; absent or null is "".
func (r *reader) scalar(key string) string {
	n := r.d.Get(key)
	if n == nil {
		return ""
	}
	r.lines[key] = r.d.KeyLine(key)
	return r.value(n, key)
}

func (r *reader) value(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode {
		r.bad(n, "%s must be a plain value, not a %s", what, kindName(n))
		return ""
	}
	if n.Tag == "!!null" {
		return ""
	}
	return n.Value
}

// list returns field key's items, each checked by item; absent or null is
// an empty list.
func (r *reader) list(key string, item func(*yaml.Node)) {
	n := r.d.Get(key)
	if n == nil {
		return
	}
	r.lines[key] = r.d.KeyLine(key)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.SequenceNode {
		r.bad(n, "%s must be a list, not a %s", key, kindName(n))
		return
	}
	for _, it := range n.Content {
		if it.Kind == yaml.AliasNode && it.Alias != nil {
			it = it.Alias
		}
		item(it)
	}
}

// fields decodes a mapping item into its named scalar fields.
func (r *reader) fields(n *yaml.Node, what string, names ...string) map[string]string {
	out := map[string]string{}
	if n.Kind != yaml.MappingNode {
		r.bad(n, "each entry of %s must be a mapping, not a %s", what, kindName(n))
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		for _, name := range names {
			if n.Content[i].Value == name {
				out[name] = r.value(n.Content[i+1], what+"."+name)
			}
		}
	}
	return out
}

// ReadSpec decodes a parsed SPEC. A field of the wrong shape (a list where a
// value belongs) is a *ParseError at that field's line.
func ReadSpec(d *Doc) (Spec, error) {
	r := &reader{d: d, lines: map[string]int{}}
	s := Spec{File: d.File, Line: 1, LinkedTasks: []string{}, Lines: r.lines}
	s.Artifact, s.Slug, s.Type = r.scalar("artifact"), r.scalar("slug"), r.scalar("type")
	s.Status, s.Version, s.Title = r.scalar("status"), r.scalar("version"), r.scalar("title")
	s.CreatedAt, s.UpdatedAt, s.ContentRef = r.scalar("created_at"), r.scalar("updated_at"), r.scalar("content_ref")
	r.list("linked_tasks", func(n *yaml.Node) {
		if v := r.value(n, "linked_tasks entry"); v != "" {
			s.LinkedTasks = append(s.LinkedTasks, v)
		}
	})
	s.UpdatedNS = UnixNS(s.UpdatedAt)
	if s.Title != "" {
		s.TitleFrom = "front_matter"
	} else if t, line := headingTitle(d); line > 0 {
		s.Title, s.TitleFrom, r.lines["title"] = t, "heading", line
	}
	return s, r.err
}

var specPrefixRE = regexp.MustCompile(`^SPEC-[A-Za-z]+:\s*`)

// headingTitle is the body's first "# " heading, minus a "SPEC-<TYPE>: "
// prefix, with its file line; 0 when the body has none.
func headingTitle(d *Doc) (string, int) {
	for i, l := range bodyLines(d.Body) {
		if t, ok := strings.CutPrefix(l, "# "); ok {
			return strings.TrimSpace(specPrefixRE.ReplaceAllString(strings.TrimSpace(t), "")), d.BodyStart + i
		}
	}
	return "", 0
}

// bodyLines splits the body into lines, blanking those inside fenced code
// blocks so a heading in an example is not read as one.
func bodyLines(body []byte) []string {
	lines := strings.Split(string(bytes.ReplaceAll(body, []byte("\r\n"), []byte("\n"))), "\n")
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			lines[i] = ""
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
			lines[i] = ""
		}
	}
	return lines
}

// ReadAdapt decodes a parsed ADAPT and the finding headings of its body.
func ReadAdapt(d *Doc) (Adapt, error) {
	r := &reader{d: d, lines: map[string]int{}}
	a := Adapt{File: d.File, Line: 1, Links: []Link{}, Signatures: []Signature{}, Findings: []Finding{}, Lines: r.lines}
	a.Artifact, a.Slug, a.Title = r.scalar("artifact"), r.scalar("slug"), r.scalar("title")
	a.StatusRaw = r.scalar("status")
	a.Status = NormalizeAdaptStatus(a.StatusRaw)
	a.DeltaN = r.scalar("delta_n")
	if n := d.Get("delta_n"); n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!int" {
		if v, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			a.DeltaInt = &v
		}
	}
	a.ParentAdapt, a.TzRef = r.scalar("parent_adapt"), r.scalar("tz_ref")
	a.CreatedAt, a.UpdatedAt = r.scalar("created_at"), r.scalar("updated_at")
	a.SupersessionRationale, a.SupersededBy = r.scalar("supersession_rationale"), r.scalar("superseded_by")
	r.list("links", func(n *yaml.Node) {
		f := r.fields(n, "links", "target_slug", "target_type")
		a.Links = append(a.Links, Link{TargetSlug: f["target_slug"], TargetType: f["target_type"], Line: d.Line(n)})
	})
	r.list("signatures", func(n *yaml.Node) {
		f := r.fields(n, "signatures", "role", "signed_by", "signed_at", "fingerprint", "signature")
		a.Signatures = append(a.Signatures, Signature{Role: f["role"], SignedBy: f["signed_by"], SignedAt: f["signed_at"],
			Fingerprint: f["fingerprint"], Signature: f["signature"], Line: d.Line(n)})
	})
	a.Findings = bodyFindings(d)
	return a, r.err
}

var findingRE = regexp.MustCompile(`^###\s+\[([^\]]*)\]\s*(?:\(([^)]*)\))?`)

// bodyFindings reads the "### [<category>] (<tz_ref>)" headings, each with
// the "## " section it sits in.
func bodyFindings(d *Doc) []Finding {
	out := []Finding{}
	section := ""
	for i, l := range bodyLines(d.Body) {
		if t, ok := strings.CutPrefix(l, "## "); ok {
			section = strings.TrimSpace(t)
			continue
		}
		if m := findingRE.FindStringSubmatch(l); m != nil {
			out = append(out, Finding{Section: section, Category: strings.TrimSpace(m[1]), TzRef: strings.TrimSpace(m[2]), Line: d.BodyStart + i})
		}
	}
	return out
}

// UnixNS reads an ISO 8601 time (RFC 3339, or a date as its midnight UTC)
// as Unix nanoseconds; nil when it is neither.
func UnixNS(s string) *int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if t, err = time.Parse(time.DateOnly, s); err != nil {
			return nil
		}
	}
	ns := t.UnixNano()
	return &ns
}
