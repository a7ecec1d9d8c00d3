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
deploy/ scripts (bench/pipeline.py's ``services``) and stops them afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from pathlib import Path

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


def timed_load(url: str, pid: int, hands: list[str], rate: float, seconds: float) -> tuple[dict[str, list[float]], float]:
    """The reads' latencies, and the server's CPU seconds spent answering them."""
    before = cpu_seconds(pid)
    latencies = asyncio.run(load(url, hands, rate, seconds))
    return latencies, cpu_seconds(pid) - before


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
    hands = [str(hand_id(r["table_id"], 1, COMPETITION)) for r in reported if r["seq"] == 0]
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


async def load(url: str, hands: list[str], rate: float, seconds: float) -> dict[str, list[float]]:
    """Open loop: request i is due at start + i / rate; its latency is answer time - due time (ms)."""
    paths = {"hand": "/v1/hands/{}", "stacks": "/v1/hands/{}/stacks/final", "pots": "/v1/hands/{}/pots"}
    latencies: dict[str, list[float]] = {kind: [] for kind in KINDS}
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

    # a warm-up pass over a few hands: connections used once, caches filled
    await asyncio.gather(*(one(k, paths[k].format(h), time.perf_counter()) for h in hands[:50] for k in KINDS))
    for values in latencies.values():
        values.clear()
    tasks = []
    start = time.perf_counter()
    for i in range(int(rate * seconds)):
        due = start + i / rate
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        kind = KINDS[i % len(KINDS)]
        path = paths[kind].format(hands[(i // len(KINDS)) % len(hands)])
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rate", type=float, default=500.0, help="reads per second")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to send them")
    parser.add_argument("--repeat", type=int, default=1, help="import the shared hands this many times")
    parser.add_argument("--rebuilds", type=int, default=3, help="rebuilds to time")
    parser.add_argument("--embedded", action="store_true", help="SQLite and the embedded log, no services")
    parser.add_argument("--processes", type=int, default=1,
                        help="serve the reads from N processes (pokeraudit serve --processes N)")
    parser.add_argument("--reads-with-workers", action="store_true",
                        help="read from the importing process (referee and projector threads idle beside the reads)")
    args = parser.parse_args()

    load_before = os.getloadavg()
    with environment(args.embedded) as env:
        mode = "embedded" if args.embedded else "kafka+postgres"
        with served(env, workers=True) as (url, pid):
            hands, records, import_s = import_hands(url, args.repeat)
            print(f"{mode}: imported {records:,} events ({len(hands):,} hands) through the API in {import_s:.1f} s "
                  f"({records / import_s:,.0f} events/s, judged and projected)", flush=True)
            if args.reads_with_workers:
                latencies, cpu = timed_load(url, pid, hands, args.rate, args.seconds)
        if not args.reads_with_workers:
            # The reads' own process, as a read replica runs: no referee or projector threads beside them.
            with served(env, workers=False, processes=args.processes) as (url, pid):
                latencies, cpu = timed_load(url, pid, hands, args.rate, args.seconds)
        sent = sum(len(v) for v in latencies.values())
        print(f"{sent:,} reads at {args.rate:g}/s for {args.seconds:g} s on loopback (latency from when due, ms):")
        for kind in KINDS:
            values = latencies[kind]
            print(f"  {kind:<7} p50 {percentile(values, 0.50):6.2f}   p99 {percentile(values, 0.99):6.2f}   "
                  f"max {max(values):7.2f}   ({len(values):,} reads)")
        every = [v for values in latencies.values() for v in values]
        print(f"  {'all':<7} p50 {percentile(every, 0.50):6.2f}   p99 {percentile(every, 0.99):6.2f}", flush=True)
        # includes the warm-up reads; what the server costs per read whatever the machine's load
        per_read = cpu / (len(every) + 150) * 1000
        print(f"server CPU: {per_read:.2f} ms per read (at most {1000 / per_read:,.0f} reads/s on one free core)")
        runs = rebuild_speed(env, args.rebuilds)
    rates = [events / seconds for events, seconds in runs]
    for events, seconds in runs:
        print(f"rebuild: {events:,} events in {seconds:.2f} s ({events / seconds:,.0f} events/s)")
    print(f"rebuild median: {statistics.median(rates):,.0f} events/s")
    print(f"load average before {load_before[0]:.2f}, after {os.getloadavg()[0]:.2f} (1-minute)")


if __name__ == "__main__":
    main()
