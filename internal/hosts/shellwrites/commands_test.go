package shellwrites

import (
	"encoding/json"
	"testing"
)

// TestCommands: each simple command is exported as it would run, the
// wrappers stripped (and named in Wrapped), the commands of a literal
// bash -c string included, dynamic words marked and kept as written.
func TestCommands(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want string
	}{
		{`env -u X /usr/local/bin/tausik task scope add src/`, `[{"argv":["/usr/local/bin/tausik","task","scope","add","src/"],"dynamic":[false,false,false,false,false],"wrapped":["env"]}]`},
		{`sudo -u root nice -n 5 rm -f "a b"`, `[{"argv":["rm","-f","a b"],"dynamic":[false,false,false],"wrapped":["sudo","nice"]}]`},
		{`ls | grep x && echo $HOME`, `[{"argv":["ls"],"dynamic":[false]},{"argv":["grep","x"],"dynamic":[false,false]},{"argv":["echo","$HOME"],"dynamic":[false,true]}]`},
		{`bash -c 'tausik task done; touch {a,b}'`, `[{"argv":["bash","-c","tausik task done; touch {a,b}"],"dynamic":[false,false,false]},{"argv":["tausik","task","done"],"dynamic":[false,false,false]},{"argv":["touch","a","b"],"dynamic":[false,false,false]}]`},
		{`$T task scope`, `[{"argv":["$T","task","scope"],"dynamic":[true,false,false]}]`},
		{`timeout 5 xargs rm`, `[{"argv":["rm","{xargs input}"],"dynamic":[false,true],"wrapped":["timeout","xargs"]}]`},
		{`xargs tausik`, `[{"argv":["tausik","{xargs input}"],"dynamic":[false,true],"wrapped":["xargs"]}]`},
		{`eval 'tausik baseline'`, `[{"argv":["eval","tausik baseline"],"dynamic":[false,false]},{"argv":["tausik","baseline"],"dynamic":[false,false]}]`},
		{`command -v tausik`, `[{"argv":["command","-v","tausik"],"dynamic":[false,false,false]}]`},
		{`x=$(git rev-parse HEAD)`, `[{"argv":["git","rev-parse","HEAD"],"dynamic":[false,false,false]}]`},
		{``, `[]`},
	} {
		b, err := json.Marshal(Shell(c.cmd).Commands)
		if err != nil || string(b) != c.want {
			t.Errorf("%s\n  got  %s\n  want %s", c.cmd, b, c.want)
		}
	}
	b, _ := json.Marshal(Argv([]string{"env", "tausik", "task", "scope"}).Commands)
	if string(b) != `[{"argv":["tausik","task","scope"],"dynamic":[false,false,false],"wrapped":["env"]}]` {
		t.Errorf("argv: %s", b)
	}
}
