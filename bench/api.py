"""Read latency of the served API at a fixed request rate, and projection rebuild speed, in one run.

    .venv/bin/python bench/api.py [--rate 500] [--seconds 20] [--repeat 1] [--rebuilds 3] [--embedded]

Starts ``pokeraudit serve --workers`` as its own process (kafka+postgres mode on a fresh topic and database;
``--embedded``: SQLite in a scratch folder), imports the shared PHH hands through ``POST /v1/events/batch``
(``--repeat`` times, at new tables), waits until the projector has caught up, then restarts the API
without the workers (as a read replica runs; ``--reads-with-workers`` reads from the importing process) and sends
hand, stack and pot reads (``GET /v1/hands/{id}``, ``…/stacks/final``, ``…/pots``, in turn, over the imported hands) at
``--rate`` requests per second for ``--seconds`` on loopback. Requests are sent on a fixed schedule whatever
the answers do (open loop): a request's latency runs from the moment it was due to its answer, so a stalled
server shows in the tail instead of slowing the load. Prints p50/p99/max per kind.

Then the projector's rebuild: ``Projector.rebuild()`` (the whole store projected again into fresh tables,
swapped in for the read models in use in one transaction) on the filled store, ``--rebuilds`` times, in this
process; prints events/s of each and the median.

Uses KAFKA_BOOTSTRAP_SERVERS and DATABASE_URL when set; otherwise starts a broker and a cluster with the
deploy/ scripts (bench/pipeline.py's ``services``) and stops them afterwards; with KAFKA_NODES=3 set, the broker
is a three-node cluster (deploy/kafka/kafka.sh's cluster mode).

    .venv/bin/python bench/api.py --mixed [--events-rate 5000] [--rate 2000] [--seconds 20] [--processes 1]

The mixed load (issue 17's "API reads while the referee ingests"): the referee (`pokeraudit referee`), the
projector (`pokeraudit projections run --follow`) and `pokeraudit serve --no-workers` each as its own process
on the real broker and cluster. First a store to read: the WSOP final table's 83 hands ``--prefill-copies``
times at new tables and one simulated American competition (`pokeraudit simulate`, 18 players to its winner),
judged and projected. Then, for ``--seconds``, a publisher process appends new hands to the log at a fixed
``--events-rate`` while reads go at ``--rate`` a second, open loop as above, a mix of hand reads, final stacks
and the competition's standings. Prints reads/s answered, p50/p99 per kind and overall, the events published
and judged a second meanwhile, the lag at the end, each process's peak memory and the load average; the last
line is one JSON object with them (anchor: the goal of 2,000 reads/s at p99 < 10 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT.parent / "shared" / "data" / "phh"))
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
SECRET = "bench-secret-of-at-least-thirty-two-bytes"
COMPETITION = "bench"
BATCH = 1000
KINDS = ("hand", "stacks", "pots")
#: keep-alive connections the reads are spread over (a request waits for a free one: that wait is latency)
CONNECTIONS = 32
#: reads sent before the timed ones (connections used once, caches filled)
WARM_UP = 150


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def environment(embedded: bool) -> Iterator[dict[str, str]]:
    """The served process's settings: a fresh topic and database, or a scratch folder."""
    if embedded:
        scratch = Path(tempfile.mkdtemp(prefix="pokeraudit-bench-api-"))
        try:
            yield {"POKERAUDIT_DATA_DIR": str(scratch)}
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return
    from pipeline import fresh_database, services  # bench/pipeline.py

    run = uuid.uuid4().hex[:8]
    with services() as (bootstrap, server_url), fresh_database(server_url) as url:
        yield {
            "KAFKA_BOOTSTRAP_SERVERS": bootstrap,
            "DATABASE_URL": url,
            "POKERAUDIT_TOPIC": f"bench.api.{run}",
            "POKERAUDIT_REJECTIONS_TOPIC": f"bench.api.rejections.{run}",
            "POKERAUDIT_REFEREE_BATCH_MS": "50",
        }


