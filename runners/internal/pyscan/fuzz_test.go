package pyscan

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/tausik/tausik/runners/internal/pyscan/pyscantest"
)

// FuzzScan feeds arbitrary bytes to the scanner: it must never panic, never
// hang, and always answer with either classes or an error with a line.
// Seeds: the golden and edge cases (testdata/fuzz/FuzzScan holds more).
func FuzzScan(f *testing.F) {
	for _, c := range pyscantest.GoldenCases {
		f.Add([]byte(c.Src))
	}
	for _, c := range pyscantest.EdgeCases {
		f.Add([]byte(c.Src))
	}
	sc := NewScanner()
	f.Fuzz(func(t *testing.T, src []byte) {
		done := make(chan struct{})
		timer := time.AfterFunc(10*time.Second, func() {
			select {
			case <-done:
			default:
				panic("scan did not finish within 10s")
			}
		})
		defer timer.Stop()
		got := sc.Scan("fuzz.py", src)
		close(done)
		fresh := Scan("fuzz.py", src)
		if !reflect.DeepEqual(got, fresh) {
			t.Fatalf("a reused Scanner says %+v, a fresh one %+v", got, fresh)
		}
		if !got.Parsed {
			if got.Error == nil || got.Error.Line < 1 || got.Error.Msg == "" || len(got.Classes) != 0 {
				t.Fatalf("unparsed without a proper error: %+v", got)
			}
			return
		}
		if got.Error != nil {
			t.Fatalf("parsed with an error: %+v", got.Error)
		}
		for i, c := range got.Classes {
			if c.Name == "" || c.Line < 1 || c.Bases == nil || c.Public == nil {
				t.Fatalf("malformed class %+v", c)
			}
			if i > 0 && c.Line <= got.Classes[i-1].Line {
				t.Fatalf("classes out of source order: %+v", got.Classes)
			}
			if !slices.IsSorted(c.Public) || len(slices.Compact(slices.Clone(c.Public))) != len(c.Public) {
				t.Fatalf("public names not sorted and unique: %v", c.Public)
			}
		}
	})
}
