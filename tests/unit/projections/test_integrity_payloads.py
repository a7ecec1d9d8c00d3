"""Integrity's hand record read from the stored payloads (what the projector does) is the record read from the
decoded events (what scoring from the store does), on every shared hand put through the embedded referee."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from projection_setup import PHH_DIR, Pipeline

from domain.hand.codec import decode
from domain.hand.events import HandStarted
from domain.integrity.record import record_from_events, record_from_payloads
from projections.hand_projection import Stored
from projections.integrity.stored import domain_events

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[list[Stored]]]:
    if not (PHH_DIR / "data").is_dir():
        pytest.fail(f"the shared hand histories are not at {PHH_DIR}; set POKERAUDIT_PHH_DIR")
    pipeline = Pipeline(Path(tmp_path_factory.mktemp("shared")))
    try:
        pipeline.phh([PHH_DIR / "data"], "shared")
        streams: dict[str, list[Stored]] = {}
        for notification in pipeline.store.recorder.select_notifications(1, 10**6):
            if ":Hand." in notification.topic:
                event = pipeline.store.mapper.to_domain_event(notification)
                streams.setdefault(str(event.originator_id), []).append(Stored.of_event(event))
        yield list(streams.values())
    finally:
        pipeline.close()


def test_the_record_from_payloads_is_the_record_from_events(hands: list[list[Stored]]) -> None:
    compared = 0
    for events in hands:
        start = decode(events[0].payload)
        assert isinstance(start, HandStarted)
        stream = events[0].stream
        expected = record_from_events(domain_events(events), stream, "c", "")
        found = record_from_payloads(start, [e.payload for e in events[1:]], stream, "c", "")
        assert found == expected, stream
        compared += expected is not None
    # most shared hands are hold'em and ended: a test that compared only Nones would prove nothing
    assert compared > 2000


def test_a_hand_not_ended_or_not_holdem_has_no_record(hands: list[list[Stored]]) -> None:
    events = next(e for e in hands if decode(e[0].payload).variant == "NT")  # type: ignore[attr-defined]
    start = decode(events[0].payload)
    assert isinstance(start, HandStarted)
    assert record_from_payloads(start, [e.payload for e in events[1:-1] if e.type != "HandEnded"]) is None
    assert any(decode(e[0].payload).variant not in ("NT", "FT", "PT") for e in hands)  # type: ignore[attr-defined]
    for events in hands:
        start = decode(events[0].payload)
        if start.variant not in ("NT", "FT", "PT"):  # type: ignore[attr-defined]
            assert isinstance(start, HandStarted)
            assert record_from_payloads(start, [e.payload for e in events[1:]]) is None
            return
