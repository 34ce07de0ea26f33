#!/bin/sh
# A throwaway PostgreSQL cluster for a test run, listening only on a socket in its own folder.
#   start DIR    initdb and start it in DIR (made if missing), print its URL
#   halt DIR     stop it at once (immediate: as a crash would), resume DIR starts it again
#   stop DIR     stop it and remove DIR
# PostgreSQL refuses to run as root: as root, every server command runs as the postgres user
# that Debian's package creates. fsync is off (a test cluster lives as long as its run; an
# immediate stop still loses nothing committed, only a crash of the machine would); a benchmark
# sets PG_FSYNC=on to pay for durable commits as a real server does.
set -eu
cmd=$1
dir=$2
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
as_postgres() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
start() {
    as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses= -k $dir -c fsync=${PG_FSYNC:-off} -c max_connections=200" start >/dev/null
}
case $cmd in
start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    as_postgres "$bin/initdb" -D "$dir/data" -A trust -U tripeaks -E UTF8 --no-sync \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    start
    as_postgres "$bin/createdb" -h "$dir" -U tripeaks tripeaks
    echo "postgresql://tripeaks@/tripeaks?host=$dir"
    ;;
halt) as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null ;;
resume) start ;;
stop)
    as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
*) echo "usage: $0 start|halt|resume|stop DIR" >&2; exit 2 ;;
esac
