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
# Cluster mode (KAFKA_NODES=N, N from 2 to 9): N KRaft nodes on 127.0.0.1, each a broker and a voter of the
#   controller quorum, on free ports, in $run/node-1 … node-N; topics made without a replication factor get
#   min(N, 3) replicas and `min.insync.replicas` one fewer (3 nodes: 3 and 2), the internal topics likewise.
#   `start` prints the bootstrap list (host:port,host:port,…); run while some nodes are up (one was killed or
#   stopped), it starts only the missing ones on their storage and ports, and they rejoin the cluster. `stop`
#   stops every node. The run folder remembers its mode: later commands need not set KAFKA_NODES again.
#   Either mode above applies (KAFKA_DATA_DIR: persistent).
#
# Environment:
#   KAFKA_PORT         broker port (default: a free port); the controller port is always picked free
#   KAFKA_CACHE_DIR    jar cache and default run folder (default: deploy/.cache/kafka)
#   KAFKA_RUN_DIR      this instance's config, data, logs, pid and bootstrap files (default: $KAFKA_CACHE_DIR/run);
#                      give each concurrent instance its own
#   KAFKA_DATA_DIR     persistent mode: the folder the broker's storage, config, logs and ports are kept in (it
#                      takes the place of KAFKA_RUN_DIR); KAFKA_PORT or a free port is chosen at the first start
#                      and kept
#   KAFKA_NODES        cluster mode: how many nodes (default 1: one broker, as above)
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
# absolute (symbolic links kept): a broker is recognised by the config path on its command line (running_pid)
run="$(realpath -m -s -- "$run")"
pidfile="$run/kafka.pid"
bootfile="$run/bootstrap"
address_file="$bootfile"
python="${POKERAUDIT_PYTHON:-$root/.venv/bin/python}"
timeout="${KAFKA_START_TIMEOUT:-90}"

# The pid of our broker (cluster mode: of the node whose folder is given), if it is alive (not a zombie, and
# really kafka.Kafka with our config).
running_pid() {
    local dir="${1:-$run}" pid state
    [[ -f "$dir/kafka.pid" ]] || return 1
    pid="$(cat "$dir/kafka.pid")"
    [[ "$pid" =~ ^[0-9]+$ ]] || return 1
    [[ -r "/proc/$pid/stat" ]] || return 1
    state="$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$pid/stat" 2>/dev/null || echo X)"
    [[ "$state" != Z && "$state" != X ]] || return 1
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "kafka.Kafka $dir/server.properties" || return 1
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
    write_log4j "$run"
}

