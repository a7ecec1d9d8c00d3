#!/usr/bin/env bash
# One PostgreSQL cluster on 127.0.0.1, in one of two modes:
#
#   throw-away (default; development and tests): start makes a fresh cluster tuned for speed (fsync off),
#       stop deletes it.
#   persistent (POSTGRES_DATA_DIR set; an operator's): the cluster lives in that folder, durable (fsync on);
#       the first start creates it, later starts reuse it on the same port, stop keeps it.
#
#   deploy/postgres/postgres.sh start    install the server from Debian's packages if absent, initdb a cluster
#                                        (persistent mode: only if the folder has none), start it, wait until it
#                                        accepts connections; prints the DATABASE_URL on stdout
#   deploy/postgres/postgres.sh stop     pg_ctl stop -m fast; removes the cluster (persistent mode: keeps it)
#   deploy/postgres/postgres.sh status   prints the DATABASE_URL and exits 0 when running, else exits 1
#   deploy/postgres/postgres.sh stop-all stops the default instance and every one a test session left in deploy/.cache/sessions
#
# Environment:
#   POSTGRES_LISTEN_PORT  port to listen on (default: a free port)
#   POSTGRES_RUN_DIR      this instance's data, log and state files (default: deploy/.cache/postgres);
#                         give each concurrent instance its own
#   POSTGRES_DATA_DIR     persistent mode: the folder the cluster, its port and its log are kept in (it takes the
#                         place of POSTGRES_RUN_DIR); the port of the first start (POSTGRES_LISTEN_PORT or a free
#                         one) is kept for every later start
#   POSTGRES_BINDIR       folder with initdb/pg_ctl/pg_isready (default: the newest /usr/lib/postgresql/*/bin)
#
# As root the server runs as the unprivileged `postgres` user (the Debian package creates it).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
service=postgres.sh
run_dir_var=POSTGRES_RUN_DIR
# shellcheck source=../lib.sh
source "$here/../lib.sh"
persistent="${POSTGRES_DATA_DIR:-}"
run="${persistent:-${POSTGRES_RUN_DIR:-$root/deploy/.cache/postgres}}"
data="$run/data"
logfile="$run/postgres.log"
urlfile="$run/database_url"
portfile="$run/port"
address_file="$urlfile"
python=python3

find_bindir() {
    if [[ -n "${POSTGRES_BINDIR:-}" ]]; then
        [[ -x "$POSTGRES_BINDIR/initdb" ]] || die "POSTGRES_BINDIR=$POSTGRES_BINDIR has no initdb"
        echo "$POSTGRES_BINDIR"
        return 0
    fi
    local dir
    dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [[ -n "$dir" && -x "$dir/initdb" ]]; then
        echo "$dir"
        return 0
    fi
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return 0
    fi
    return 1
}

install_server() {
    [[ "$(id -u)" == 0 ]] || die "no PostgreSQL server found; install it (Debian: sudo apt-get install -y postgresql)"
    command -v apt-get >/dev/null 2>&1 || die "no PostgreSQL server found and no apt-get; install the PostgreSQL 13+ server"
    # One install at a time on this machine (two test sessions, or pytest-xdist workers, may start a cluster at
    # once): the second waits for the first and finds the server installed.
    exec 8>/tmp/pokeraudit-apt-postgresql.lock
    flock 8
    if find_bindir >/dev/null; then
        exec 8>&-
        return 0
    fi
    say "installing PostgreSQL from Debian's packages (apt-get install -y postgresql)"
    # Keep the package from starting its own cluster on 5432: we only want the binaries.
    local policy=/usr/sbin/policy-rc.d made_policy=0
    if [[ ! -e "$policy" ]]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy"
        chmod +x "$policy"
        made_policy=1
    fi
    local rc=0
    { DEBIAN_FRONTEND=noninteractive apt-get update -q && \
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql; } >"/tmp/pokeraudit-apt.log" 2>&1 || rc=$?
    [[ "$made_policy" == 1 ]] && rm -f "$policy"
    exec 8>&-
    if [[ "$rc" != 0 ]]; then
        tail -n 20 /tmp/pokeraudit-apt.log >&2
        die "apt-get install postgresql failed (see /tmp/pokeraudit-apt.log)"
    fi
}

