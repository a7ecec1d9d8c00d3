"""Competition events stored by the code before its events were applied by type still load, unchanged.

``stored/competition_events_main.json`` was written by main at 49f17c2: real stored events of the Competition
stream (a simulated American, Olympic and 10-max competition judged by the referee into a store, and the acts
the aggregate's own tests record), each with the typed event it decoded to then. Read by today's code, each
must resolve to its event class by the same topic, decode to the same typed event, encode back to the very
payload, store back as the very bytes, and its link must verify; and the same simulated competitions must end
on the same chain head (every payload, meta, type and time the same, DESIGN decision 7).
"""

from __future__ import annotations

from typing import Any

import pytest

from competition.stored_events import assert_linked, fixture, stored_event
from domain.chain import canonical
from domain.competition.aggregate import STREAM_CATALOG, decode_recorded, recorded_event
from domain.competition.events import encode
from ingest.simulator import simulate_competition
from ingest.store import Store

pytestmark = pytest.mark.unit

FIXTURE = fixture("competition_events_main")
STORED: list[dict[str, Any]] = FIXTURE["stored"]


def test_the_fixture_holds_every_event_type_of_the_stream() -> None:
    stored = {row["topic"].rsplit(".", 1)[1] for row in STORED}
    encoded = {row["payload"]["type"] for row in FIXTURE["payloads"]}
    assert stored | encoded == set(STREAM_CATALOG)


@pytest.mark.parametrize("row", STORED, ids=lambda row: f"{row['topic'].rsplit('.', 1)[1]}-{row['originator_version']}")
def test_a_stored_event_reads_back_as_the_same_typed_event_and_the_same_bytes(store: Store, row: dict[str, Any]) -> None:
    event = store.mapper.to_domain_event(stored_event(row))
    name = row["topic"].rsplit(".", 1)[1]
    assert f"{type(event).__module__}:{type(event).__qualname__}" == row["topic"]
    typed = recorded_event(event)
    assert type(typed) is STREAM_CATALOG[name] and repr(typed) == row["decoded"]
    assert canonical(encode(typed)) == canonical(event.payload), "re-encoded, the payload is the very bytes"
    assert store.mapper.to_stored_event(event).state == row["state"].encode(), "stored again, the same bytes"
    assert_linked(event, name)


@pytest.mark.parametrize("row", FIXTURE["payloads"], ids=lambda row: row["payload"]["type"])
def test_an_encoded_floor_event_decodes_to_the_same_typed_event(row: dict[str, Any]) -> None:
    typed = decode_recorded(row["payload"])
    assert repr(typed) == row["decoded"] and encode(typed) == row["payload"]


@pytest.mark.parametrize("run", FIXTURE["runs"], ids=lambda run: f"{run['args']['format']}-{run['args']['players']}")
def test_a_simulated_competition_records_the_same_chain_as_before(run: dict[str, Any]) -> None:
    competition = simulate_competition(**run["args"]).book.competition
    assert (competition.version, competition.chain_head) == (run["version"], run["chain_head"])
