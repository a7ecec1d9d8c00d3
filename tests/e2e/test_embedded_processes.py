"""Several processes on one embedded data folder (issue 11, section 6): `pokeraudit publish` and `pokeraudit
simulate` append to the embedded log while `pokeraudit serve` runs on it, and the API's later submissions are
still placed at fresh offsets, judged and answered (never a 503 for an offset already taken)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from shared_hands import WSOP_DAY_5, WSOP_HAND, as_reported

pytestmark = pytest.mark.e2e

POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
SECRET = "test-secret-of-at-least-thirty-two-bytes"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_publish_and_simulate_beside_serve_leave_the_api_submitting(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}
    env.update(POKERAUDIT_DATA_DIR=str(tmp_path), POKERAUDIT_JWT_SECRET=SECRET)
    token = subprocess.run([str(POKERAUDIT), "token", "--role", "judge", "--person", "cli"], env=env,
                           capture_output=True, text=True, timeout=60)
    assert token.returncode == 0, token.stderr
    headers = {"Authorization": f"Bearer {token.stdout.strip()}"}
    port = _free_port()
    # The server's output goes to a file kept with the test's tmp_path: a pipe nobody reads would fill
    # and block the server's event loop.
    with (tmp_path / "serve.log").open("w") as log:
        server = subprocess.Popen([str(POKERAUDIT), "serve", "--port", str(port)], env=env,
                                  stdout=log, stderr=subprocess.STDOUT, text=True)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/ready", timeout=5).status_code == 200:
                    break
            assert server.poll() is None and time.monotonic() < deadline, "pokeraudit serve did not become ready"
            time.sleep(0.2)
        # The server appends first, so its view of the log's end is taken before the others append.
        first = as_reported([WSOP_HAND], "api-1")
        answer = httpx.post(f"{url}/v1/events/batch?wait=true&timeout=30", json=first, headers=headers, timeout=60)
        assert answer.status_code == 200, answer.text
        published = subprocess.run([str(POKERAUDIT), "publish", str(WSOP_DAY_5), "--competition", "cli-1"],
                                   env=env, capture_output=True, text=True, timeout=300)
        assert published.returncode == 0, published.stderr
        simulated = subprocess.run([str(POKERAUDIT), "simulate", "--seed", "3", "--tables", "1", "--seats", "6",
                                    "--hands", "3"], env=env, capture_output=True, text=True, timeout=300)
        assert simulated.returncode == 0, simulated.stderr
        for n in range(3):
            later = as_reported([WSOP_HAND], f"api-after-{n}")
            answer = httpx.post(f"{url}/v1/events/batch?wait=true&timeout=30", json=later, headers=headers,
                                timeout=60)
            assert answer.status_code == 200, answer.text
            assert {v["outcome"] for v in answer.json()["verdicts"]} == {"accepted"}, answer.text
    finally:
        server.terminate()
        server.wait(timeout=30)
    # What the server's referee judged of all three processes' records, checkpoints included, verifies.
    verified = subprocess.run([str(POKERAUDIT), "verify"], env=env, capture_output=True, text=True, timeout=300)
    assert verified.returncode == 0 and "every chain holds" in verified.stdout, verified.stdout
