"""The verdicts' read model (``rm_verdicts``, projections/verdicts.py): for every record the referee answered, the
answer as the stream the store answered it in holds it — the federation's acts, a hand's events, a rejection
with its rule and reason, a conflicting duplicate's rejection beside the first answer — projected exactly once
page by page and the same when rebuilt (in one process or several), and read back by the API's verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

import pytest
from embedded_referee import Pipeline
from federation_records import DEALER, JUDGE, Records, at, opening, play_to_the_end
from read_model_checks import everything

from api.bootstrap import open_projector
from api.verdicts import Outcome, await_projected, verdicts
from domain.competition.events import OfficialAppointed
from domain.rejections import RejectionKind, rejection_log_id
from domain.roles import Role
from ingest.envelope import Envelope, parse_record
from projections import schema
from projections.database import SqliteReadDatabase
from projections.parallel import Where
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.unit


def decode_envelope(raw: bytes) -> Envelope:
    return parse_record(raw)[0]


def _judged(tmp_path: Path) -> tuple[Pipeline, list[tuple[bytes, bytes]], tuple[bytes, bytes], tuple[bytes, bytes]]:
    """A competition played to its end; a dealer's appointment of a judge (refused: a dealer appoints nobody);
    and the first record again with other content under its id (a conflicting duplicate)."""
    pipeline = Pipeline(tmp_path)
    records = Records()
    played = [*opening(records), *play_to_the_end(records)]
    refused = records.record(OfficialAppointed("j-new", Role.JUDGE), DEALER, at(1))
    key, raw = played[0]
    conflicting = (key, raw.replace(b"{", b"{ ", 1))
    verdicts_of = pipeline.judge([*played, refused, conflicting])
    assert [v.outcome for v in verdicts_of[:-2]] == ["accepted"] * len(played)
    assert [v.outcome for v in verdicts_of[-2:]] == ["rejected", "rejected"]
    return pipeline, played, refused, conflicting


def test_every_answer_is_projected_from_the_stream_it_was_answered_in(tmp_path: Path) -> None:
    pipeline, played, refused, conflicting = _judged(tmp_path)
    projector = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"), page=3)
    projector.catch_up()
    models = ReadModels(projector.database)
    ids = [decode_envelope(raw).event_id for _, raw in [*played, refused]]
    answers = pipeline.store.answers(ids)
    found = models.verdicts({str(i): str(stream) for i, (stream, _) in answers.items()})
    assert set(found) == {str(i) for i in ids}
    hands = {str(s) for s, in projector.database.query("SELECT hand_id FROM rm_hands")}
    assert {str(s) for s, _ in answers.values()} & hands, "hands' answers are among them (read from their history)"
    for event_id, (stream, outcome) in answers.items():
        answer = found[str(event_id)][str(stream)]
        assert answer.rejected == (outcome == "rejected")
        envelope = next(e for e in map(decode_envelope, (raw for _, raw in [*played, refused])) if e.event_id == event_id)
        assert (answer.competition, answer.recorded_by, answer.role, answer.seq) == (
            envelope.competition_id, envelope.recorded_by.person, envelope.recorded_by.role.value, envelope.seq,
        )
    envelope = decode_envelope(refused[1])
    [rejection] = found[str(envelope.event_id)].values()
    listed, _ = models.rejections(envelope.competition_id, None, 0, 100)
    [in_the_log] = [r for r in listed if r.event_id == str(envelope.event_id)]
    assert (rejection.kind, rejection.rule, rejection.reason, rejection.field) == (
        in_the_log.kind, in_the_log.rule, in_the_log.reason, in_the_log.field,
    )
    assert (rejection.recorded_by, rejection.role, rejection.event_type) == (
        DEALER.person, DEALER.role.value, "OfficialAppointed",
    )
    assert rejection.reason and rejection.stream == str(rejection_log_id(envelope.competition_id))

    first = decode_envelope(conflicting[1])
    both = {
        stream: answer for stream, answer in ReadModels(projector.database).verdicts(
            {str(first.event_id): str(rejection_log_id(first.competition_id))}
        )[str(first.event_id)].items()
    } | found[str(first.event_id)]
    assert sorted(v.rejected for v in both.values()) == [False, True], "the first answer and the duplicate's"
    [duplicate] = [v for v in both.values() if v.rejected]
    assert duplicate.kind == RejectionKind.CONFLICTING_DUPLICATE.value


def test_projected_exactly_once_and_the_same_when_rebuilt_in_one_process_or_several(tmp_path: Path) -> None:
    pipeline, *_ = _judged(tmp_path)
    followed = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"), page=5)
    followed.catch_up()
    assert followed.catch_up() == 0
    once = everything(followed.database)
    assert once[schema.VERDICTS], "the verdicts were projected"
    # a second projector on the same read models finds every page written: nothing twice
    again = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"), page=5)
    again.catch_up()
    assert everything(again.database) == once
    rebuilt = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "rebuilt.sqlite"))
    rebuilt.rebuild()
    assert everything(rebuilt.database) == once
    pipeline.store.close()
    where = Where(None, tmp_path)
    several = open_projector(where, page=4)
    try:
        several.rebuild(workers=2)
        assert everything(several.database)[schema.VERDICTS] == once[schema.VERDICTS]
    finally:
        several.close()


def test_the_apis_verdicts_read_the_read_model(tmp_path: Path) -> None:
    pipeline, played, refused, conflicting = _judged(tmp_path)
    projector = Projector(pipeline.store, SqliteReadDatabase(tmp_path / "read.sqlite"))
    models = ReadModels(projector.database)
    first = parse_record(played[0][1])[0].event_id
    assert await_projected(pipeline.store, models, [first], timeout=0.1) is None, "not projected yet: no verdict"
    projector.catch_up()
    accepted, rejected = decode_envelope(played[1][1]), decode_envelope(refused[1])
    by_another = decode_envelope(played[2][1]).model_copy(update={"recorded_by": JUDGE})
    asked = [accepted, rejected, by_another]
    answers = await_projected(pipeline.store, models, [e.event_id for e in asked], timeout=0)
    assert answers is not None and answers.projected()
    found = verdicts(pipeline.store, answers, asked)
    assert [v.outcome for v in found] == [Outcome.ACCEPTED, Outcome.REJECTED, Outcome.REJECTED]
    assert found[1].kind == "illegal" and found[1].reason and found[1].rule
    assert found[2].kind == "duplicate", "an id is no key to another recorder's verdict"
    assert isinstance(found[0].event_id, UUID)
    assert json.loads(found[1].model_dump_json())["outcome"] == "rejected"