# Run a server binary as the unprivileged owner of the cluster.
as_owner() {
    if [[ "$(id -u)" == 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

is_running() {
    [[ -f "$data/postmaster.pid" ]] || return 1
    local bindir
    bindir="$(find_bindir)" || return 1
    as_owner "$bindir/pg_ctl" status -D "$data" >/dev/null 2>&1
}

running() { is_running && echo running; }

start_new() {
    command -v python3 >/dev/null 2>&1 || die "python3 not found; install Python 3.11"
    local bindir
    if ! bindir="$(find_bindir)"; then
        install_server
        bindir="$(find_bindir)" || die "PostgreSQL was installed but no initdb was found under /usr/lib/postgresql"
    fi
    if [[ "$(id -u)" == 0 ]]; then
        id postgres >/dev/null 2>&1 \
            || die "running as root needs the 'postgres' system user (Debian: apt-get install -y postgresql)"
    fi
    if [[ -n "$persistent" && -f "$data/PG_VERSION" && -f "$run/kept_port" ]]; then
        restart_kept "$bindir"
        return
    fi
    check_fixed_port POSTGRES_LISTEN_PORT

    rm -rf "$data" "$urlfile" "$portfile" "$logfile"
    mkdir -p "$data"
    chmod 700 "$data"
    [[ "$(id -u)" == 0 ]] && chown -R postgres: "$run"

    if ! as_owner "$bindir/initdb" -D "$data" -U postgres --auth-local=trust --auth-host=trust \
        -E UTF8 --locale=C.UTF-8 -N >"$run/initdb.log" 2>&1; then
        cat "$run/initdb.log" >&2
        die "initdb failed (see $run/initdb.log)"
    fi
    cat >>"$data/postgresql.conf" <<EOF

# deploy/postgres/postgres.sh
listen_addresses = '127.0.0.1'
# TCP only: a socket path under a deep checkout can exceed the 107-byte limit of a Unix socket address.
unix_socket_directories = ''
max_connections = 200
EOF
    if [[ -z "$persistent" ]]; then
        # A throw-away cluster: durability is not wanted, speed is.
        printf 'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n' >>"$data/postgresql.conf"
    fi

    # A free port can be taken by someone else between choosing it and the server binding it (parallel test
    # sessions do exactly that); then choose again.
    local port attempt started=0
    for attempt in 1 2 3; do
        port="${POSTGRES_LISTEN_PORT:-$(free_port)}"
        rm -f "$logfile"
        if as_owner "$bindir/pg_ctl" start -D "$data" -l "$logfile" -o "-p $port" -w -t 60 >/dev/null 2>&1; then
            started=1
            break
        fi
        grep -qs "could not bind\|Address already in use" "$logfile" && [[ -z "${POSTGRES_LISTEN_PORT:-}" ]] || break
        say "port $port was taken meanwhile; retrying with another ($attempt/3)"
    done
    if [[ "$started" != 1 ]]; then
        tail -n 20 "$logfile" >&2 2>/dev/null || true
        if grep -qs "could not bind\|Address already in use" "$logfile"; then
            die "port $port on 127.0.0.1 is in use; free it or unset POSTGRES_LISTEN_PORT"
        fi
        die "the server did not start (see $logfile)"
    fi
    wait_until 100 "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres \
        || { stop >/dev/null 2>&1 || true; die "the server does not accept connections on 127.0.0.1:$port (see $logfile)"; }

    announce "$port"
}

announce() {
    local port="$1" url="postgresql://postgres@127.0.0.1:$1/postgres"
    echo "$port" >"$portfile"
    echo "$url" >"$urlfile"
    [[ -z "$persistent" ]] || echo "$port" >"$run/kept_port"
    say "running at 127.0.0.1:$port${persistent:+ (persistent: $run)}"
    echo "$url"
}

# Persistent mode: start the cluster the folder keeps, on the port it was first given.
restart_kept() {
    local bindir="$1" port
    port="$(cat "$run/kept_port")"
    port_is_free "$port" || die "port $port on 127.0.0.1 (kept in $run/kept_port) is in use; free it"
    as_owner "$bindir/pg_ctl" start -D "$data" -l "$logfile" -o "-p $port" -w -t 120 >/dev/null 2>&1 \
        || { tail -n 20 "$logfile" >&2 2>/dev/null || true; die "the kept cluster in $data did not start (see $logfile)"; }
    wait_until 100 "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres \
        || die "the server does not accept connections on 127.0.0.1:$port (see $logfile)"
    announce "$port"
}

# Throw-away mode: the cluster goes; persistent mode: it stays for the next start.
forget() {
    rm -f "$urlfile" "$portfile"
    [[ -n "$persistent" ]] || rm -rf "$data"
}

stop() {
    if ! is_running; then
        forget
        say "not running"
        return 0
    fi
    local bindir
    bindir="$(find_bindir)"
    as_owner "$bindir/pg_ctl" stop -D "$data" -m fast -w -t 60 >/dev/null \
        || die "pg_ctl stop failed; the postmaster pid is in $data/postmaster.pid"
    forget
    say "stopped${persistent:+ (the cluster is kept in $data)}"
}

dispatch "$@"
