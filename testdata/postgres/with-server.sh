#!/usr/bin/env bash
# with-server.sh CMD [ARG...]: runs CMD with a throwaway PostgreSQL server on
# 127.0.0.1 and its URL in TAUSIK_TEST_POSTGRES, then stops the server and
# removes its files, whatever CMD's outcome; exits with CMD's status.
#
#   testdata/postgres/with-server.sh make test
#   testdata/postgres/with-server.sh go test -count=1 ./store
#
# Needs Debian's postgresql package (the server binaries under
# /usr/lib/postgresql/*/bin; PG_BIN overrides). initdb refuses to run as
# root, so under root the server runs as the postgres user in a temporary
# directory it owns. The server trusts local TCP connections: it is a test
# fixture that lives as long as CMD, never a place for real data, so it
# skips fsync (a commit then costs no disk flush on a shared machine);
# PG_DURABLE=1 keeps PostgreSQL's defaults, for benchmarks.
set -euo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 CMD [ARG...]" >&2
  exit 2
fi

bin="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "with-server.sh: no PostgreSQL server binaries (apt-get install postgresql, or set PG_BIN)" >&2
  exit 3
fi

dir="$(mktemp -d "${TMPDIR:-/tmp}/tausik-pg.XXXXXX")"
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$dir"
  as_owner=(runuser -u postgres --)
fi

stop() {
  if [ -f "$dir/data/postmaster.pid" ]; then
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}
trap stop EXIT

"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-locale -E UTF8 >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log" >&2; exit 3; }

# A free port: one nothing answers on. Another process may take it between
# the probe and the start, so a failed start tries the next candidate.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
opts="-c max_connections=200"
if [ "${PG_DURABLE:-}" != 1 ]; then
  opts="$opts -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
fi
started=""
for _ in 1 2 3 4 5 6 7 8; do
  port=$((20000 + RANDOM % 30000))
  port_free "$port" || continue
  if "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir $opts" start >/dev/null; then
    started=1
    break
  fi
done
if [ -z "$started" ]; then
  echo "with-server.sh: the server did not start:" >&2
  cat "$dir/server.log" >&2 || true
  exit 3
fi

export TAUSIK_TEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
echo "with-server.sh: PostgreSQL $("$bin/postgres" -V | awk '{print $3}') on 127.0.0.1:$port (TAUSIK_TEST_POSTGRES)" >&2
# CMD runs in the background so that a signal (a CI timeout, ^C) reaches
# this shell at once: it is passed on to CMD, and the EXIT trap stops the
# server, instead of both waiting for CMD to finish on its own.
"$@" <&0 &
child=$!
trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit 143' TERM
trap 'kill -INT "$child" 2>/dev/null; wait "$child"; exit 130' INT
set +e
wait "$child"
status=$?
set -e
exit "$status"
