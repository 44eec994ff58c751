package facts

import (
	"maps"
	"slices"
	"strconv"
)

// CanonicalAppender is implemented by namespace data that can append its
// canonical encoding (see Canonical) straight from its fields, without first
// becoming plain values: a warm evaluation whose verdicts are all reused
// needs only the digest of the large file namespaces, never their plain form.
// The object appended must have only keys that sort before "reason" (the
// namespace adds "reason" and "status" after them), and must be exactly the
// canonical encoding of the data's plain form (tests hold each type to it).
type CanonicalAppender interface {
	AppendCanonical(b []byte) []byte
}

// AppendCanonical implements CanonicalAppender.
// As Plain, a nil list is an empty one.
func (f Files) AppendCanonical(b []byte) []byte {
	b = append(b, `{"files":[`...)
	for i, x := range f.Files {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"binary":`...)
		b = strconv.AppendBool(b, x.Binary)
		b = append(b, `,"exists":`...)
		b = strconv.AppendBool(b, x.Exists)
		b = appendKeyText(b, "ext", x.Ext)
		b = appendKeyText(b, "kind", x.Kind)
		b = append(b, `,"lines":`...)
		b = strconv.AppendInt(b, x.Lines, 10)
		if x.Linguist != "" {
			b = appendKeyText(b, "linguist", x.Linguist)
		}
		b = appendKeyText(b, "name", x.Name)
		b = appendKeyText(b, "path", x.Path)
		if x.SHA256 != "" {
			b = appendKeyText(b, "sha256", x.SHA256)
		}
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, x.Size, 10)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// AppendCanonical implements CanonicalAppender.
func (p Python) AppendCanonical(b []byte) []byte {
	b = append(b, `{"files":`...)
	if p.Files == nil {
		return append(b, "null}"...)
	}
	b = append(b, '[')
	for i, f := range p.Files {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"classes":`...)
		if f.Classes == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for j, c := range f.Classes {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"bases":`...)
				b = appendTexts(b, c.Bases)
				b = append(b, `,"line":`...)
				b = strconv.AppendInt(b, int64(c.Line), 10)
				b = appendKeyText(b, "name", c.Name)
				b = append(b, `,"public":`...)
				b = appendTexts(b, c.Public)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, `,"error":`...)
		if f.Error == nil {
			b = append(b, "null"...)
		} else {
			b = appendLineMsg(b, f.Error.Line, f.Error.Msg)
		}
		b = append(b, `,"parsed":`...)
		b = strconv.AppendBool(b, f.Parsed)
		b = appendKeyText(b, "path", f.Path)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// AppendCanonical implements CanonicalAppender.
func (g Go) AppendCanonical(b []byte) []byte {
	b = append(b, `{"files":`...)
	if g.Files == nil {
		return append(b, "null}"...)
	}
	b = append(b, '[')
	for i, f := range g.Files {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"error":`...)
		if f.Error == nil {
			b = append(b, "null"...)
		} else {
			b = appendLineMsg(b, f.Error.Line, f.Error.Msg)
		}
		b = appendKeyText(b, "import_path", f.ImportPath)
		b = append(b, `,"imports":`...)
		b = appendTextMap(b, f.Imports)
		b = append(b, `,"methods":`...)
		if f.Methods == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for j, m := range f.Methods {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"line":`...)
				b = strconv.AppendInt(b, int64(m.Line), 10)
				b = appendKeyText(b, "name", m.Name)
				b = appendKeyText(b, "recv", m.Recv)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = appendKeyText(b, "package", f.Package)
		b = append(b, `,"parsed":`...)
		b = strconv.AppendBool(b, f.Parsed)
		b = appendKeyText(b, "path", f.Path)
		b = append(b, `,"structs":`...)
		if f.Structs == nil {
			b = append(b, "null"...)
		} else {
			b = append(b, '[')
			for j, s := range f.Structs {
				if j > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"bases":`...)
				b = appendTexts(b, s.Bases)
				b = append(b, `,"fields":`...)
				b = appendTexts(b, s.Fields)
				b = append(b, `,"line":`...)
				b = strconv.AppendInt(b, int64(s.Line), 10)
				b = appendKeyText(b, "name", s.Name)
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// appendLineMsg appends a parse error, {"line":N,"msg":"..."}.
func appendLineMsg(b []byte, line int, msg string) []byte {
	b = append(b, `{"line":`...)
	b = strconv.AppendInt(b, int64(line), 10)
	b = appendKeyText(b, "msg", msg)
	return append(b, '}')
}

// appendKeyText appends `,"key":"s"` with s as a JSON round trip gives it
// back (see jsonText).
func appendKeyText(b []byte, key, s string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendString(b, jsonText(s))
}

// appendTextMap appends a map of strings (null when nil) as its JSON round
// trip gives it back: keys and values as jsonText, sorted by key; of two
// keys that read back the same, the one sorting later wins, as in JSON.
func appendTextMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	back := make(map[string]string, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		back[jsonText(k)] = jsonText(m[k])
	}
	b = append(b, '{')
	for i, k := range slices.Sorted(maps.Keys(back)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, back[k])
	}
	return append(b, '}')
}

// appendTexts appends a list of strings (null when nil), each as jsonText.
func appendTexts(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, jsonText(s))
	}
	return append(b, ']')
}
