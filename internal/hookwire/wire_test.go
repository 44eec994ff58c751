package hookwire

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

func TestFrameRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	in := Request{Host: "claude", Event: "pre-tool-use", WD: "/p", Env: []string{"A=1"}, Binary: Identity{Path: "/b", Size: 3, MTime: 4, Inode: 5}, Payload: []byte(`{"x":1}`)}
	if err := Write(&buf, in); err != nil {
		t.Fatal(err)
	}
	var out Request
	if err := Read(&buf, &out); err != nil {
		t.Fatal(err)
	}
	if out.Host != in.Host || out.Event != in.Event || out.WD != in.WD || string(out.Payload) != string(in.Payload) || out.Binary != in.Binary || len(out.Env) != 1 {
		t.Fatalf("round trip: %+v, want %+v", out, in)
	}
}

// A frame of another protocol version is recognised by its fixed header
// and never decoded, whatever its body holds.
func TestFrameOfAnotherVersion(t *testing.T) {
	var buf bytes.Buffer
	buf.WriteString(magic)
	buf.Write(binary.BigEndian.AppendUint32(nil, Version+1))
	buf.Write(binary.BigEndian.AppendUint32(nil, 5))
	buf.WriteString("junk!")
	var a Answer
	if err := Read(&buf, &a); !errors.Is(err, ErrVersion) {
		t.Fatalf("Read = %v, want ErrVersion", err)
	}
}

func TestFrameRefusesGarbageAndOversize(t *testing.T) {
	var a Answer
	if err := Read(strings.NewReader("HTTP/1.1 200 OK\r\n"), &a); err == nil || errors.Is(err, ErrVersion) {
		t.Fatalf("garbage: %v", err)
	}
	var buf bytes.Buffer
	buf.WriteString(magic)
	buf.Write(binary.BigEndian.AppendUint32(nil, Version))
	buf.Write(binary.BigEndian.AppendUint32(nil, maxFrame+1))
	if err := Read(&buf, &a); err == nil || !strings.Contains(err.Error(), "over") {
		t.Fatalf("oversize: %v", err)
	}
	buf.Reset()
	buf.WriteString(magic)
	buf.Write(binary.BigEndian.AppendUint32(nil, Version))
	buf.Write(binary.BigEndian.AppendUint32(nil, 10))
	buf.WriteString(`{"code":`)
	if err := Read(&buf, &a); err == nil {
		t.Fatal("a cut frame was read")
	}
}
