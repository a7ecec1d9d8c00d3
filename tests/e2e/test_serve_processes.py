"""`pokeraudit serve --processes N`: reads served from several processes; the in-process workers need one."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.e2e

POKERAUDIT = Path(sys.executable).parent / "pokeraudit"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KAFKA_BOOTSTRAP_SERVERS", "DATABASE_URL")}
    env.update(POKERAUDIT_DATA_DIR=str(tmp_path), POKERAUDIT_PUBLIC_READ="true")
    return env


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_two_processes_serve_the_same_read_models(tmp_path: Path) -> None:
    port = _free_port()
    # The server's output goes to a file kept with the test's tmp_path: a pipe nobody reads would fill
    # and block the server's event loop.
    with (tmp_path / "serve.log").open("w") as log:
        server = subprocess.Popen(
            [str(POKERAUDIT), "serve", "--processes", "2", "--no-workers", "--port", str(port), "--log-level", "warning"],
            env=_env(tmp_path), stdout=log, stderr=subprocess.STDOUT, text=True,
        )
    try:
        deadline, answered = time.monotonic() + 60, None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                answered = httpx.get(f"http://127.0.0.1:{port}/v1/competitions", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.3)
        assert answered is not None and answered.status_code == 200, server.poll()
        assert answered.json()["items"] == []
        assert all(httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200 for _ in range(20))
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_in_process_workers_refuse_to_be_split_across_processes(tmp_path: Path) -> None:
    run = subprocess.run(
        [str(POKERAUDIT), "serve", "--processes", "2"], env=_env(tmp_path), capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2
    assert "--no-workers" in run.stderr
