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

func TestEnvKey(t *testing.T) {
	base := []string{"HOME=/h", "PATH=/bin", "TAUSIK_USER_CONFIG=/u.json", "TERM=xterm"}
	same := []string{"TERM=dumb", "PATH=/bin", "TAUSIK_HOOKD=require", "HOME=/h", "TAUSIK_BIN=/x", "TAUSIK_USER_CONFIG=/u.json", "CLAUDECODE=1"}
	if EnvKey(base) != EnvKey(same) {
		t.Error("an order, the client's switches or an unrelated variable changed the key")
	}
	for _, kv := range []string{"HOME=/other", "PATH=/usr/bin", "TAUSIK_USER_CONFIG=/v.json", "GIT_DIR=/g", "CI=true", "TAUSIK_DB=/d"} {
		changed := append([]string{kv}, base...)
		if k, _, _ := strings.Cut(kv, "="); k == "HOME" || k == "PATH" || k == "TAUSIK_USER_CONFIG" {
			changed = changed[:0]
			for _, b := range base {
				if !strings.HasPrefix(b, k+"=") {
					changed = append(changed, b)
				}
			}
			changed = append(changed, kv)
		}
		if EnvKey(changed) == EnvKey(base) {
			t.Errorf("%s did not change the key", kv)
		}
	}
}
