"""The operators' commands on the real broker and server: publish → referee → status → verify, the
rejection on the rejections topic, and a single byte changed in a stored event caught by verify."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest
from kafka import KafkaConsumer, TopicPartition

from ingest.phh import load_hands
from ingest.phh_tables import seat_hands

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
POKERAUDIT = Path(sys.executable).parent / "pokeraudit"
WSOP = PHH_DIR / "data" / "wsop" / "2023" / "43" / "5"
RAZZ = WSOP / "03-50-24.phh"  # its 6th-street raise breaks the fixed-limit size (bfsp 4.7.3)
HANDS = [WSOP / "00-02-07.phh", RAZZ, WSOP / "00-22-43.phh", PHH_DIR / "data" / "pluribus" / "100" / "11.phh"]


def pokeraudit(
    env: dict[str, str], *args: str | Path, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(POKERAUDIT), *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env
    )


@pytest.fixture
def env(kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase) -> dict[str, str]:
    return {
        **os.environ,
        "KAFKA_BOOTSTRAP_SERVERS": kafka_bootstrap,
        "DATABASE_URL": pg_database.url,
        "POKERAUDIT_TOPIC": topic_factory(partitions=3),
        "POKERAUDIT_REJECTIONS_TOPIC": topic_factory(partitions=3),
        "POKERAUDIT_CHECKPOINTS_TOPIC": topic_factory(partitions=1),
        "POKERAUDIT_PARTITIONS": "3",
    }


def rejections_on_topic(bootstrap: str, topic: str) -> list[dict[str, object]]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, group_id=None)
    try:
        parts = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())]
        consumer.assign(parts)
        consumer.seek_to_beginning(*parts)
        ends = consumer.end_offsets(parts)
        found: list[dict[str, object]] = []
        while any(consumer.position(tp) < ends[tp] for tp in parts):
            for messages in consumer.poll(timeout_ms=1000).values():
                found += [json.loads(m.value) for m in messages]
        return found
    finally:
        consumer.close()


def change_one_digit(state: bytes) -> bytes:
    """The same stored event with one byte changed: the first digit of its payload, plus one."""
    at = state.index(b'"payload"')
    digit = next(i for i in range(at, len(state)) if chr(state[i]).isdigit())
    return state[:digit] + bytes([ord("0") + (state[digit] - ord("0") + 1) % 10]) + state[digit + 1 :]


def test_published_hands_are_judged_once_on_kafka_and_postgres_and_a_changed_byte_is_caught(
    env: dict[str, str], pg_database: PgDatabase
) -> None:
    published = pokeraudit(env, "publish", "--quiet", "--competition", "wsop-43", *HANDS)
    assert published.returncode == 0, published.stderr
    n = int(re.search(r"published (\d+) events", published.stdout).group(1))  # type: ignore[union-attr]
    assert n > 50

    judged = pokeraudit(env, "referee", "--idle-exit", "3")
    assert judged.returncode == 0, judged.stderr
    assert json.loads(judged.stdout) == {"judged": n}

    status = json.loads(pokeraudit(env, "status", "--json").stdout)
    assert status["lag"] == 0 and all(p["lag"] == 0 for p in status["partitions"])
    assert (status["accepted"], status["rejected"]) == (n - 1, 1)

    # Publishing the same hands again changes nothing: every id already has its stored outcome.
    assert pokeraudit(env, "publish", "--quiet", "--competition", "wsop-43", *HANDS).returncode == 0
    assert json.loads(pokeraudit(env, "referee", "--idle-exit", "3").stdout) == {"judged": n}
    again = json.loads(pokeraudit(env, "status", "--json").stdout)
    assert (again["accepted"], again["rejected"], again["lag"]) == (n - 1, 1, 0)

    rejections = rejections_on_topic(env["KAFKA_BOOTSTRAP_SERVERS"], env["POKERAUDIT_REJECTIONS_TOPIC"])
    assert len(rejections) == 1
    (rejection,) = rejections
    assert rejection["kind"] == "illegal" and str(rejection["rule"]).startswith("bfsp 4.7.3")
    # the razz hand, at the table and number the importer gave it (the WSOP day's hands are one table)
    refused = json.loads(str(rejection["record"]))
    (razz,) = [p for p in seat_hands(list(load_hands(HANDS))) if Path(p.hand.file).name == RAZZ.name]
    assert (refused["table_id"], refused["hand_id"]) == (razz.table_id, str(razz.hand_number))

    verified = pokeraudit(env, "verify")
    assert verified.returncode == 0 and "every chain holds" in verified.stdout, verified.stdout

    with psycopg.connect(pg_database.url, autocommit=True) as db:
        rows = db.execute(
            "SELECT notification_id, originator_id, originator_version, state FROM pokeraudit_events"
            " ORDER BY notification_id"
        ).fetchall()
        assert len(rows) > n
        for notification_id, stream, version, state in (rows[1], rows[len(rows) // 2], rows[-1]):
            original = bytes(state)
            db.execute(
                "UPDATE pokeraudit_events SET state = %s WHERE notification_id = %s",
                (change_one_digit(original), notification_id),
            )
            broken = pokeraudit(env, "verify")
            assert broken.returncode == 1, broken.stdout
            assert f"stream {stream} version {version} (notification {notification_id})" in broken.stdout
            db.execute(
                "UPDATE pokeraudit_events SET state = %s WHERE notification_id = %s",
                (original, notification_id),
            )
            assert pokeraudit(env, "verify").returncode == 0


def test_two_referee_processes_share_the_partitions_and_each_record_is_judged_once(env: dict[str, str]) -> None:
    published = 0
    for competition in ("wsop-a", "wsop-b", "wsop-c", "wsop-d"):  # keys spread over the three partitions
        out = pokeraudit(env, "publish", "--quiet", "--competition", competition, *HANDS)
        assert out.returncode == 0, out.stderr
        published += int(re.search(r"published (\d+) events", out.stdout).group(1))  # type: ignore[union-attr]

    judged = pokeraudit(env, "referee", "--processes", "2", "--idle-exit", "4")
    assert judged.returncode == 0, judged.stderr
    report = json.loads(judged.stdout)
    assert report["judged"] == published and len(report["by_process"]) == 2
    status = json.loads(pokeraudit(env, "status", "--json").stdout)
    assert (status["accepted"], status["rejected"], status["lag"]) == (published - 4, 4, 0)  # one razz raise each
    assert pokeraudit(env, "verify").returncode == 0


def test_a_referee_stopped_by_sigterm_finishes_its_batch_and_reports(env: dict[str, str]) -> None:
    out = pokeraudit(env, "publish", "--quiet", "--competition", "wsop-43", *HANDS)
    n = int(re.search(r"published (\d+) events", out.stdout).group(1))  # type: ignore[union-attr]
    referee = subprocess.Popen([str(POKERAUDIT), "referee"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status = json.loads(pokeraudit(env, "status", "--json").stdout)
            if status["accepted"] + status["rejected"] == n:
                break
            time.sleep(0.5)
        referee.send_signal(signal.SIGTERM)
        stdout, _ = referee.communicate(timeout=30)
    finally:
        referee.kill()
    assert referee.returncode == 0 and json.loads(stdout) == {"judged": n}


def test_two_referees_anchor_their_heads_and_verify_catches_a_hand_cut_short(
    env: dict[str, str], pg_database: PgDatabase
) -> None:
    """Issue 11 §5 on Kafka and PostgreSQL: checkpoints written by two referee processes, a HandEnded deleted from
    the store (caught against the stored checkpoints), then the last checkpoint deleted too (caught against the
    log's copy on the checkpoints topic)."""
    for competition in ("wsop-a", "wsop-b", "wsop-c"):
        assert pokeraudit(env, "publish", "--quiet", "--competition", competition, *HANDS).returncode == 0
    judged = pokeraudit(env, "referee", "--processes", "2", "--idle-exit", "4")
    assert judged.returncode == 0, judged.stderr
    clean = pokeraudit(env, "verify", "--json")
    assert clean.returncode == 0, clean.stdout
    report = json.loads(clean.stdout)
    assert report["checkpoints"] >= 2 and report["published_checkpoints"] >= report["checkpoints"]

    with psycopg.connect(pg_database.url, autocommit=True) as db:
        ends = db.execute(
            "SELECT notification_id, originator_id FROM pokeraudit_events WHERE topic LIKE '%Hand.HandEnded'"
            " ORDER BY notification_id"
        ).fetchall()
        db.execute("DELETE FROM pokeraudit_events WHERE notification_id = %s", (ends[0][0],))
        cut = pokeraudit(env, "verify", "--json")
        assert cut.returncode == 1, cut.stdout
        (found,) = json.loads(cut.stdout)["breaks"]
        assert (found["kind"], found["event_type"], found["stream"]) == ("truncated", "HandEnded", str(ends[0][1]))
        assert found["competition_id"].startswith("wsop-") and found["table_id"] and found["hand_id"]
        text = pokeraudit(env, "verify")
        assert text.returncode == 1 and "truncated: HandEnded" in text.stdout

        last = db.execute(
            "SELECT notification_id FROM pokeraudit_events WHERE topic LIKE '%HeadsAnchored'"
            " ORDER BY notification_id DESC LIMIT 1"
        ).fetchone()
        db.execute("DELETE FROM pokeraudit_events WHERE notification_id = %s", (last[0],))
        both = json.loads(pokeraudit(env, "verify", "--json").stdout)["breaks"]
        assert "checkpoint" in {b["kind"] for b in both} and "truncated" in {b["kind"] for b in both}
