"""deploy/kafka/kafka.sh's cluster mode, where no broker is started: its help and a bad KAFKA_NODES refused by name.
(Three nodes started, one killed and restarted: tests/integration/test_three_brokers.py.)"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "kafka" / "kafka.sh"


def kafka_sh(command: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), command], capture_output=True, text=True, timeout=30, check=False,
                          env={**os.environ, "KAFKA_RUN_DIR": str(tmp_path / "run"), **env})


def test_the_help_says_how_to_start_a_cluster_and_what_it_replicates(tmp_path: Path) -> None:
    done = kafka_sh("help", tmp_path)
    assert done.returncode == 0, done.stderr
    assert "KAFKA_NODES" in done.stdout and "min.insync.replicas" in done.stdout


@pytest.mark.parametrize("nodes", ["three", "0", "10", "-1"])
def test_a_number_of_nodes_that_is_not_one_to_nine_is_refused_naming_the_variable(tmp_path: Path, nodes: str) -> None:
    done = kafka_sh("status", tmp_path, KAFKA_NODES=nodes)
    assert done.returncode != 0
    assert f"KAFKA_NODES={nodes}" in done.stderr and "from 1 to 9" in done.stderr


def test_a_cluster_not_started_is_not_running(tmp_path: Path) -> None:
    done = kafka_sh("status", tmp_path, KAFKA_NODES="3")
    assert done.returncode == 1 and "not running" in done.stderr


def test_a_fixed_port_is_refused_in_cluster_mode(tmp_path: Path) -> None:
    done = kafka_sh("start", tmp_path, KAFKA_NODES="3", KAFKA_PORT="9092", KAFKA_CACHE_DIR=str(tmp_path / "cache"))
    # before any jar is fetched or port taken
    assert done.returncode != 0 and "KAFKA_PORT" in done.stderr and "cluster mode" in done.stderr, done.stderr
    assert not (tmp_path / "cache" / "lib").exists()
