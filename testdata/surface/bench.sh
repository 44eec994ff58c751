#!/bin/sh
# bench.sh [TAUSIK]: class_surface side by side with the reference
# framework's algorithm (testdata/python/surfaceref.py, CPython's ast) on the
# Python standard library and on $(go env GOROOT)/src, each laid out as a git
# repository by tree.sh. For each tree: tausik policy eval --trigger commit
# --gate class_surface cold (no .tausik), again unchanged (the verdict is
# reused), and after one class is added (warm fact cache, fresh verdict);
# wall and CPU (user+sys) seconds and peak RSS. CPU is the figure to compare
# on a shared machine (docs/performance.md). make bench runs it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "${1:-$here/../../bin/tausik}")" && pwd)/$(basename "${1:-tausik}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-22s %7s %7s %8s\n' tree run wall cpu rss_mb
row() { # row TREE RUN TIMEFILE
	tail -1 "$3" | awk -v t="$1" -v r="$2" '{printf "%-8s %-22s %7.2f %7.2f %8.0f\n", t, r, $1, $2 + $3, $4 / 1024}'
}
eval_gate() { # eval_gate TREE RUN DIR
	(cd "$3" && /usr/bin/time -o "$tmp/t" -f '%e %U %S %M' "$bin" policy eval --trigger commit --gate class_surface >/dev/null) || [ $? -eq 1 ]
	row "$1" "$2" "$tmp/t"
}
for kind in python go; do
	tree=$tmp/$kind
	"$here/tree.sh" "$kind" "$tree"
	eval_gate "$kind" "tausik cold" "$tree"
	eval_gate "$kind" "tausik unchanged" "$tree"
	if [ "$kind" = python ]; then
		f=$(cd "$tree" && git ls-files '*.py' | head -1)
		printf '\n\nclass BenchAdded:\n    def added(self):\n        pass\n' >>"$tree/$f"
	else
		f=$(cd "$tree" && git ls-files '*.go' | grep -v -e _test.go -e testdata/ | head -1)
		printf '\n// BenchAdded is added by bench.sh.\ntype BenchAdded struct{ A int }\n' >>"$tree/$f"
	fi
	eval_gate "$kind" "tausik one class added" "$tree"
done
(cd "$tmp/python" && git ls-files '*.py') >"$tmp/paths"
/usr/bin/time -o "$tmp/t" -f '%e %U %S %M' python3 "$here/../python/surfaceref.py" "$tmp/python" <"$tmp/paths" >"$tmp/ref"
row python "reference (ast)" "$tmp/t"
echo "reference: $(cat "$tmp/ref")"