@contextlib.contextmanager
def served(env: dict[str, str], workers: bool, processes: int = 1) -> Iterator[tuple[str, int]]:
    port = free_port()
    full = {**os.environ, **env, "POKERAUDIT_JWT_SECRET": SECRET}
    full.pop("POKERAUDIT_PUBLIC_READ", None)
    process = subprocess.Popen(
        [str(POKERAUDIT), "serve", "--port", str(port), "--workers" if workers else "--no-workers",
         "--processes", str(processes), "--log-level", "warning"],
        env=full, stdout=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/ready", timeout=5).status_code == 200:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"pokeraudit serve did not become ready (exit {process.poll()})")
            time.sleep(0.2)
        yield url, process.pid
    finally:
        process.terminate()
        process.wait(timeout=60)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` and its live descendants so far (Linux /proc): with
    ``serve --processes N`` the reads are answered by uvicorn's child processes."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    children = Path(f"/proc/{pid}/task/{pid}/children")
    kids = [int(c) for c in children.read_text().split()] if children.exists() else []
    return own + sum(cpu_seconds(kid) for kid in kids)


def timed_load(
    url: str, pid: int, targets: list[tuple[str, str]], rate: float, seconds: float
) -> tuple[dict[str, list[float]], float, float]:
    """The reads' latencies, the server's CPU seconds spent answering them, and the client's (this thread's) spent
    sending them and reading the answers. The client runs on uvloop (a dependency of serve's already): on
    asyncio's own loop it cost about twice the server's CPU floor a request, and on two cores shared with the
    server, the referee and the projector it competed with what it measures."""
    import uvloop

    before, client_before = cpu_seconds(pid), time.thread_time()
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        latencies = runner.run(load(url, targets, rate, seconds))
    return latencies, cpu_seconds(pid) - before, time.thread_time() - client_before


def headers() -> dict[str, str]:
    from api.auth import issue_token

    return {"Authorization": f"Bearer {issue_token(SECRET, 'bench', 'judge')}"}


def import_hands(url: str, repeat: int) -> tuple[list[str], int, float]:
    """Every shared hand through the API; the hands' ids, the records posted and the seconds it took."""
    from api.operations import phh_records
    from domain.hand.aggregate import hand_id

    reported = []
    for _, value in phh_records([PHH_DIR], COMPETITION, repeat):
        body = json.loads(value)
        del body["recorded_by"]
        reported.append(body)
    # a record names its table and its hand's number there (a table's hands are numbered in order, not all 1)
    hands = [str(hand_id(r["table_id"], r["hand_id"], COMPETITION)) for r in reported if r["seq"] == 0]
    start = time.monotonic()
    with httpx.Client(base_url=url, headers=headers(), timeout=120) as client:
        chunks = [reported[n : n + BATCH] for n in range(0, len(reported), BATCH)]
        for chunk in chunks[:-1]:
            client.post("/v1/events/batch", json=chunk).raise_for_status()
        # the last batch waits for its verdicts (so for everything before it); asking again is harmless
        while (answer := client.post("/v1/events/batch?wait=true&timeout=30", json=chunks[-1])).status_code == 504:
            pass
        answer.raise_for_status()
        while client.get("/v1/projections/lag").json()["lag"]:
            time.sleep(0.2)
    return hands, len(reported), time.monotonic() - start


class Connection:
    """One keep-alive HTTP/1.1 connection speaking just enough of it for GETs: a lean client, so the figures
    are the server's (httpx's own cost per request is about that of the server's on this machine)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, auth: str) -> None:
        self.reader, self.writer = reader, writer
        self.prefix = f"Host: {host}\r\nAuthorization: {auth}\r\n\r\n".encode()

    @classmethod
    async def open(cls, url: str, auth: str) -> Connection:
        host, port = httpx.URL(url).host, httpx.URL(url).port
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer, f"{host}:{port}", auth)

    async def get(self, path: str) -> int:
        self.writer.write(f"GET {path} HTTP/1.1\r\n".encode() + self.prefix)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        await self.reader.readexactly(length)
        return status

    def close(self) -> None:
        self.writer.close()


#: the reads of the default run, in turn over the imported hands
HAND_READS = {"hand": "/v1/hands/{}", "stacks": "/v1/hands/{}/stacks/final", "pots": "/v1/hands/{}/pots"}


def hand_targets(hands: list[str]) -> list[tuple[str, str]]:
    """Hand, final-stack and pot reads in turn, over ``hands``."""
    return [(kind, HAND_READS[kind].format(hand)) for hand in hands for kind in KINDS]


async def load(url: str, targets: list[tuple[str, str]], rate: float, seconds: float) -> dict[str, list[float]]:
    """Open loop: request i (``targets[i % len(targets)]``, a kind and a path) is due at start + i / rate; its
    latency is answer time - due time (ms)."""
    latencies: dict[str, list[float]] = {kind: [] for kind, _ in targets}
    failures: list[int] = []
    auth = headers()["Authorization"]
    idle: asyncio.Queue[Connection] = asyncio.Queue()
    for _ in range(CONNECTIONS):
        idle.put_nowait(await Connection.open(url, auth))

    async def one(kind: str, path: str, due: float) -> None:
        connection = await idle.get()
        status = await connection.get(path)
        idle.put_nowait(connection)
        if status != 200:
            failures.append(status)
        latencies[kind].append((time.perf_counter() - due) * 1000)

    # a warm-up pass over a few targets: connections used once, caches filled
    await asyncio.gather(*(one(kind, path, time.perf_counter()) for kind, path in targets[:WARM_UP]))
    for values in latencies.values():
        values.clear()
    tasks = []
    start = time.perf_counter()
    for i in range(int(rate * seconds)):
        due = start + i / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        kind, path = targets[i % len(targets)]
        tasks.append(asyncio.create_task(one(kind, path, due)))
    await asyncio.gather(*tasks)
    while not idle.empty():
        idle.get_nowait().close()
    if failures:
        raise RuntimeError(f"{len(failures)} reads failed: statuses {sorted(set(failures))}")
    return latencies


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rebuild_speed(env: dict[str, str], times: int) -> list[tuple[int, float]]:
    """``Projector.rebuild()`` on the served store, ``times`` times: (events, seconds) of each."""
    from api.bootstrap import open_projector
    from api.settings import Settings

    saved = dict(os.environ)
    os.environ.update(env)
    try:
        settings = Settings()
    finally:
        os.environ.clear()
        os.environ.update(saved)
    projector = open_projector(settings)
    runs = []
    try:
        for _ in range(times):
            start = time.perf_counter()
            events = projector.rebuild()
            runs.append((events, time.perf_counter() - start))
    finally:
        projector.close()
    return runs


# ------------------------------------------------------------------------------------------------ mixed load

#: the goal the mixed load is measured against (issue 17)
MIXED_GOAL_READS = 2000.0
MIXED_GOAL_P99_MS = 10.0
MIXED_SEED = 17
MIXED_PLAYERS = 18
WSOP_TABLE = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"


def recorded_hands() -> list[tuple[str, list[Any]]]:
    """The WSOP final table's hands, each as its name and its events up to the first one refused (as `pokeraudit
    publish` does), read and replayed once so that copies cost only their envelopes."""
    from domain.errors import HandError
    from ingest.phh import load_hands
    from ingest.phh_events import hand_events

    out = []
    for hand in load_hands([WSOP_TABLE]):
        events = []
        try:
            for event in hand_events(hand):
                events.append(event)
        except HandError:
            pass
        out.append((f"{Path(hand.file).stem}#{hand.index}", events))
    return out


def hand_copies(hands: list[tuple[str, list[Any]]], competition: str, tag: str) -> Iterator[tuple[bytes, bytes]]:
    """The hands again and again at new tables (``name@tag<copy>``), endlessly."""
    from api.operations import EPOCH, IMPORTER
    from ingest.publish import hand_records

    copy = 0
    while True:
        for n, (name, events) in enumerate(hands):
            yield from hand_records(events, competition, IMPORTER, EPOCH + timedelta(minutes=n),
                                    table_id=f"{name}@{tag}{copy}", hand_number=1)
        copy += 1


def publish_at(bootstrap: str, topic: str, rate: float, seconds: float, done: Any) -> None:
    """A process of its own: new hands onto the log at ``rate`` records a second for ``seconds`` (a batch every
    50 ms, each appended with acks=all); puts (records, seconds) on ``done``."""
    from ingest.kafka_log import KafkaLog

    records = hand_copies(recorded_hands(), f"{COMPETITION}-live", "live")
    log = KafkaLog(bootstrap, topic, create=False)
    sent = 0
    start = time.monotonic()
    try:
        while (elapsed := time.monotonic() - start) < seconds:
            due = int(rate * elapsed) - sent
            if due > 0:
                log.append(list(itertools.islice(records, due)))
                sent += due
            time.sleep(0.05)
    finally:
        log.close()
    done.put((sent, time.monotonic() - start))


def stored_outcomes(url: str) -> int:
    import psycopg

    with psycopg.connect(url) as db:
        row = db.execute("SELECT count(*) FROM referee_event_ids").fetchone()
    return int(row[0]) if row else 0


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory (VmHWM), with its live children's."""
    status = Path(f"/proc/{pid}/status").read_text()
    own = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0) / 1024
    children = Path(f"/proc/{pid}/task/{pid}/children")
    kids = [int(c) for c in children.read_text().split()] if children.exists() else []
    return own + sum(peak_rss_mb(kid) for kid in kids)


@contextlib.contextmanager
def follower(env: dict[str, str], *command: str) -> Iterator[int]:
    """``pokeraudit <command>`` running beside the bench; its pid."""
    process = subprocess.Popen([str(POKERAUDIT), *command, "--log-level", "warning"], env={**os.environ, **env},
                               stdout=subprocess.DEVNULL)
    try:
        yield process.pid
    finally:
        process.terminate()
        process.wait(timeout=60)


def caught_up(url: str, database_url: str, total: int, timeout: float) -> float:
    """Seconds until ``total`` records are judged and the read models have projected them all."""
    start = time.monotonic()
    with httpx.Client(base_url=url, headers=headers(), timeout=30) as client:
        while time.monotonic() - start < timeout:
            if stored_outcomes(database_url) >= total and client.get("/v1/projections/lag").json()["lag"] == 0:
                return time.monotonic() - start
            time.sleep(0.2)
    raise RuntimeError(f"not caught up within {timeout:.0f} s ({stored_outcomes(database_url):,} of {total:,} judged)")


class JudgedSince:
    """Counts the stored outcomes every half second in a thread, so that the time the referee took to judge the
    published records is known even when the reads (and so the bench's next look) end much later."""

    def __init__(self, url: str) -> None:
        import threading

        self.url = url
        self.samples: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self.samples.append((time.monotonic(), stored_outcomes(self.url)))

    def stop(self, total: int) -> float:
        """When ``total`` outcomes were first seen stored."""
        self._stop.set()
        self._thread.join()
        self.samples.append((time.monotonic(), stored_outcomes(self.url)))
        return next(at for at, count in self.samples if count >= total)


def mixed_targets(hands: list[str], competition: str) -> list[tuple[str, str]]:
    """Per hand a hand read and its final stacks, and the competition's standings after every fourth hand."""
    targets = []
    for n, hand in enumerate(hands):
        targets += [("hand", HAND_READS["hand"].format(hand)), ("stacks", HAND_READS["stacks"].format(hand))]
        if n % 4 == 3:
            targets.append(("standings", f"/v1/competitions/{competition}/standings"))
    return targets


def mixed(args: argparse.Namespace) -> None:
    import multiprocessing

    from domain.hand.aggregate import hand_id
    from ingest.kafka_log import KafkaLog

    load_before = os.getloadavg()
    brokers = int(os.environ.get("KAFKA_NODES", "1"))
    with environment(False) as env:
        env = {**env, "POKERAUDIT_PARTITIONS": str(args.partitions),
               "POKERAUDIT_CHECKPOINTS_TOPIC": env["POKERAUDIT_TOPIC"] + ".checkpoints",
               # the simulated competition is played on the simulation's clock, in the past
               "POKERAUDIT_CLOCK_SKEW_S": "0",
               # one token reads for every reader here: a per-token limit would measure the limiter
               "POKERAUDIT_RATE_HEAVY_READS_PER_MINUTE": "0"}
        bootstrap, topic, database_url = env["KAFKA_BOOTSTRAP_SERVERS"], env["POKERAUDIT_TOPIC"], env["DATABASE_URL"]
        hands = recorded_hands()
        prefill = list(itertools.islice(hand_copies(hands, COMPETITION, "prefill"),
                                        args.prefill_copies * sum(len(events) for _, events in hands)))
        read_hands = sorted({str(hand_id(r["table_id"], r["hand_id"], COMPETITION))
                             for r in map(json.loads, (v for _, v in prefill))})
        # the topic first, with the partitions asked (the referee would make it with its own setting)
        KafkaLog(bootstrap, topic, partitions=args.partitions).close()
        with (follower(env, "referee") as referee, follower(env, "projections", "run", "--follow") as projector,
              served(env, workers=False, processes=args.processes) as (url, serve)):
            log = KafkaLog(bootstrap, topic, create=False)
            try:
                log.append(prefill)
            finally:
                log.close()
            # the simulator waits for the referee's verdicts between hands: it runs beside it
            simulated = subprocess.run(
                [str(POKERAUDIT), "simulate", "--seed", str(MIXED_SEED), "--competition-format", "american",
                 "--players", str(MIXED_PLAYERS), "--quiet"],
                env={**os.environ, **env}, capture_output=True, text=True, timeout=600, check=False,
            )
            if simulated.returncode != 0:
                raise RuntimeError(f"pokeraudit simulate failed: {simulated.stderr[-2000:]}")
            competition = json.loads(simulated.stdout.splitlines()[0])["competition"]
            simulated_events = int(simulated.stdout.split("published ")[1].split()[0])
            before_live = len(prefill) + simulated_events
            took = caught_up(url, database_url, before_live, 600)
            print(f"store: {before_live:,} events ({len(read_hands):,} hands of {COMPETITION}, {competition} "
                  f"simulated to its winner) judged and projected in {took:.1f} s", flush=True)
            done: Any = multiprocessing.get_context("fork").Queue()
            publisher = multiprocessing.get_context("fork").Process(
                target=publish_at, args=(bootstrap, topic, args.events_rate, args.seconds, done), daemon=True)
            judged = JudgedSince(database_url)
            publisher.start()
            started = time.monotonic()
            latencies, cpu, client_cpu = timed_load(url, serve, mixed_targets(read_hands, competition), args.rate,
                                                    args.seconds)
            reads_s = time.monotonic() - started
            published, publish_s = done.get(timeout=120)
            publisher.join(timeout=60)
            drained = caught_up(url, database_url, before_live + published, 600)
            # from the first record published to the moment the referee had judged them all
            judge_s = judged.stop(before_live + published) - started
            memory = {"serve": peak_rss_mb(serve), "referee": peak_rss_mb(referee),
                      "projector": peak_rss_mb(projector), "bench": peak_rss_mb(os.getpid())}
    load_after = os.getloadavg()
    every = [v for values in latencies.values() for v in values]
    answered = len(every) / reads_s
    p50, p99 = percentile(every, 0.50), percentile(every, 0.99)
    print(f"{len(every):,} reads sent at {args.rate:g}/s for {args.seconds:g} s on loopback, answered at "
          f"{answered:,.0f}/s (latency from when due, ms):")
    for kind, values in latencies.items():
        print(f"  {kind:<9} p50 {percentile(values, 0.50):7.2f}   p99 {percentile(values, 0.99):7.2f}   "
              f"max {max(values):8.2f}   ({len(values):,} reads)")
    print(f"  {'all':<9} p50 {p50:7.2f}   p99 {p99:7.2f}")
    per_read = cpu / (len(every) + WARM_UP) * 1000
    client_per_read = client_cpu / (len(every) + WARM_UP) * 1000
    print(f"server CPU: {per_read:.3f} ms per read (serve --processes {args.processes}); the bench's client: "
          f"{client_per_read:.3f} ms per read")
    print(f"meanwhile: {published:,} events published at {published / publish_s:,.0f}/s (asked {args.events_rate:g}/s), "
          f"all judged {judge_s:.1f} s after the first was published ({published / judge_s:,.0f}/s); read models "
          f"caught up {drained:.1f} s after the reads")
    print("peak memory (MB): " + ", ".join(f"{name} {mb:,.0f}" for name, mb in memory.items()))
    print(f"brokers {brokers}; load average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1-minute)")
    met = answered >= MIXED_GOAL_READS * 0.98 and p99 < MIXED_GOAL_P99_MS
    print(json.dumps({
        "name": "api_mixed_reads", "value": round(answered, 1), "unit": "reads/s",
        "anchor": MIXED_GOAL_READS, "ratio": round(answered / MIXED_GOAL_READS, 3),
        "p50_ms": round(p50, 2), "p99_ms": round(p99, 2), "goal_p99_ms": MIXED_GOAL_P99_MS, "goal_met": met,
        "asked_reads_per_s": args.rate, "events_published_per_s": round(published / publish_s, 1),
        "events_judged_per_s": round(published / judge_s, 1), "server_cpu_ms_per_read": round(per_read, 3),
        "client_cpu_ms_per_read": round(client_per_read, 3), "serve_processes": args.processes, "brokers": brokers,
        "peak_rss_mb": {name: round(mb, 1) for name, mb in memory.items()},
        "load_average": [round(load_before[0], 2), round(load_after[0], 2)],
    }))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=float, default=None, help="reads per second (default 500; --mixed: 2000)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to send them")
    parser.add_argument("--repeat", type=int, default=1, help="import the shared hands this many times")
    parser.add_argument("--rebuilds", type=int, default=3, help="rebuilds to time")
    parser.add_argument("--embedded", action="store_true", help="SQLite and the embedded log, no services")
    parser.add_argument("--processes", type=int, default=1,
                        help="serve the reads from N processes (pokeraudit serve --processes N)")
    parser.add_argument("--reads-with-workers", action="store_true",
                        help="read from the importing process (referee and projector threads idle beside the reads)")
    parser.add_argument("--mixed", action="store_true",
                        help="reads while the referee ingests at --events-rate (kafka+postgres; see above)")
    parser.add_argument("--events-rate", type=float, default=5000.0, help="--mixed: records published a second")
    parser.add_argument("--prefill-copies", type=int, default=4,
                        help="--mixed: the WSOP hands this many times in the store before the reads")
    parser.add_argument("--partitions", type=int, default=6, help="--mixed: partitions of the topic")
    args = parser.parse_args()
    if args.mixed:
        if args.embedded:
            parser.error("--mixed runs on Kafka and PostgreSQL; leave out --embedded")
        args.rate = MIXED_GOAL_READS if args.rate is None else args.rate
        mixed(args)
        return
    args.rate = 500.0 if args.rate is None else args.rate

    load_before = os.getloadavg()
    with environment(args.embedded) as env:
        mode = "embedded" if args.embedded else "kafka+postgres"
        with served(env, workers=True) as (url, pid):
            hands, records, import_s = import_hands(url, args.repeat)
            print(f"{mode}: imported {records:,} events ({len(hands):,} hands) through the API in {import_s:.1f} s "
                  f"({records / import_s:,.0f} events/s, judged and projected)", flush=True)
            if args.reads_with_workers:
                latencies, cpu, _ = timed_load(url, pid, hand_targets(hands), args.rate, args.seconds)
        if not args.reads_with_workers:
            # The reads' own process, as a read replica runs: no referee or projector threads beside them.
            with served(env, workers=False, processes=args.processes) as (url, pid):
                latencies, cpu, _ = timed_load(url, pid, hand_targets(hands), args.rate, args.seconds)
        sent = sum(len(v) for v in latencies.values())
        print(f"{sent:,} reads at {args.rate:g}/s for {args.seconds:g} s on loopback (latency from when due, ms):")
        for kind in KINDS:
            values = latencies[kind]
            print(f"  {kind:<7} p50 {percentile(values, 0.50):6.2f}   p99 {percentile(values, 0.99):6.2f}   "
                  f"max {max(values):7.2f}   ({len(values):,} reads)")
        every = [v for values in latencies.values() for v in values]
        print(f"  {'all':<7} p50 {percentile(every, 0.50):6.2f}   p99 {percentile(every, 0.99):6.2f}", flush=True)
        # includes the warm-up reads; what the server costs per read whatever the machine's load
        per_read = cpu / (len(every) + WARM_UP) * 1000
        print(f"server CPU: {per_read:.2f} ms per read (at most {1000 / per_read:,.0f} reads/s on one free core)")
        runs = rebuild_speed(env, args.rebuilds)
    rates = [events / seconds for events, seconds in runs]
    for events, seconds in runs:
        print(f"rebuild: {events:,} events in {seconds:.2f} s ({events / seconds:,.0f} events/s)")
    print(f"rebuild median: {statistics.median(rates):,.0f} events/s")
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f} (1-minute)")


if __name__ == "__main__":
    main()
