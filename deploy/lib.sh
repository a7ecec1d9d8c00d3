# What deploy/kafka/kafka.sh and deploy/postgres/postgres.sh share: each runs one throw-away service on
# 127.0.0.1, as many instances as there are run folders, behind the same four commands. Sourced, not run.
#
# The sourcing script sets, before calling anything here:
#   service       its file name: every message starts with it, and stop-all runs it again
#   here          its folder, which is also the folder a test session gives the service (sessions/*/<folder>)
#   run_dir_var   the environment variable that names an instance's run folder
#   address_file  the file in the run folder that holds the address start printed
#   python        the interpreter the port helpers run
# and defines:
#   running       prints the instance's state ("running (pid 123)") and succeeds when it is up, else fails
#   start_new     starts an instance where none runs and prints its address on stdout
#   stop          stops it (or says it is not running) and removes its data
# `dispatch "$@"` then runs the command given.

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

die() { echo "$service: error: $*" >&2; exit 1; }
say() { echo "$service: $*" >&2; }

free_port() {
    "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

port_is_free() {
    "$python" - "$1" <<'PY'
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
PY
}

# check_fixed_port VAR: a port the operator fixed in $VAR must be a number and free now, so that start fails
# naming the variable rather than after a server's own bind error; an unset VAR means a free port is chosen.
check_fixed_port() {
    local var="$1" port="${!1:-}"
    [[ -n "$port" ]] || return 0
    [[ "$port" =~ ^[0-9]+$ ]] || die "$var=$port is not a port number"
    port_is_free "$port" || die "port $port on 127.0.0.1 is in use; free it or unset $var"
}

# wait_until TENTHS COMMAND...: runs COMMAND every tenth of a second until it succeeds, at most TENTHS times;
# fails if it never did.
wait_until() {
    local tries="$1" i
    shift
    for ((i = 0; i < tries; i++)); do
        "$@" && return 0
        sleep 0.1
    done
    return 1
}

start() {
    local state
    if state="$(running)"; then
        say "already $state"
        cat "$address_file"
        return 0
    fi
    start_new
}

status() {
    local state
    if state="$(running)"; then
        say "$state"
        cat "$address_file" 2>/dev/null || true
        return 0
    fi
    say "not running"
    return 1
}

# Every instance in this tree: the default one and those the test sessions started (tests/conftest.py).
stop_all() {
    local rc=0 dir
    bash "$here/$service" stop || rc=1
    for dir in "$root"/deploy/.cache/sessions/*/"$(basename "$here")"; do
        [[ -d "$dir" ]] || continue
        env "$run_dir_var=$dir" bash "$here/$service" stop || rc=1
    done
    return "$rc"
}

dispatch() {
    case "${1:-}" in
        start) start ;;
        stop) stop ;;
        status) status ;;
        stop-all) stop_all ;;
        help | -h | --help) sed -n '2,/^set -euo pipefail/{/^set -euo/d;s/^# \{0,1\}//;p}' "$here/$service" ;;
        *) echo "usage: $0 start|stop|stop-all|status|help (help: the two modes, throw-away and persistent)" >&2; exit 2 ;;
    esac
}
