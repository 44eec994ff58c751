package render

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Stamp is a time to the second in UTC, "-" for the zero time.
func Stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

// OrNone joins list with commas, "(none)" when it is empty.
func OrNone(list []string) string {
	if len(list) == 0 {
		return "(none)"
	}
	return strings.Join(list, ", ")
}

// OrDash is s, or "-" when it is empty.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// plain is v for a person: a string as it is, a list of strings joined
// with commas, anything else as compact JSON.
func plain(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []string:
		return strings.Join(x, ", ")
	}
	return value(v)
}

// value is v as compact JSON.
func value(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
