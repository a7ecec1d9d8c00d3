#!/usr/bin/env bash
# One Apache Kafka broker (KRaft, combined broker+controller) on 127.0.0.1, in one of two modes:
#
#   throw-away (default; development and tests): start formats fresh storage, stop deletes it.
#   persistent (KAFKA_DATA_DIR set; an operator's): the broker's storage, config and ports live in that folder;
#       the first start formats it, later starts reuse it (same cluster, same ports), stop keeps it.
#
#   deploy/kafka/kafka.sh start    fetch the jars (once), format storage (persistent mode: only the first time),
#                                  start, wait for metadata; prints the bootstrap address on stdout
#   deploy/kafka/kafka.sh stop     SIGTERM, wait, SIGKILL if it will not go; removes the data (persistent mode:
#                                  keeps it)
#   deploy/kafka/kafka.sh status   prints the bootstrap address and exits 0 when running, else exits 1
#   deploy/kafka/kafka.sh stop-all stops the default instance and every one a test session left in deploy/.cache/sessions
#
# Environment:
#   KAFKA_PORT         broker port (default: a free port); the controller port is always picked free
#   KAFKA_CACHE_DIR    jar cache and default run folder (default: deploy/.cache/kafka)
#   KAFKA_RUN_DIR      this instance's config, data, logs, pid and bootstrap files (default: $KAFKA_CACHE_DIR/run);
#                      give each concurrent instance its own
#   KAFKA_DATA_DIR     persistent mode: the folder the broker's storage, config, logs and ports are kept in (it
#                      takes the place of KAFKA_RUN_DIR); KAFKA_PORT or a free port is chosen at the first start
#                      and kept
#   KAFKA_START_TIMEOUT  seconds to wait for metadata (default 90)
#   KAFKA_JAVA_OPTS    extra JVM options for the broker (e.g. -XX:TieredStopAtLevel=1: faster start, slower peak)
#   POKERAUDIT_PYTHON  interpreter with kafka-python (default: .venv/bin/python)
#   JAVA_HOME          the Java 17+ runtime to use (default: java on PATH)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
service=kafka.sh
run_dir_var=KAFKA_RUN_DIR
# shellcheck source=../lib.sh
source "$here/../lib.sh"
cache="${KAFKA_CACHE_DIR:-$root/deploy/.cache/kafka}"
lib="$cache/lib"
persistent="${KAFKA_DATA_DIR:-}"
run="${persistent:-${KAFKA_RUN_DIR:-$cache/run}}"
pidfile="$run/kafka.pid"
bootfile="$run/bootstrap"
address_file="$bootfile"
python="${POKERAUDIT_PYTHON:-$root/.venv/bin/python}"
timeout="${KAFKA_START_TIMEOUT:-90}"

# The pid of our broker, if it is alive (not a zombie, and really kafka.Kafka with our config).
running_pid() {
    [[ -f "$pidfile" ]] || return 1
    local pid state
    pid="$(cat "$pidfile")"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    [[ -r "/proc/$pid/stat" ]] || return 1
    state="$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$pid/stat" 2>/dev/null || echo X)"
    [[ "$state" != Z && "$state" != X ]] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "kafka.Kafka $run/server.properties" || return 1
    echo "$pid"
}

running() {
    local pid
    pid="$(running_pid)" || return 1
    echo "running (pid $pid)"
}

not_running() { ! running_pid >/dev/null; }

require_java() {
    if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
        java="$JAVA_HOME/bin/java"
    else
        java="$(command -v java)" \
            || die "java not found; install a Java 17+ runtime (Debian: apt-get install -y openjdk-17-jre-headless)"
    fi
    local props major
    props="$("$java" -XshowSettings:properties -version 2>&1)"
    major="$(sed -n 's/^ *java.specification.version = //p' <<<"$props" | cut -d. -f1)"
    [[ "$major" =~ ^[0-9]+$ && "$major" -ge 17 ]] \
        || die "java ${major:-?} is too old for Kafka 4; install Java 17+ (Debian: apt-get install -y openjdk-17-jre-headless)"
    # A class-data archive only fits the exact JVM that wrote it.
    java_id="$(grep -E '^ *(java\.home|java\.vm\.version) = ' <<<"$props" | sha256sum | cut -c1-12)"
}

require_python() {
    [[ -x "$python" ]] || die "no Python at $python; create the virtualenv first (make install) or set POKERAUDIT_PYTHON"
}

