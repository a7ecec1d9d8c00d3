"""Issue 13: after the competition ended, the last hand's challenge window showed open months later. The end is
the last stop of play: every window still open closes as at a break, a minute after the end (bfsp 5.9.1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from api.cli_simulate import CompetitionPublisher
from domain.competition.aggregate import Competition
from domain.errors import ProtestError
from domain.protests import ChallengeKind, ChallengeWindow, challenge, challenge_deadline
from domain.rulebooks import get_rulebook
from ingest.log import EmbeddedLog
from ingest.referee import Referee
from ingest.runners import drain_embedded
from ingest.simulator import simulate_competition
from ingest.store import Store, store_env
from projections import federation
from projections.database import SqliteReadDatabase
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit


def test_every_window_closes_a_minute_after_the_competition_ends(tmp_path: Path) -> None:
    simulation = simulate_competition(5, players=18, format="american", protests=False)
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=1)
    store = Store(env=store_env(None, str(tmp_path / "store.sqlite")))
    referee = Referee(store, "events")
    CompetitionPublisher(log, lambda: store, lambda: list(drain_embedded(log, referee))).publish(simulation)
    assert {v.outcome for v in drain_embedded(log, referee)} == {"accepted"}
    projector = Projector(store, SqliteReadDatabase(tmp_path / "read.sqlite"))
    projector.catch_up()
    projector.database.close()
    models = ReadModels(SqliteReadDatabase(tmp_path / "read.sqlite"))
    try:
        competition = federation.competition(store, simulation.competition_id)
        assert isinstance(competition, Competition) and competition.winner is not None
        ended = competition.ended_at
        assert ended is not None
        closes = ended + timedelta(seconds=get_rulebook("bfsp").dispute_seconds_at_break)
        just_after = federation.challenge_windows(store, models, simulation.competition_id, ended)
        long_after = federation.challenge_windows(store, models, simulation.competition_id, ended + timedelta(days=90))
    finally:
        models.database.close()
    assert just_after and all(w.open for w in just_after if w.closes_at == closes.isoformat())
    assert long_after and not any(w.open for w in long_after)
    assert all(w.closes_at is not None and w.closes_at <= closes.isoformat() for w in long_after)


def test_the_end_closes_a_window_the_next_hand_would_have_closed_and_never_reopens_one() -> None:
    book = get_rulebook("bfsp")
    awarded = datetime(2026, 3, 14, 20, 0, tzinfo=UTC)
    ended = awarded + timedelta(minutes=5)
    window = ChallengeWindow(awarded, competition_ended_at=ended)
    assert challenge_deadline(window, ChallengeKind.RESULT, book) == ended + timedelta(seconds=60)
    earlier = ChallengeWindow(awarded, next_hand_started_at=awarded + timedelta(seconds=30), competition_ended_at=ended)
    assert challenge_deadline(earlier, ChallengeKind.RESULT, book) == awarded + timedelta(seconds=30)
    challenge("T1/9", "p-4", ChallengeKind.RESULT, "misread", ended + timedelta(seconds=60), window, book)
    with pytest.raises(ProtestError, match="the competition ended at .*until 60 seconds after") as late:
        challenge("T1/9", "p-4", ChallengeKind.RESULT, "misread", ended + timedelta(seconds=61), window, book)
    assert late.value.rule == book.cite("dispute")
