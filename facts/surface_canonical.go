package facts

import "strconv"

// namespaceAppender is implemented by namespace data whose keys sort on
// both sides of "reason" and "status", so that it cannot leave those two to
// the namespace as a CanonicalAppender does: it appends the namespace's
// whole canonical object, status and reason (when withReason) included.
type namespaceAppender interface {
	appendNamespace(b []byte, status, reason string, withReason bool) []byte
}

// appendNamespace implements namespaceAppender: exactly the canonical
// encoding of the namespace's plain form (TestSurfaceAppendMatchesGeneric),
// without building it. A warm evaluation whose verdict is reused needs the
// surface namespace's digest only, and building its plain form for it was
// half of that digest's cost on the stdlib tree.
func (s Surface) appendNamespace(b []byte, status, reason string, withReason bool) []byte {
	b = appendList(append(b, `{"ambiguous_bases":`...), s.AmbiguousBases, appendAmbiguity)
	b = append(b, `,"cap":`...)
	b = strconv.AppendInt(b, int64(s.Cap), 10)
	b = appendList(append(b, `,"classes":`...), s.Classes, appendSurfaceClass)
	b = append(b, `,"exclude":`...)
	b = appendTexts(b, s.Exclude)
	if withReason {
		b = appendString(append(b, `,"reason":`...), reason) // as Canonical writes it: invalid UTF-8 as \ufffd
	}
	b = appendList(append(b, `,"roots":`...), s.Roots, appendSurfaceRoot)
	b = append(b, `,"scanned":`...)
	b = strconv.AppendInt(b, int64(s.Scanned), 10)
	b = appendString(append(b, `,"status":`...), status)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(s.Total), 10)
	b = appendList(append(b, `,"unparsed":`...), s.Unparsed, appendSurfaceError)
	return append(b, '}')
}

// appendList appends xs as a JSON array of each's encodings, null for a
// nil slice (as the plain form has it).
func appendList[T any](b []byte, xs []T, each func([]byte, T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, x)
	}
	return append(b, ']')
}

// appendAmbiguity appends one ambiguous base's canonical object.
func appendAmbiguity(b []byte, a SurfaceAmbiguity) []byte {
	b = append(b, `{"base":`...)
	b = appendString(b, jsonText(a.Base))
	b = append(b, `,"candidates":`...)
	b = appendTexts(b, a.Candidates)
	b = appendKeyText(b, "writer", a.Writer)
	return append(b, '}')
}

// appendSurfaceRoot appends one root's canonical object.
func appendSurfaceRoot(b []byte, r SurfaceRoot) []byte {
	b = append(b, `{"files":`...)
	b = strconv.AppendInt(b, int64(r.Files), 10)
	b = appendKeyText(b, "root", r.Root)
	b = append(b, `,"whole":`...)
	b = strconv.AppendBool(b, r.Whole)
	return append(b, '}')
}

// appendSurfaceError appends one unparsed file's canonical object.
func appendSurfaceError(b []byte, u SurfaceError) []byte {
	b = append(b, `{"line":`...)
	b = strconv.AppendInt(b, int64(u.Line), 10)
	b = appendKeyText(b, "msg", u.Msg)
	b = appendKeyText(b, "path", u.Path)
	return append(b, '}')
}

// appendSurfaceClass appends one class's canonical object.
func appendSurfaceClass(b []byte, c SurfaceClass) []byte {
	b = append(b, `{"ambiguous":`...)
	if c.Ambiguous == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for j, a := range c.Ambiguous {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"ref":`...)
			b = strconv.AppendInt(b, int64(a.Ref), 10)
			b = append(b, `,"worst":`...)
			b = strconv.AppendInt(b, int64(a.Worst), 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"beyond":`...)
	b = strconv.AppendInt(b, int64(c.Beyond), 10)
	b = appendKeyText(b, "breakdown", c.Breakdown)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(c.Count), 10)
	b = appendKeyText(b, "exempt", c.Exempt)
	b = append(b, `,"from":`...)
	b = appendTexts(b, c.From)
	b = append(b, `,"inherited":`...)
	b = strconv.AppendInt(b, int64(c.Inherited), 10)
	b = appendKeyText(b, "lang", c.Lang)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(c.Line), 10)
	b = appendKeyText(b, "name", c.Name)
	b = append(b, `,"own":`...)
	b = strconv.AppendInt(b, int64(c.Own), 10)
	b = appendKeyText(b, "path", c.Path)
	b = append(b, `,"sources":`...)
	b = appendTexts(b, c.Sources)
	return append(b, '}')
}
