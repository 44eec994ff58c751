package merkle

import (
	"errors"
	"testing"
)

// FuzzVerifyBundle holds the offline verifier, which reads a file anyone can
// hand it, to its contract: any bytes are a Verified bundle or an error
// wrapping ErrNotBundle or ErrInvalidBundle, never a panic; whatever passes
// has the checkpoint it was checked against.
func FuzzVerifyBundle(f *testing.F) {
	s, _ := testSigner(f, "example.com/log")
	f.Add(bundleFixture(f, s))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"schema": "` + BundleSchema + `", "checkpoint": "x\n1\n\n\n— a AAAA\n"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := VerifyBundle(data, nil)
		switch {
		case err == nil && len(v.Checkpoint.VerifierKeys) == 0:
			t.Fatal("a bundle passed without a verified signature")
		case err != nil && !errors.Is(err, ErrNotBundle) && !errors.Is(err, ErrInvalidBundle):
			t.Fatalf("error %v is neither ErrNotBundle nor ErrInvalidBundle", err)
		}
	})
}

// FuzzParseText: a checkpoint body that parses prints back to itself.
func FuzzParseText(f *testing.F) {
	f.Add("example.com/log\n3\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n")
	f.Add("o\n0\n\n")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseText(text)
		if err != nil {
			if !errors.Is(err, ErrNotCheckpoint) {
				t.Fatalf("error %v is not ErrNotCheckpoint", err)
			}
			return
		}
		if got := c.Text(); got != text {
			t.Fatalf("Text() = %q, parsed from %q", got, text)
		}
	})
}
