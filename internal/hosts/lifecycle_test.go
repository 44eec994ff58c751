package hosts

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tausik/tausik/engine"
	"github.com/tausik/tausik/engine/toolcall"
)

// turnEnv is an Env whose engine never opens: the lifecycle answers that
// must not depend on the project are checked without one.
func turnEnv(payload string, opened *int) (Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return Env{Stdin: strings.NewReader(payload), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, WD: "/p",
		Open: func(context.Context, Where) (*engine.Engine, error) {
			*opened++
			return nil, errors.New("store is broken")
		}}, &out, &errb
}

func noJudge(t *testing.T) Turner {
	return func(context.Context, *engine.Engine, toolcall.Turn) (TurnAnswer, error) {
		t.Fatal("the judge ran")
		return TurnAnswer{}, nil
	}
}

// TestTurnFailures pins what a stop or a context does when it cannot be
// judged: a broken store refuses a fresh stop once with the error, lets a
// stop the host is already continuing through (so it cannot loop), and
// is handed to the model as text at session start; a payload that is no
// JSON object, or a Cursor stop the person aborted, passes.
func TestTurnFailures(t *testing.T) {
	claude, _ := Lookup("claude")
	cursor, _ := Lookup("cursor")
	copilot, _ := Lookup("copilot")
	for _, c := range []struct {
		name    string
		h       *Host
		event   string
		payload string
		code    int
		out     string // a substring of stdout ("" = stdout empty)
		opens   int
	}{
		{"fresh stop, broken store", claude, toolcall.EventStop, `{"session_id":"s","cwd":"/p","hook_event_name":"Stop","stop_hook_active":false}`, 0, `"decision":"block","reason":"tausik: the active task is not done; do not stop yet. the stop could not be judged: store is broken"`, 1},
		{"continued stop, broken store", claude, toolcall.EventStop, `{"session_id":"s","cwd":"/p","hook_event_name":"Stop","stop_hook_active":true}`, 1, "", 1},
		{"cursor continued stop, broken store", cursor, toolcall.EventStop, `{"conversation_id":"c","workspace_roots":["/p"],"status":"completed","loop_count":2}`, 1, "", 1},
		{"cursor aborted stop", cursor, toolcall.EventStop, `{"conversation_id":"c","workspace_roots":["/p"],"status":"aborted","loop_count":0}`, 0, "{}", 0},
		{"not JSON", claude, toolcall.EventStop, `stop please`, 1, "", 0},
		{"session start, broken store", claude, toolcall.EventSessionStart, `{"session_id":"s","cwd":"/p","hook_event_name":"SessionStart"}`, 0, `"additionalContext":"tausik could not read the task state: store is broken","hookEventName":"SessionStart"`, 1},
		{"host without the event", copilot, toolcall.EventStop, `{}`, 2, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			opened := 0
			env, out, _ := turnEnv(c.payload, &opened)
			judge := noJudge(t)
			code := RunTurn(context.Background(), c.h, c.event, env, judge, time.Hour)
			if code != c.code || opened != c.opens || (c.out == "") != (out.Len() == 0) || !strings.Contains(out.String(), c.out) {
				t.Fatalf("exit %d (want %d), opened %d (want %d), stdout %q (want %q)", code, c.code, opened, c.opens, out.String(), c.out)
			}
		})
	}
}
