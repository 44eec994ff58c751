//go:build linux

package main

import (
	"bytes"
	"encoding/binary"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/internal/hookwire"
)

// An evaluator that speaks another protocol version is never believed: the
// client recognises the frame by its fixed header and does not read a
// verdict from it. The listener here is this test binary, named as the
// tausik binary, so the peer check passes and only the version differs;
// TAUSIK_HOOKD=require makes the client say so instead of judging the call
// in process, which it does otherwise.
func TestClientRefusesAnotherProtocolVersion(t *testing.T) {
	root, err := os.MkdirTemp("", "hookc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.Mkdir(filepath.Join(root, ".tausik"), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", hookwire.Socket(root))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			served <- err
			return
		}
		defer c.Close()
		var req hookwire.Request
		if err := hookwire.Read(c, &req); err != nil {
			served <- err
			return
		}
		body := []byte(`{"code":0}`)
		frame := append([]byte("TSKH"), binary.BigEndian.AppendUint32(nil, hookwire.Version+1)...)
		frame = append(binary.BigEndian.AppendUint32(frame, uint32(len(body))), body...)
		_, err = c.Write(frame)
		served <- err
	}()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"TAUSIK_BIN": self, "TAUSIK_ROOT": root, "TAUSIK_HOOKD": "require"}
	var out, errw bytes.Buffer
	code := run([]string{"hook", "claude", "pre-tool-use"}, strings.NewReader(`{"tool_name":"Write"}`), &out, &errw, func(k string) string { return env[k] })
	if err := <-served; err != nil {
		t.Fatalf("the other version's evaluator was never asked: %v", err)
	}
	if code != 2 || out.Len() != 0 || !strings.Contains(errw.String(), hookwire.ErrVersion.Error()) {
		t.Fatalf("code %d, stdout %q, stderr %q: want a refusal naming the protocol version", code, out.String(), errw.String())
	}
}
