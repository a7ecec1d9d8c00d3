"""Sixty protocol PDFs asked for at once while a judge reads (issue 11, §7): what the embedded test and the
PostgreSQL one both check. Every PDF is answered 200 or refused for load (503 with Retry-After, in the error
shape), never failed (500); the judge's reads are answered, and soon."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx
import uvicorn
from fastapi import FastAPI

#: how many protocol PDFs are asked for at once
STORM = 60


@contextlib.contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """``app`` on a free loopback port in a thread until the block ends; yields its base URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the API did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=60)


@dataclass
class Storm:
    pdfs: list[httpx.Response]
    #: the judge's reads made while the PDFs were being asked for, and how long each took (s)
    reads: list[tuple[httpx.Response, float]]


def storm(base: str, competition: str, headers: dict[str, str], light_path: str) -> Storm:
    url = f"{base}/v1/competitions/{competition}/protocol"
    started = threading.Event()
    done = threading.Event()

    def pdf(_: int) -> httpx.Response:
        started.set()
        return httpx.get(url, params={"format": "pdf"}, headers=headers, timeout=120)

    def judge_reads() -> list[tuple[httpx.Response, float]]:
        started.wait(30)
        out = []
        while not done.is_set() or not out:
            t0 = time.monotonic()
            answer = httpx.get(f"{base}{light_path}", headers=headers, timeout=120)
            out.append((answer, time.monotonic() - t0))
            time.sleep(0.1)
        return out

    with ThreadPoolExecutor(STORM + 1) as pool:
        reads = pool.submit(judge_reads)
        pdfs = list(pool.map(pdf, range(STORM)))
        done.set()
        return Storm(pdfs, reads.result())


def check(found: Storm) -> None:
    statuses = [r.status_code for r in found.pdfs]
    assert set(statuses) <= {200, 503}, statuses
    assert statuses.count(200) >= 2, statuses
    for refused in (r for r in found.pdfs if r.status_code == 503):
        assert int(refused.headers["Retry-After"]) >= 1
        assert refused.json()["error"]["code"] == "busy"
    for served in (r for r in found.pdfs if r.status_code == 200):
        assert served.content.startswith(b"%PDF-")
    assert found.reads and all(r.status_code == 200 for r, _ in found.reads), [r.text for r, _ in found.reads]
    slowest = max(took for _, took in found.reads)
    assert slowest < 3.0, f"a judge's read waited {slowest:.1f} s behind the PDFs"