# Copy the runtime classpath once; a stamp of the pom's checksum marks the cache complete.
fetch_jars() {
    local want
    want="$(sha256sum "$here/pom.xml" | cut -d' ' -f1)"
    pom_id="${want:0:12}"
    if [[ -f "$lib/.complete" && "$(cat "$lib/.complete")" == "$want" ]]; then
        return 0
    fi
    mkdir -p "$cache"
    exec 9>"$cache/lib.lock"
    flock 9
    if [[ -f "$lib/.complete" && "$(cat "$lib/.complete")" == "$want" ]]; then
        exec 9>&-
        return 0
    fi
    command -v mvn >/dev/null 2>&1 || die "mvn not found; install Apache Maven 3.6+ (Debian: apt-get install -y maven)"
    say "fetching the Kafka jars into $lib (once)"
    local tmp="$cache/lib.tmp.$$"
    rm -rf "$tmp"
    if ! mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$tmp" >"$cache/mvn.log" 2>&1; then
        tail -n 20 "$cache/mvn.log" >&2
        rm -rf "$tmp"
        die "mvn could not fetch the Kafka jars (see $cache/mvn.log); check network access to Maven Central"
    fi
    echo "$want" >"$tmp/.complete"
    rm -rf "$lib"
    mv "$tmp" "$lib"
    exec 9>&-
}

# Kafka's Uuid text form: 16 random bytes, URL-safe base64 without padding, never starting with "-".
cluster_id() {
    "$python" -c '
import base64, uuid
while True:
    s = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
    if not s.startswith("-"):
        print(s)
        break'
}

write_config() {
    local port="$1" cport="$2"
    cat >"$run/server.properties" <<EOF
# Written by deploy/kafka/kafka.sh: a throw-away single-node cluster for development and tests.
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$run/data
# The project creates its topics itself, with the admin client.
auto.create.topics.enable=false
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
# 128 MiB by default; a test broker needs far less heap for compaction.
log.cleaner.dedupe.buffer.size=8388608
group.initial.rebalance.delay.ms=0
EOF
    cat >"$run/log4j2.properties" <<EOF
status = warn
appender.file.type = File
appender.file.name = file
appender.file.fileName = $run/logs/server.log
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = info
rootLogger.appenderRef.file.ref = file
logger.kafka.name = kafka
logger.kafka.level = info
logger.apache.name = org.apache.kafka
logger.apache.level = info
EOF
}

wait_for_metadata() {
    local pid="$1" bootstrap="$2"
    "$python" - "$bootstrap" "$pid" "$timeout" <<'PY'
import os, socket, sys, time

bootstrap, pid, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
host, port = bootstrap.rsplit(":", 1)
deadline = time.monotonic() + timeout
last = None


def alive() -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# A plain TCP probe first: the client's reconnect back-off would add up to a second of latency.
while time.monotonic() < deadline:
    if not alive():
        sys.exit("the broker exited during start-up")
    try:
        socket.create_connection((host, int(port)), timeout=1).close()
        break
    except OSError as exc:
        last = exc
        time.sleep(0.05)

from kafka import KafkaAdminClient  # noqa: E402  (imported while the JVM starts would compete for CPU)
from kafka.errors import KafkaError  # noqa: E402

while time.monotonic() < deadline:
    if not alive():
        sys.exit("the broker exited during start-up")
    try:
        admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=3000,
                                 bootstrap_timeout_ms=3000, client_id="pokeraudit-deploy")
        try:
            if admin.describe_cluster().get("brokers"):
                sys.exit(0)
        finally:
            admin.close()
    except (KafkaError, OSError) as exc:  # listening, but not serving metadata yet
        last = exc
    time.sleep(0.1)
sys.exit(f"no metadata from {bootstrap} within {timeout:.0f}s (last error: {last!r})")
PY
}

start_new() {
    require_java
    require_python
    check_fixed_port KAFKA_PORT
    fetch_jars
    # A free port can be taken by someone else between choosing it and the broker binding it (parallel test
    # sessions do exactly that); then choose again.
    local attempt rc
    for attempt in 1 2 3; do
        rc=0
        launch || rc=$?
        [[ "$rc" == 0 ]] && return 0
        [[ "$rc" == 2 && -z "${KAFKA_PORT:-}" ]] || break
        say "a chosen port was taken meanwhile; retrying with new ports ($attempt/3)"
    done
    tail -n 30 "$run/logs/server.log" "$run/logs/stdout.log" >&2 2>/dev/null || true
    if [[ "$rc" == 2 ]]; then
        die "a port of the broker is in use (see $run/logs); free it or unset KAFKA_PORT"
    fi
    die "the broker did not come up (logs in $run/logs)"
}

