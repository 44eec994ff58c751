package surface

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tausik/tausik/facts"
)

// names writes n public methods with a prefix, as a class body.
func names(n int, prefix string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "    def %s%d(self): pass\n", prefix, i)
	}
	return b.String()
}

// judgeTree writes files under a fresh root.
func judgeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, src := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// judged is "exempt beyond inherited" per listed class, by name.
func judged(s facts.Surface) map[string]string {
	out := map[string]string{}
	for _, c := range s.Classes {
		out[c.Name] = fmt.Sprintf("%q %d %d", c.Exempt, c.Beyond, c.Inherited)
	}
	return out
}

// TestJudgeRootCause: with a cap of 5, Base (6 names) is the root cause of
// Thin and Thinner (over only through it) and of Mid, which adds 6 of its
// own and is a root cause too, for Leaf. A cycle over the cap is not
// folded into itself. With include_tests, a class of a test file over
// the cap is a root cause for the class it is the base of; without, it is
// not, and that class is judged on its whole surface.
func TestJudgeRootCause(t *testing.T) {
	root := judgeTree(t, map[string]string{
		"app/base.py": "class Base:\n" + names(6, "b"),
		"app/sub.py": "from app.base import Base\n\n\nclass Thin(Base):\n" + names(1, "t") +
			"\n\nclass Thinner(Thin):\n" + names(1, "u") +
			"\n\nclass Mid(Base):\n" + names(6, "m") +
			"\n\nclass Leaf(Mid):\n" + names(2, "l"),
		"app/cycle.py":     "class P(Q):\n" + names(4, "p") + "\n\nclass Q(P):\n" + names(4, "q"),
		"tests/helpers.py": "class Helper:\n" + names(6, "h"),
		"app/uses.py":      "from tests.helpers import Helper\n\n\nclass User(Helper):\n" + names(1, "x"),
	})
	r := New()
	got := judged(gather(t, r, root, map[string]any{"max_public_members": int64(5)}))
	want := map[string]string{
		"Base":    `"" 6 3`, // Thin, Thinner and Leaf (through Mid too)
		"Thin":    `"" 1 0`,
		"Thinner": `"" 1 0`, // beyond Thin and Base: only its own name
		"Mid":     `"" 6 1`,
		"Leaf":    `"" 2 0`,
		"P":       `"" 8 0`,
		"Q":       `"" 8 0`,
		"Helper":  `"test" 6 0`,
		"User":    `"" 7 0`,
	}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%s: %s, want %s", n, got[n], w)
		}
	}
	got = judged(gather(t, r, root, map[string]any{"max_public_members": int64(5), "include_tests": true}))
	if got["Helper"] != `"test" 6 1` || got["User"] != `"" 1 0` {
		t.Errorf("include_tests: Helper %s, User %s", got["Helper"], got["User"])
	}
}

// TestJudgeExempt: enums by name and through a base that is one, Protocols
// (subscripted, dotted), classes under if TYPE_CHECKING: (not their else
// branch), and test files.
func TestJudgeExempt(t *testing.T) {
	root := judgeTree(t, map[string]string{
		"kinds.py": "import enum\nimport typing\nfrom typing import Protocol\n\n\n" +
			"class Status(enum.IntEnum):\n    OK = 1\n\n\nclass MyEnum(enum.Enum):\n    A = 1\n\n\nclass Color(MyEnum):\n    RED = 1\n\n\n" +
			"class Flags(enum.Flag):\n    X = 1\n\n\nclass Store(Protocol[int]):\n    def get(self): ...\n\n\n" +
			"class Reader(typing.Protocol):\n    def read(self): ...\n\n\nclass Impl(Store):\n    def put(self): ...\n\n\n" +
			"if typing.TYPE_CHECKING:\n    class Stub:\n        a = 1\nelse:\n    class Real:\n        a = 1\n\n\n" +
			"class Plain:\n    a = 1\n",
		"tests/test_x.py": "class Case:\n    a = 1\n",
		"pkg/x_test.py":   "class Case2:\n    a = 1\n",
		"conftest.py":     "class Case3:\n    a = 1\n",
		"pkg/test_y.py":   "class Case4:\n    a = 1\n",
		"pkg/testing.py":  "class NotATest:\n    a = 1\n",
	})
	got := map[string]string{}
	for _, c := range gather(t, New(), root, nil).Classes {
		got[c.Name] = c.Exempt
	}
	want := map[string]string{"Status": "enum", "MyEnum": "enum", "Color": "enum", "Flags": "enum", "Store": "protocol",
		"Reader": "protocol", "Impl": "", "Stub": "type_checking", "Real": "", "Plain": "", "Case": "test", "Case2": "test",
		"Case3": "test", "Case4": "test", "NotATest": ""}
	for n, w := range want {
		if g, ok := got[n]; !ok || g != w {
			t.Errorf("%s: exempt %q (listed %v), want %q", n, g, ok, w)
		}
	}
}