write_log4j() {
    local dir="$1"
    cat >"$dir/log4j2.properties" <<EOF
status = warn
appender.file.type = File
appender.file.name = file
appender.file.fileName = $dir/logs/server.log
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

# wait_for_metadata PIDS BOOTSTRAP [BROKERS]: PIDS comma-separated (the brokers just started), BOOTSTRAP a
# host:port list; waits until the cluster's metadata names BROKERS brokers (default 1).
wait_for_metadata() {
    local pids="$1" bootstrap="$2" brokers="${3:-1}"
    "$python" - "$bootstrap" "$pids" "$timeout" "$brokers" <<'PY'
import os, socket, sys, time

bootstrap, timeout, brokers = sys.argv[1], float(sys.argv[3]), int(sys.argv[4])
pids = [int(p) for p in sys.argv[2].split(",")]
deadline = time.monotonic() + timeout
last = None


def alive() -> bool:
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
    return True


# A plain TCP probe of each first: the client's reconnect back-off would add up to a second of latency.
for address in bootstrap.split(","):
    host, port = address.rsplit(":", 1)
    while time.monotonic() < deadline:
        if not alive():
            sys.exit("a broker exited during start-up")
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
        sys.exit("a broker exited during start-up")
    try:
        admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=3000,
                                 bootstrap_timeout_ms=3000, client_id="pokeraudit-deploy")
        try:
            found = admin.describe_cluster().get("brokers") or []
            if len(found) >= brokers:
                sys.exit(0)
            last = f"{len(found)} of {brokers} brokers registered"
        finally:
            admin.close()
    except (KafkaError, OSError) as exc:  # listening, but not serving metadata yet
        last = exc
    time.sleep(0.1)
sys.exit(f"no metadata from {bootstrap} within {timeout:.0f}s (last: {last!r})")
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

# ------------------------------------------------------------------------------------------- cluster mode
# N nodes, each a broker and a controller-quorum voter (static voters: every node knows the others' controller
# ports from its config), formatted with one cluster id. The run folder keeps `nodes` (N), `ports` (a line per
# node: id port controller-port) and `bootstrap`; node i lives in node-i/ like a single broker in its run folder.

nodes_of_run() {
    if [[ -n "${KAFKA_NODES:-}" ]]; then
        [[ "$KAFKA_NODES" =~ ^[1-9]$ ]] || die "KAFKA_NODES=$KAFKA_NODES: give a number of nodes from 1 to 9"
        if [[ -f "$run/nodes" && "$(cat "$run/nodes")" != "$KAFKA_NODES" ]] && any_node_running; then
            die "KAFKA_NODES=$KAFKA_NODES but the cluster in $run runs $(cat "$run/nodes") nodes; stop it first"
        fi
        echo "$KAFKA_NODES"
    elif [[ -f "$run/nodes" ]]; then
        cat "$run/nodes"
    else
        echo 1
    fi
}

node_dirs() {
    local i
    for ((i = 1; i <= nodes; i++)); do echo "$run/node-$i"; done
}

any_node_running() {
    local dir
    for dir in "$run"/node-*; do
        [[ -d "$dir" ]] && running_pid "$dir" >/dev/null && return 0
    done
    return 1
}

no_node_running() { ! any_node_running; }

cluster_running() {
    local dir pid pids=()
    [[ -f "$run/bootstrap" ]] || return 1
    while read -r dir; do
        pid="$(running_pid "$dir")" || return 1
        pids+=("$pid")
    done < <(node_dirs)
    echo "running ($nodes nodes, pids ${pids[*]})"
}

write_node_config() {
    local dir="$1" id="$2" port="$3" cport="$4" voters="$5" replicas min_isr
    replicas=$((nodes < 3 ? nodes : 3))
    min_isr=$((replicas > 1 ? replicas - 1 : 1))
    cat >"$dir/server.properties" <<CONFIG
# Written by deploy/kafka/kafka.sh: node $id of a $nodes-node KRaft cluster on 127.0.0.1.
process.roles=broker,controller
node.id=$id
controller.quorum.voters=$voters
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
# The project creates its topics itself, with the admin client; a topic made without a replication factor of
# its own gets the default below, and an append with acks=all needs min.insync.replicas copies: one node may
# be lost without refusing or losing a record.
auto.create.topics.enable=false
num.partitions=1
default.replication.factor=$replicas
min.insync.replicas=$min_isr
unclean.leader.election.enable=false
offsets.topic.replication.factor=$replicas
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=$replicas
transaction.state.log.min.isr=$min_isr
transaction.state.log.num.partitions=3
share.coordinator.state.topic.replication.factor=$replicas
share.coordinator.state.topic.min.isr=$min_isr
log.cleaner.dedupe.buffer.size=8388608
group.initial.rebalance.delay.ms=0
CONFIG
    write_log4j "$dir"
}

# spawn_node DIR: start the JVM of the node in DIR (configured and formatted); prints its pid.
spawn_node() {
    local dir="$1" pid cds=""
    # the single broker's class-data archive, if one was written; a cluster never writes it (its JVMs would race)
    local archive="$cache/cds/kafka-$pom_id-$java_id.jsa"
    [[ -s "$archive" ]] && cds="-XX:SharedArchiveFile=$archive"
    mkdir -p "$dir/logs"
    # setsid: as for the single broker, a Ctrl-C in the caller's group must not bypass `stop`.
    # shellcheck disable=SC2086
    setsid "$java" -Xmx512m -Xms512m -Djava.awt.headless=true -Xshare:auto $cds ${KAFKA_JAVA_OPTS:-} \
        -Dlog4j2.configurationFile="$dir/log4j2.properties" \
        -cp "$lib/*" kafka.Kafka "$dir/server.properties" \
        </dev/null >>"$dir/logs/stdout.log" 2>&1 &
    pid=$!
    echo "$pid" >"$dir/kafka.pid"
    echo "$pid"
}

cluster_bootstrap() {
    local id port cport list=""
    while read -r id port cport; do
        list="${list:+$list,}127.0.0.1:$port"
    done <"$run/ports"
    echo "$list"
}

cluster_start() {
    require_java
    require_python
    [[ -z "${KAFKA_PORT:-}" ]] \
        || die "KAFKA_PORT fixes one broker's port; in cluster mode (KAFKA_NODES) every port is chosen free"
    fetch_jars
    local formatted=1 dir
    while read -r dir; do
        [[ -f "$dir/data/meta.properties" ]] || formatted=0
    done < <(node_dirs)
    if [[ "$formatted" == 1 && -f "$run/ports" && -f "$run/nodes" ]] && { [[ -n "$persistent" ]] || any_node_running; }; then
        cluster_rejoin
        return
    fi
    local attempt rc
    for attempt in 1 2 3; do
        rc=0
        cluster_new || rc=$?
        [[ "$rc" == 0 ]] && return 0
        [[ "$rc" == 2 ]] || break
        say "a chosen port was taken meanwhile; retrying with new ports ($attempt/3)"
    done
    for dir in "$run"/node-*; do
        tail -n 20 "$dir/logs/server.log" "$dir/logs/stdout.log" >&2 2>/dev/null || true
    done
    [[ "$rc" == 2 ]] && die "a port of the cluster is in use (see $run/node-*/logs)"
    die "the cluster did not come up (logs in $run/node-*/logs)"
}

# A fresh cluster: free ports, every node configured and formatted with one cluster id, all started together
# (no node serves metadata before a majority of the voters is up). 0 = running, 2 = a port was in use.
cluster_new() {
    local i port cport used=" " voters="" cid dir pids=""
    cluster_stop_nodes >/dev/null 2>&1 || true
    rm -rf "$run"/node-* "$run/ports" "$run/bootstrap"
    mkdir -p "$run"
    echo "$nodes" >"$run/nodes"
    : >"$run/ports"
    for ((i = 1; i <= nodes; i++)); do
        port="$(free_port)"
        while [[ "$used" == *" $port "* ]]; do port="$(free_port)"; done
        used+="$port "
        cport="$(free_port)"
        while [[ "$used" == *" $cport "* ]]; do cport="$(free_port)"; done
        used+="$cport "
        echo "$i $port $cport" >>"$run/ports"
        voters="${voters:+$voters,}$i@127.0.0.1:$cport"
    done
    cid="$(cluster_id)"
    local formatters=()
    while read -r i port cport; do
        dir="$run/node-$i"
        mkdir -p "$dir/data" "$dir/logs"
        write_node_config "$dir" "$i" "$port" "$cport" "$voters"
        # C1 only: the formatter runs for a second, so full JIT compilation would only cost time.
        "$java" -Xmx256m -XX:TieredStopAtLevel=1 -cp "$lib/*" -Dlog4j2.configurationFile="$dir/log4j2.properties" \
            kafka.tools.StorageTool format -t "$cid" -c "$dir/server.properties" >"$dir/logs/format.log" 2>&1 &
        formatters+=("$!")
    done <"$run/ports"
    local failed=0 job
    for job in "${formatters[@]}"; do wait "$job" || failed=1; done
    if [[ "$failed" == 1 ]]; then
        cat "$run"/node-*/logs/format.log >&2
        die "formatting the KRaft storage failed (see $run/node-*/logs/format.log)"
    fi
    while read -r dir; do
        pids="${pids:+$pids,}$(spawn_node "$dir")"
    done < <(node_dirs)
    cluster_wait "$pids"
}

# After a node was killed or stopped: start the nodes that are not running, on their storage and ports.
cluster_rejoin() {
    local dir pids="" id port cport
    while read -r id port cport; do
        dir="$run/node-$id"
        running_pid "$dir" >/dev/null && continue
        port_is_free "$port" && port_is_free "$cport" \
            || die "node $id's ports ($port, $cport, kept in $run/ports) are in use; free them"
        say "starting node $id on its storage (127.0.0.1:$port)"
        pids="${pids:+$pids,}$(spawn_node "$dir")"
    done <"$run/ports"
    if [[ -z "$pids" ]]; then
        cluster_bootstrap
        return 0
    fi
    cluster_wait "$pids" || die "a node did not rejoin (logs in $run/node-*/logs)"
}

# cluster_wait PIDS: until every node is registered; 0 = running, 2 = a port was in use, 1 = another failure.
cluster_wait() {
    local pids="$1" bootstrap
    bootstrap="$(cluster_bootstrap)"
    if ! wait_for_metadata "$pids" "$bootstrap" "$nodes"; then
        cluster_stop_nodes >/dev/null 2>&1 || true
        grep -qs "Address already in use" "$run"/node-*/logs/server.log "$run"/node-*/logs/stdout.log && return 2
        return 1
    fi
    echo "$bootstrap" >"$run/bootstrap"
    say "running: $nodes nodes at $bootstrap"
    echo "$bootstrap"
}

# SIGTERM to every node at once (one after another, each would wait to hand its partitions to the others),
# SIGKILL to any still there after 30 s; in the throw-away mode SIGKILL at once (the storage goes anyway, and
# brokers stopping together wait for a controller quorum that is stopping too). Prints the pids stopped; fails
# when none was running.
cluster_stop_nodes() {
    local dir pid pids=() signal=TERM
    [[ -n "$persistent" ]] || signal=KILL
    for dir in "$run"/node-*; do
        [[ -d "$dir" ]] || continue
        if pid="$(running_pid "$dir")"; then
            pids+=("$pid")
            kill "-$signal" "$pid" 2>/dev/null || true
        fi
    done
    [[ ${#pids[@]} -gt 0 ]] || return 1
    if ! wait_until 300 no_node_running; then
        say "nodes ignored SIGTERM for 30s; sending SIGKILL"
        for dir in "$run"/node-*; do
            if pid="$(running_pid "$dir")"; then kill -KILL "$pid" 2>/dev/null || true; fi
        done
        wait_until 50 no_node_running || true
    fi
    any_node_running && die "could not stop every node (pids ${pids[*]})"
    echo "${pids[*]}"
}

cluster_stop() {
    local stopped dir
    if stopped="$(cluster_stop_nodes)"; then
        say "stopped ($nodes nodes, pids $stopped)${persistent:+; the data is kept in $run}"
    else
        say "not running"
    fi
    rm -f "$run/bootstrap"
    for dir in "$run"/node-*; do
        [[ -d "$dir" ]] || continue
        rm -f "$dir/kafka.pid"
        [[ -n "$persistent" ]] || rm -rf "$dir/data"
    done
}

nodes="$(nodes_of_run)"
if [[ "$nodes" -gt 1 ]]; then
    # lib.sh's start, status and stop call these three
    running() { cluster_running; }
    start_new() { cluster_start; }
    stop() { cluster_stop; }
fi

dispatch "$@"
