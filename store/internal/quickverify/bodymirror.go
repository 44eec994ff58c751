package quickverify

// readMirrored reads the value at j of key p in an object of kind obj into
// f (g: a gate's) when it is a mirrored field: the end of the value and
// true, or j and false for any other key.
func readMirrored(b []byte, j, obj int, p prevKey, f *BodyFields, g *BodyGate) (int, bool) {
	known := true
	switch obj {
	case objTop:
		switch {
		case p.w == kwBlocked:
			j, f.Blocked = scanBool(b, j)
		case p.w == kwDecisionID && string(b[p.s:p.e]) == "decision_id":
			j, f.ID = mirrorString(b, j)
		case p.w == kwExitCode && string(b[p.s:p.e]) == "exit_code":
			j, f.ExitCode = scanInt(b, j)
		case p.w == kwGates:
			j = skipArray(b, j, 2, f)
		case p.w == kwGitHead && string(b[p.s:p.e]) == "git_head":
			j, f.GitHead = mirrorString(b, j)
		case p.w == kwRequest:
			j = scanFields(b, j, 2, objRequest, f, nil)
		case p.w == kwRequester && string(b[p.s:p.e]) == "requester":
			j, f.Requester = mirrorString(b, j)
		case p.w == kwTime:
			j, f.Time = mirrorString(b, j)
		default:
			known = false
		}
	case objRequest:
		switch p.w {
		case kwTask:
			j, f.Task = mirrorString(b, j)
		case kwTrigger:
			j, f.Trigger = mirrorString(b, j)
		default:
			known = false
		}
	case objGate:
		switch {
		case p.w == kwBlocks:
			j, g.Blocks = scanBool(b, j)
		case p.w == kwName:
			j, g.Name = mirrorString(b, j)
		case p.w == kwOutcome:
			j, g.Outcome = mirrorString(b, j)
		case p.w == kwSeverity && string(b[p.s:p.e]) == "severity":
			j, g.Severity = mirrorString(b, j)
		default:
			known = false
		}
	default:
		known = false
	}
	return j, known
}