# One attempt: 0 = running, 2 = a port was in use, 1 = any other failure (broker stopped again).
launch() {
    local port cport pid kept=0
    if [[ -n "$persistent" && -f "$run/kept_ports" && -f "$run/data/meta.properties" ]]; then
        # persistent mode, after the first start: the same cluster on the same ports
        read -r port cport <"$run/kept_ports"
        port_is_free "$port" && port_is_free "$cport" \
            || die "a port kept in $run/kept_ports ($port, $cport) is in use; free it"
        kept=1
    else
        port="${KAFKA_PORT:-$(free_port)}"
        cport="$(free_port)"
        while [[ "$cport" == "$port" ]]; do cport="$(free_port)"; done
    fi

    mkdir -p "$run"
    rm -f "$pidfile" "$bootfile"
    if [[ "$kept" == 0 ]]; then
        rm -rf "$run/data" "$run/logs"
    fi
    mkdir -p "$run/data" "$run/logs"
    write_config "$port" "$cport"
    if [[ "$kept" == 1 ]]; then
        start_broker "$port"
        return
    fi

    local cid
    cid="$(cluster_id)"
    # C1 only: the formatter runs for a second, so full JIT compilation would only cost time.
    if ! "$java" -Xmx256m -XX:TieredStopAtLevel=1 -cp "$lib/*" -Dlog4j2.configurationFile="$run/log4j2.properties" \
        kafka.tools.StorageTool format --standalone -t "$cid" -c "$run/server.properties" \
        >"$run/logs/format.log" 2>&1; then
        cat "$run/logs/format.log" >&2
        die "formatting the KRaft storage failed (see $run/logs/format.log)"
    fi
    [[ -z "$persistent" ]] || echo "$port $cport" >"$run/kept_ports"
    start_broker "$port"
}

# Start the broker on storage already formatted; 0 = running, 2 = a port was in use, 1 = any other failure.
start_broker() {
    local port="$1" pid

    # Class-data sharing: the first broker records the classes it loaded (written when it stops cleanly,
    # see stop), later ones map them instead of parsing some 7,000 classes again; start-up is ~2 s shorter.
    local archive="$cache/cds/kafka-$pom_id-$java_id.jsa" cds
    rm -f "$run/kafka.jsa" "$run/cds-target"
    if [[ -s "$archive" ]]; then
        cds="-XX:SharedArchiveFile=$archive"
    else
        cds="-XX:ArchiveClassesAtExit=$run/kafka.jsa"
        echo "$archive" >"$run/cds-target"
    fi

    # setsid: the broker must not share the caller's process group (a Ctrl-C there would bypass `stop`).
    # shellcheck disable=SC2086
    setsid "$java" -Xmx512m -Xms512m -Djava.awt.headless=true -Xshare:auto "$cds" ${KAFKA_JAVA_OPTS:-} \
        -Dlog4j2.configurationFile="$run/log4j2.properties" \
        -cp "$lib/*" kafka.Kafka "$run/server.properties" \
        </dev/null >"$run/logs/stdout.log" 2>&1 &
    pid=$!
    echo "$pid" >"$pidfile"

    if ! wait_for_metadata "$pid" "127.0.0.1:$port"; then
        stop >/dev/null 2>&1 || true
        if grep -qs "Address already in use" "$run/logs/server.log" "$run/logs/stdout.log"; then
            return 2
        fi
        return 1
    fi
    echo "127.0.0.1:$port" >"$bootfile"
    say "running (pid $pid) at 127.0.0.1:$port"
    echo "127.0.0.1:$port"
}

# Promote the class-data archive a cleanly stopped first broker wrote (a killed one may have left half a file).
keep_class_archive() {
    local clean="$1" target
    if [[ "$clean" == 1 && -s "$run/kafka.jsa" && -f "$run/cds-target" ]]; then
        target="$(cat "$run/cds-target")"
        mkdir -p "$(dirname "$target")"
        cp "$run/kafka.jsa" "$target.tmp.$$" && mv -f "$target.tmp.$$" "$target"
    fi
    rm -f "$run/kafka.jsa" "$run/cds-target"
}

stop() {
    local pid
    if ! pid="$(running_pid)"; then
        rm -f "$pidfile" "$bootfile"
        forget_data
        say "not running"
        return 0
    fi
    kill -TERM "$pid" 2>/dev/null || true
    local clean=1
    if ! wait_until 300 not_running; then
        clean=0
        say "pid $pid ignored SIGTERM for 30s; sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null || true
        wait_until 50 not_running || true
    fi
    running_pid >/dev/null && die "could not stop pid $pid"
    keep_class_archive "$clean"
    rm -f "$pidfile" "$bootfile"
    forget_data
    say "stopped (pid $pid)${persistent:+; the data is kept in $run}"
}

# Throw-away mode: the storage goes; persistent mode: it stays for the next start.
forget_data() {
    [[ -n "$persistent" ]] || rm -rf "$run/data"
}

dispatch "$@"
