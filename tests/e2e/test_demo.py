"""The README's first command as a newcomer runs it: `pokeraudit demo` reports what the embedded service
judged, then serves the API, which answers with the simulated competition's stacks and pots."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.e2e

POKERAUDIT = Path(sys.executable).parent / "pokeraudit"


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}


def test_the_report_names_what_was_accepted_refused_and_awarded(tmp_path: Path) -> None:
    run = subprocess.run(
        [str(POKERAUDIT), "demo", "--no-serve", "--data-dir", str(tmp_path / "demo")],
        capture_output=True, text=True, timeout=300, env=_env(),
    )
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    published = sum(int(n) for n in re.findall(r"(\d+) events published", out))
    accepted, rejected = map(int, re.search(r"referee: (\d+) accepted, (\d+) rejected", out).groups())  # type: ignore[union-attr]
    assert accepted + rejected == published  # every record judged, none lost
    assert "27 players at 3 tables of 9" in out
    assert "(bfsp 4.7.3)" in out  # the real final table's refused razz raise
    assert re.search(r"\(bfsp 4\.(8\.2|9\.6|9\.2)\)", out)  # a simulated dealer's slip, refused with its rule
    assert "every chain holds" in out
    # the OFC competition, read from its projected rounds: listed with its rounds, and its points
    assert re.search(r"-ofc: 2 tables, \d+ OFC rounds, \d+ rejections", out)
    assert re.search(r"OFC \S+-ofc after \d+ rounds \(\d+ fouled hands\), points:", out)
    assert re.search(r"main pot: [\d,]+, eligible seats", out) and "side pot 1:" in out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_the_demo_ends_with_the_api_answering(tmp_path: Path) -> None:
    port = _free_port()
    # A file, not a pipe: nobody reads a pipe while the demo runs, and a full one would block its event loop.
    log = tmp_path / "demo.log"
    with log.open("w") as sink:
        demo = subprocess.Popen(
            [str(POKERAUDIT), "demo", "--data-dir", str(tmp_path / "demo"), "--port", str(port)],
            stdout=sink, stderr=subprocess.STDOUT, text=True, env=_env(),
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        competitions = None
        while time.monotonic() < deadline and demo.poll() is None:
            try:
                competitions = httpx.get(f"{base}/v1/competitions", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.5)
        assert competitions is not None, "the demo's API never answered"
        assert competitions.status_code == 200
        ids = {c["competition_id"] for c in competitions.json()["items"]}
        assert {"sim-7", "wsop-2023-event-43"} <= ids
        tables = httpx.get(f"{base}/v1/competitions/sim-7/tables").json()["items"]
        assert [t["table_id"] for t in tables] == ["T1", "T2", "T3"]
        hands = httpx.get(f"{base}/v1/competitions/sim-7/tables/T1/hands").json()["items"]
        assert len(hands) == 20
        pots = httpx.get(f"{base}/v1/hands/{hands[0]['hand_id']}/pots")
        assert pots.status_code == 200 and sum(p["amount"] for p in pots.json()) > 0
        table = httpx.get(f"{base}/v1/competitions/sim-7/tables/T1").json()
        assert sum(s["stack"] for s in table["seats"]) > 0
    finally:
        demo.terminate()
        try:
            demo.wait(timeout=30)
        except subprocess.TimeoutExpired:
            demo.kill()
            demo.wait()
    output = log.read_text()
    assert f"the API is starting on {base}" in output, output
