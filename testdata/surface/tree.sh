#!/bin/sh
# tree.sh python|go DIR: copies the Python standard library (without
# site-packages, located through sysconfig) or $(go env GOROOT)/src into DIR
# and commits it as a git repository: the trees class_surface is measured on
# (bench.sh, docs/performance.md).
set -eu
kind=$1 dir=$2
case $kind in
python) src=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])') ;;
go) src=$(go env GOROOT)/src ;;
*) echo "usage: tree.sh python|go DIR" >&2; exit 2 ;;
esac
mkdir -p "$dir"
(cd "$src" && tar cf - --exclude=./site-packages --exclude=__pycache__ .) | (cd "$dir" && tar xf -)
cd "$dir"
git init -q
git -c user.name=bench -c user.email=bench@example.test add -A
git -c user.name=bench -c user.email=bench@example.test commit -qm tree
