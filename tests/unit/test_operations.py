"""The operator's side, without services: JSON-lines logs, the settings logged at start, rate limits, a log
behind the store, the projector's follow loop through an outage, the start refusals and warnings of serve."""

from __future__ import annotations

import json
import logging
import threading

import psycopg
import pytest

from api.cli_serve import production_refusal, start_warnings
from api.follow import RETRIES, follow
from api.limits import SlidingMinute
from api.logs import JsonLines, configure
from api.observe import loggable
from api.settings import Settings
from ingest.behind import LogBehindStore, partitions_behind

PRODUCTION = {"KAFKA_BOOTSTRAP_SERVERS": "kafka:9092", "DATABASE_URL": "postgresql://u:pw@db:5432/pokeraudit"}


def test_a_log_line_is_one_json_object_with_the_extra_fields_as_keys() -> None:
    record = logging.LogRecord("pokeraudit.referee", logging.INFO, "x.py", 1, "partitions %s", ("assigned",), None)
    record.partitions = [0, 2]
    line = json.loads(JsonLines().format(record))
    assert line["level"] == "info" and line["logger"] == "pokeraudit.referee"
    assert line["message"] == "partitions assigned" and line["partitions"] == [0, 2]
    assert line["ts"].endswith("Z")


def test_the_web_pages_in_process_reads_write_no_line_at_info() -> None:
    # httpx logs each request at info; the pages read the API in-process through it, ten a second per live page
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        configure("info")
        assert not logging.getLogger("httpx").isEnabledFor(logging.INFO)
        assert logging.getLogger("httpx").isEnabledFor(logging.WARNING)
        assert logging.getLogger("pokeraudit.api").isEnabledFor(logging.INFO)
    finally:
        root.handlers[:], root.level = handlers, level
        logging.getLogger("httpx").setLevel(logging.NOTSET)


def test_the_settings_logged_at_start_leave_the_secrets_out() -> None:
    fields = loggable(Settings(**PRODUCTION, POKERAUDIT_JWT_SECRET="x" * 40))
    assert fields["jwt_secret"] == "set" and "x" * 40 not in json.dumps(fields)
    assert fields["database_url"] == "postgresql://u:***@db:5432/pokeraudit"


def test_a_sliding_minute_lets_so_many_acts_in_and_tells_how_long_to_wait() -> None:
    now = [0.0]
    limit = SlidingMinute(2, clock=lambda: now[0])
    assert limit.wait_for("a") == 0 and limit.wait_for("a") == 0
    assert limit.wait_for("a") == pytest.approx(60.0)
    assert limit.wait_for("b") == 0
    now[0] = 60.5
    assert limit.wait_for("a") == 0
    assert SlidingMinute(0).wait_for("a") == 0  # 0: no limit


def test_a_log_ending_before_what_the_store_judged_is_behind_it() -> None:
    tracked = {0: 99, 1: 4, 2: None}
    behind = partitions_behind({0: 100, 1: 3, 2: 0}, tracked.get)
    assert [(b.partition, b.log_end_offset, b.tracked_offset) for b in behind] == [(1, 3, 4)]
    message = str(LogBehindStore("pokeraudit.events", behind))
    assert "partition 1" in message and "docs/OPERATIONS.md" in message
    assert partitions_behind({0: 5}, lambda p: None) == []


class Projector:
    """Projects ``left`` events, after failing once as a PostgreSQL restart does."""

    opened = 0

    def __init__(self, stop: threading.Event, fail: bool) -> None:
        Projector.opened += 1
        self.stop, self.fail = stop, fail

    def catch_up(self) -> int:
        if self.fail:
            raise psycopg.errors.AdminShutdown("terminating connection due to administrator command")
        self.stop.set()
        return 7

    def lag(self) -> int:
        return 0

    def poison_count(self) -> int:
        return 0

    def close(self) -> None:
        pass


def test_the_projector_is_opened_again_after_an_outage_and_goes_on() -> None:
    stop = threading.Event()
    before = RETRIES.labels("postgresql")._value.get()
    first = [True]

    def opened() -> Projector:
        fail, first[0] = first[0], False
        return Projector(stop, fail)

    Projector.opened = 0
    assert follow(opened, stop, lambda: None) == 7
    assert Projector.opened == 2
    assert RETRIES.labels("postgresql")._value.get() == before + 1


def test_serve_refuses_a_short_secret_in_production_and_warns_of_public_reads() -> None:
    assert "at least 32 bytes" in production_refusal(Settings(**PRODUCTION, POKERAUDIT_JWT_SECRET="k3y"))
    assert "must be set" in production_refusal(Settings(**PRODUCTION))
    assert production_refusal(Settings(**PRODUCTION, POKERAUDIT_JWT_SECRET="k" * 32)) == ""
    assert production_refusal(Settings(POKERAUDIT_JWT_SECRET="k3y")) == ""  # the embedded mode is not production
    public = Settings(**PRODUCTION, POKERAUDIT_JWT_SECRET="k" * 32, POKERAUDIT_PUBLIC_READ="true")
    assert "POKERAUDIT_PUBLIC_READ" in start_warnings(public)[0]
    assert start_warnings(Settings(POKERAUDIT_PUBLIC_READ="true")) == []


