package policy

import (
	"strconv"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// resultTerm is a query result left as OPA's term (rego.EvalGenerateJSON):
// regoList reads a set of violations from it directly instead of through
// the Go API's maps, which cost ~11 ms for the 3,700 violations of
// class_surface on the standard library.
type resultTerm struct{ *ast.Term }

func keepTerm(t *ast.Term, _ *rego.EvalContext) (any, error) { return resultTerm{t}, nil }

// termViolation reads a violation object whose keys are all known and
// whose values have the right types (a line a whole number that fits); ok
// is false for anything else, which goes the general way (toViolation and
// its error). TestTermViolationMatchesToViolation holds the two together.
func termViolation(v ast.Value) (out Violation, ok bool) {
	obj, isObj := v.(ast.Object)
	if !isObj || obj.Len() == 0 {
		return out, false
	}
	ok = true
	hasMsg := false
	obj.Foreach(func(k, e *ast.Term) {
		key, isStr := k.Value.(ast.String)
		if !isStr || !ok {
			ok = false
			return
		}
		if key == "line" || key == "quantity" {
			n, isNum := e.Value.(ast.Number)
			i, err := strconv.ParseInt(string(n), 10, 64)
			if ok = isNum && err == nil && i >= 0 && int64(int(i)) == i; ok {
				if key == "line" {
					out.Line = int(i)
				} else {
					out.Quantity = int(i)
				}
			}
			return
		}
		s, isStr := e.Value.(ast.String)
		if !isStr {
			ok = false
			return
		}
		switch key {
		case "msg":
			out.Msg, hasMsg, ok = string(s), true, s != ""
		case "file":
			out.File = string(s)
		case "rule":
			out.Rule = string(s)
		case "detector":
			out.Detector = string(s)
		case "kind":
			out.Kind = string(s)
		case "ref":
			out.Ref = string(s)
		case "key":
			out.Key = string(s)
		case "severity":
			out.Severity, ok = string(s), s == SeverityAsk || s == SeverityBlock
		default:
			ok = false
		}
	})
	return out, ok && hasMsg
}
