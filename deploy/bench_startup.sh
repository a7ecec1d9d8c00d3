#!/usr/bin/env bash
# Start-up times of the project's Kafka broker and PostgreSQL cluster (docs/BENCHMARKS.md, "Service start-up").
#
#   deploy/bench_startup.sh [RUNS]      (default 3 runs per case; prints one line per run, then medians)
#
# Kafka, cold:       empty Maven repository (-Dmaven.repo.local) and empty jar cache: fetch + format + start
# Kafka, cold-m2:    empty jar cache, ~/.m2 already populated: copy + format + start
# Kafka, warm:       jar cache and class-data archive present: format + start
# Kafka, first stop: the first broker on a fresh cache writes its class-data archive as it exits
# PostgreSQL, cold:  fresh run folder (the server binaries are installed): initdb + start
# PostgreSQL, warm:  the same again (nothing is reused between starts; the OS page cache is warm)
# "start" ends when a kafka-python client gets metadata / pg_isready succeeds.
# Everything runs in a scratch folder; the project's own deploy/.cache is not touched.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
runs="${1:-3}"
scratch="$(mktemp -d /tmp/pokeraudit-bench.XXXXXX)"
chmod 755 "$scratch"
declare -A samples

cleanup() {
    KAFKA_CACHE_DIR="$scratch/kafka" bash "$here/kafka/kafka.sh" stop >/dev/null 2>&1 || true
    POSTGRES_RUN_DIR="$scratch/postgres" bash "$here/postgres/postgres.sh" stop >/dev/null 2>&1 || true
    rm -rf "$scratch"
}
trap cleanup EXIT

# seconds <command...>: wall-clock seconds of a command, which must succeed.
seconds() {
    local t0 t1
    t0="$(date +%s.%N)"
    "$@" >/dev/null 2>"$scratch/last.err" || { cat "$scratch/last.err" >&2; exit 1; }
    t1="$(date +%s.%N)"
    echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }'
}

record() {
    local case="$1" i="$2" s="$3"
    [[ -n "$s" ]] || { echo "bench_startup.sh: $case run $i failed" >&2; exit 1; }
    samples[$case]="${samples[$case]:-} $s"
    printf '%-18s run %d  %6ss\n' "$case" "$i" "$s"
}

kafka_start() { KAFKA_CACHE_DIR="$scratch/kafka" bash "$here/kafka/kafka.sh" start; }
kafka_stop() { KAFKA_CACHE_DIR="$scratch/kafka" bash "$here/kafka/kafka.sh" stop; }
pg_start() { POSTGRES_RUN_DIR="$scratch/postgres" bash "$here/postgres/postgres.sh" start; }
pg_stop() { POSTGRES_RUN_DIR="$scratch/postgres" bash "$here/postgres/postgres.sh" stop; }

for ((i = 1; i <= runs; i++)); do
    rm -rf "$scratch/kafka" "$scratch/m2"
    record "kafka cold" "$i" "$(MAVEN_OPTS="-Dmaven.repo.local=$scratch/m2" seconds kafka_start)"
    record "kafka first stop" "$i" "$(seconds kafka_stop)"
done
for ((i = 1; i <= runs; i++)); do
    rm -rf "$scratch/kafka"
    record "kafka cold-m2" "$i" "$(seconds kafka_start)"
    kafka_stop >/dev/null 2>&1
done
for ((i = 1; i <= runs; i++)); do
    record "kafka warm" "$i" "$(seconds kafka_start)"
    record "kafka stop" "$i" "$(seconds kafka_stop)"
done
for ((i = 1; i <= runs; i++)); do
    rm -rf "$scratch/postgres"
    record "postgres cold" "$i" "$(seconds pg_start)"
    record "postgres stop" "$i" "$(seconds pg_stop)"
done
for ((i = 1; i <= runs; i++)); do
    record "postgres warm" "$i" "$(seconds pg_start)"
    pg_stop >/dev/null 2>&1
done

echo
echo "medians of $runs runs ($(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)):"
for case in "kafka cold" "kafka cold-m2" "kafka warm" "kafka first stop" "kafka stop" "postgres cold" "postgres warm" "postgres stop"; do
    # shellcheck disable=SC2086
    printf '  %-16s %6ss\n' "$case" "$(printf '%s\n' ${samples[$case]} | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }')"
done
