package engine_test

import (
	"path"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// toolCommands turns shell text into the `tool` namespace's commands, by
// the real bash parser (mvdan.cc/sh): every simple command, in function
// bodies, pipelines, subshells and command substitutions too, with the
// wrappers sudo/env/nohup/time/nice/timeout/command/exec stripped and the
// script of `bash -c` parsed in turn; argv[i] is "" and dynamic[i] true
// when the word is known only at run time; each command's redirects and
// here-docs. It stands in, in tests only, for the runner that fills the
// namespace from a hook's tool call.
func toolCommands(t *testing.T, text string) []any {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	var out []any
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		var argv []string
		var dyn []bool
		for _, w := range call.Args {
			s, lit := wordLit(w)
			argv, dyn = append(argv, s), append(dyn, !lit)
		}
		argv, dyn = unwrap(argv, dyn)
		if len(argv) == 0 {
			return true
		}
		redirects, heredocs := []any{}, []any{}
		for _, r := range st.Redirs {
			switch r.Op {
			case syntax.Hdoc, syntax.DashHdoc:
				heredocs = append(heredocs, wordText(r.Hdoc))
			case syntax.WordHdoc:
				heredocs = append(heredocs, wordText(r.Word))
			default:
				target, _ := wordLit(r.Word)
				redirects = append(redirects, map[string]any{"op": r.Op.String(), "target": target})
			}
		}
		out = append(out, map[string]any{"argv": strs(argv), "dynamic": bools(dyn), "redirects": redirects, "heredocs": heredocs})
		if shells[path.Base(argv[0])] {
			for i := 1; i+1 < len(argv); i++ {
				if strings.HasPrefix(argv[i], "-") && !strings.HasPrefix(argv[i], "--") && strings.Contains(argv[i], "c") && !dyn[i+1] {
					out = append(out, toolCommands(t, argv[i+1])...)
					break
				}
			}
		}
		return true
	})
	return out
}

var shells = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true}

// wrapperValues are the options of each wrapper that take a value.
var wrapperValues = map[string]map[string]bool{
	"sudo": {"-u": true, "-g": true}, "env": {"-u": true}, "nohup": {}, "time": {}, "nice": {"-n": true},
	"timeout": {"-s": true, "-k": true}, "command": {}, "exec": {"-a": true}, "doas": {"-u": true},
}

// unwrap strips wrappers (and their options, env's assignments, timeout's
// duration) from the front of argv.
func unwrap(argv []string, dyn []bool) ([]string, []bool) {
	for len(argv) > 0 && !dyn[0] {
		values, ok := wrapperValues[path.Base(argv[0])]
		if !ok {
			break
		}
		name := path.Base(argv[0])
		i := 1
		for i < len(argv) && !dyn[i] && (strings.HasPrefix(argv[i], "-") || name == "env" && strings.Contains(argv[i], "=")) {
			if values[argv[i]] {
				i++
			}
			i++
		}
		if name == "timeout" && i < len(argv) {
			i++
		}
		if i > len(argv) {
			i = len(argv)
		}
		argv, dyn = argv[i:], dyn[i:]
	}
	return argv, dyn
}

// wordLit is w's value when it is literal text (quotes removed), else ""
// and false.
func wordLit(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// wordText is a here-doc's text as written.
func wordText(w *syntax.Word) string {
	var b strings.Builder
	if w != nil {
		_ = syntax.NewPrinter().Print(&b, w)
	}
	return b.String()
}

func strs(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func bools(xs []bool) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