def test_batch_summaries_are_logged_at_most_once_a_partition_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    import uuid

    from ingest.metrics import BatchSummaries
    from ingest.referee import Verdict

    summaries = BatchSummaries(every=3600.0)
    verdicts = [Verdict(0, n, uuid.uuid4(), "accepted") for n in range(3)]
    with caplog.at_level(logging.INFO, logger="pokeraudit.referee"):
        for _ in range(50):
            summaries.observe(0, verdicts, 0.01, lag=7)
            summaries.observe(1, verdicts[:1], 0.01, lag=0)
    lines = [r for r in caplog.records if r.getMessage() == "batches judged"]
    # the first batch of each partition is said at once; the next 49 wait for the interval
    assert sorted(r.partition for r in lines) == [0, 1]  # type: ignore[attr-defined]
    first = next(r for r in lines if r.partition == 0)  # type: ignore[attr-defined]
    assert (first.batches, first.judged, first.accepted, first.lag) == (1, 3, 3, 7)  # type: ignore[attr-defined]
    summaries.every = 0.0
    with caplog.at_level(logging.INFO, logger="pokeraudit.referee"):
        summaries.observe(0, verdicts, 0.01, lag=0)
    last = [r for r in caplog.records if r.getMessage() == "batches judged"][-1]
    assert (last.batches, last.judged) == (50, 150)  # type: ignore[attr-defined]  # the 49 held back, and this one


@pytest.mark.parametrize("argv", [["referee"], ["projections", "run", "--follow"], ["serve"]])
def test_every_long_running_command_takes_a_log_level(argv: list[str]) -> None:
    from api.cli import build_parser

    assert build_parser().parse_args([*argv, "--log-level", "debug"]).log_level == "debug"
    with pytest.raises(SystemExit):
        build_parser().parse_args([*argv, "--log-level", "chatty"])


@pytest.mark.parametrize("script", ["kafka/kafka.sh", "postgres/postgres.sh"])
def test_the_deploy_scripts_help_names_both_modes(script: str) -> None:
    import subprocess
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "deploy" / script
    done = subprocess.run(["bash", str(path), "help"], capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr
    assert "throw-away" in done.stdout and "persistent" in done.stdout
    assert ("KAFKA_DATA_DIR" if "kafka" in script else "POSTGRES_DATA_DIR") in done.stdout
    assert "keeps it" in done.stdout or "keeps" in done.stdout


def test_until_reachable_waits_out_failures_logging_each_and_stops_when_told(caplog: pytest.LogCaptureFixture) -> None:
    from ingest.runners import until_reachable

    attempts: list[int] = []
    counted: list[str] = []

    def attempt() -> str:
        attempts.append(1)
        if len(attempts) < 3:
            raise psycopg.OperationalError("connection refused")
        return "open"

    stop = threading.Event()
    with caplog.at_level(logging.WARNING, logger="pokeraudit.referee"):
        assert until_reachable(attempt, stop, "opening the store", count=counted.append) == "open"
    retries = [r for r in caplog.records if "waiting for postgresql" in r.getMessage()]
    assert len(retries) == 2 and [r.retry_in_s for r in retries] == [0.5, 1.0]  # type: ignore[attr-defined]
    assert counted == ["postgresql", "postgresql"]
    stop.set()
    assert until_reachable(attempt, stop, "opening the store") is None  # stopped: no attempt at all
    with pytest.raises(ValueError):  # not an outage: raised at once
        until_reachable(lambda: (_ for _ in ()).throw(ValueError("a bug")), threading.Event(), "x")


@pytest.mark.parametrize(("environment", "group"), [({}, "pokeraudit-referee"),
                                                    ({"POKERAUDIT_REFEREE_GROUP": "replay-2026-12"}, "replay-2026-12")])
def test_the_referee_group_setting_reaches_the_runner(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], group: str
) -> None:
    """The group the runner's consumer joins is ``POKERAUDIT_REFEREE_GROUP`` (a replay's own group takes no
    partitions from the live referees); the consumer itself is not opened here (no broker in a unit test)."""
    from api.bootstrap import referee_runner
    from ingest.runners import KafkaRefereeRunner

    opened: list[str] = []
    monkeypatch.setattr(KafkaRefereeRunner, "_new_consumer", lambda runner: opened.append(runner.group_id))
    for name in ("POKERAUDIT_REFEREE_GROUP", *environment):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    runner = referee_runner(Settings(**PRODUCTION), referee=None)  # type: ignore[arg-type]
    assert runner.group_id == group and opened == [group]


@pytest.mark.parametrize("blank", ["", " ", "replay 2026"])
def test_a_blank_referee_group_is_refused_naming_the_setting(blank: str) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="POKERAUDIT_REFEREE_GROUP"):
        Settings(**PRODUCTION, POKERAUDIT_REFEREE_GROUP=blank)
