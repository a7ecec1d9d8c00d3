"""Hostile records for the property tests (issue 11 §1): random envelopes of every event type in the catalog, some
shaped as the catalog says with extreme numbers, some with wrong types, unknown or missing fields, loose cards,
impossible times and texts no field should hold — appended to the log as any producer could, past the API.

A competition in progress comes first (:func:`scenario`: the Minsk Open of tests/federation_records.py, its
officials appointed, players drawn, a violation recorded and hand 1 dealt), so that random records meet real
aggregates: a hand to continue, officials to act, a case to penalise.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Iterator
from datetime import date, datetime
from enum import Enum
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from federation_records import (
    CHIEF,
    COMPETITION,
    DEALER,
    FEDERATION,
    JUDGE,
    PLAYERS,
    SECRETARY,
    Records,
    all_in_hand,
    at,
    opening,
    table,
)
from hypothesis import strategies as st

from domain.cards import Card
from domain.hand.events import ReportedEvent
from domain.roles import Role
from ingest.envelope import CATALOG
from ingest.publish import hand_records

#: the hand of the scenario left in progress: its start, blinds and hole cards are on the log
HAND_IN_PROGRESS = 6
COMPETITIONS = (COMPETITION, "other-cup")
PERSONS = (FEDERATION.person, CHIEF.person, SECRETARY.person, JUDGE.person, DEALER.person, "stranger")
EXTREME_INTS = (0, -1, 1, 2, 9, 10**15, 10**15 + 1, -(10**15) - 1, 2**31, 2**53 + 1, 2**63, -(2**63) - 1, 2**64, 2**70, 10**30)
CARD_NAMES = ("As", "Kd", "Th", "2c", "Qs", "Jh", "9c", "4d")
LOOSE_CARDS = ("10h", "as", "AS", "1h", "??", "", "Xx")
TIMES = (
    "2026-05-09T12:30:00Z", "2026-05-09T14:00:00+03:00", "2026-05-10T09:00:00Z", "1970-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
)
WRONG_TIMES = ("2026-05-09T12:30:00", "yesterday", "", "2026-13-45T99:00:00Z")


def scenario() -> list[tuple[bytes, bytes]]:
    """The competition in progress the hostile records arrive at."""
    records = Records()
    out = list(opening(records))
    hand: list[ReportedEvent] = all_in_hand(1, "p01", "p02")[:HAND_IN_PROGRESS]
    out += hand_records(hand, COMPETITION, DEALER, at(10))
    return out


def wrong_value() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.sampled_from(EXTREME_INTS),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
        st.text(max_size=6),
        st.sampled_from(("3", "true", "10h", "as", "\ud800", "x" * 300, "NT", "bfsp")),
        st.just([]),
        st.just({}),
        st.lists(st.integers(-3, 3), max_size=3),
        st.just({"nested": [[[[[[[[[[[[[[1]]]]]]]]]]]]]]}),
    )


def _ints(name: str) -> st.SearchStrategy[int]:
    small = st.integers(0, 12) if name in ("seat", "button", "level", "hand_number", "table", "place") else st.integers(0, 20_000)
    return st.one_of(small, small, small, st.sampled_from(EXTREME_INTS))


def _texts(name: str) -> st.SearchStrategy[str]:
    known: tuple[str, ...] = ()
    if name in ("participant", "player", "athlete", "filer", "sanctioned"):
        known = PLAYERS
    elif name in ("person", "official", "authorised_by", "decided_by", "ordered_by"):
        known = PERSONS
    elif name in ("hand", "in_hand"):
        known = (f"{table()}/1", f"{table()}/2", "9/9", "nonsense")
    elif name in ("competition", "competition_id"):
        known = COMPETITIONS
    elif name == "table_id":
        known = (table(), "2")
    elif name == "rulebook":
        known = ("bfsp", "tda-2022", "house-rules")
    elif name == "variant":
        known = ("NT", "PO", "F7S", "ZZ")
    elif name in ("rule", "code"):
        known = ("bfsp 4.3", "7.1.2", "tda-2022 40", "x")
    elif name == "protest":
        known = ("1", "protest-1", "p")
    elif name in ("delegations",):
        known = ("draw", "misdeal", "balancing", "everything")
    plain = st.text(max_size=12)
    return st.one_of(st.sampled_from(known), st.sampled_from(known), plain) if known else plain


def shaped(tp: Any, name: str = "") -> st.SearchStrategy[Any]:
    """A JSON value of type ``tp`` as the catalog writes it (numbers may be extreme)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is type(None):
        return st.none()
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(shaped(a, name) for a in args))
    if origin is typing.Literal:
        return st.sampled_from(args)
    if origin in (tuple, list, frozenset, set):
        if origin is tuple and args and args[-1] is not Ellipsis:
            return st.tuples(*(shaped(a, name) for a in args)).map(list)
        return st.lists(shaped(args[0], name), max_size=4)
    if origin is dict:
        return st.dictionaries(_texts(name), shaped(args[1], name), max_size=3)
    if tp is bool:
        return st.booleans()
    if tp is int:
        return _ints(name)
    if tp is str:
        return _texts(name)
    if tp is Card:
        return st.sampled_from(CARD_NAMES)
    if tp is datetime:
        return st.sampled_from(TIMES)
    if tp is date:
        return st.sampled_from(("1990-01-01", "2026-05-09", "1900-01-01", "9999-12-31"))
    if isinstance(tp, type) and issubclass(tp, Enum):
        return st.sampled_from([e.value for e in tp])
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        return st.fixed_dictionaries({f.name: shaped(hints[f.name], f.name) for f in dataclasses.fields(tp)})
    return wrong_value()


@st.composite
def hostile(draw: st.DrawFn, tp: Any, name: str = "") -> Any:
    """A value of ``tp`` with its fields, at any depth, now and then of the wrong type, unknown or missing."""
    if draw(st.integers(0, 9)) == 0:
        return draw(wrong_value())
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        out = {f.name: draw(hostile(hints[f.name], f.name)) for f in dataclasses.fields(tp)}
        if out and draw(st.integers(0, 5)) == 0:
            out.pop(draw(st.sampled_from(sorted(out))))
        if draw(st.integers(0, 5)) == 0:
            out[draw(st.sampled_from(("extra", "dealer_mood", "seat ")))] = draw(wrong_value())
        return out
    if origin in (tuple, list) and args and (origin is list or args[-1] is Ellipsis):
        return draw(st.lists(hostile(args[0], name), max_size=4))
    if tp is Card:
        return draw(st.sampled_from(CARD_NAMES + LOOSE_CARDS))
    if tp is datetime:
        return draw(st.sampled_from(TIMES + WRONG_TIMES))
    return draw(shaped(tp, name))


_IDS = uuid5(NAMESPACE_URL, "https://pokeraudit/tests/hostile")


@st.composite
def hostile_record(draw: st.DrawFn, scenario_ids: tuple[UUID, ...] = ()) -> tuple[bytes, bytes]:
    """One record as a producer might put it on the log: the envelope and its payload of a catalog type."""
    kind = draw(st.sampled_from(("shaped", "shaped", "hostile", "hostile", "junk")))
    if kind == "junk":
        raw = draw(st.sampled_from((b"{not json", b"[]", b"null", b'{"event_id": 1}', b"[" * 5000 + b"]" * 5000,
                                    b'{"type": "HandStarted"}', "\ud800".encode("utf-8", "surrogatepass"))))
        return COMPETITION.encode(), raw
    type_name = draw(st.sampled_from(sorted(CATALOG)))
    payload = draw(shaped(CATALOG[type_name]) if kind == "shaped" else hostile(CATALOG[type_name]))
    of_a_hand = CATALOG[type_name].__module__.startswith("domain.hand") or draw(st.integers(0, 9)) == 0
    n = draw(st.integers(0, 10**9))
    event_id: Any = str(draw(st.sampled_from(scenario_ids))) if scenario_ids and draw(st.integers(0, 7)) == 0 else (
        str(uuid5(_IDS, str(n)))
    )
    envelope: dict[str, Any] = {
        "event_id": event_id,
        "competition_id": draw(st.sampled_from(COMPETITIONS)),
        "table_id": draw(st.sampled_from((table(), "2"))) if of_a_hand else None,
        "hand_id": draw(st.sampled_from(("1", "2", "x"))) if of_a_hand else None,
        "seq": draw(st.one_of(st.integers(HAND_IN_PROGRESS - 1, HAND_IN_PROGRESS + 2), st.just(0), st.sampled_from(EXTREME_INTS))),
        "type": type_name,
        "payload": payload,
        "recorded_by": {"person": draw(st.sampled_from(PERSONS)), "role": draw(st.sampled_from([r.value for r in Role]))},
        "occurred_at": draw(st.sampled_from(TIMES)),
        "rulebook": "bfsp",
    }
    if kind == "hostile":
        for field in draw(st.lists(st.sampled_from(sorted(envelope)), max_size=2)):
            envelope[field] = draw(wrong_value())
        if draw(st.integers(0, 6)) == 0:
            envelope["priority"] = "high"
    text = json.dumps(envelope, ensure_ascii=draw(st.booleans()))
    return str(envelope.get("competition_id")).encode("utf-8", "replace"), text.encode("utf-8", "surrogatepass")


def ids_of(records: list[tuple[bytes, bytes]]) -> tuple[UUID, ...]:
    return tuple(UUID(json.loads(value)["event_id"]) for _, value in records)


def get_routes(app: Any) -> Iterator[str]:
    """Every GET path of the API's OpenAPI schema."""
    for path, operations in app.openapi()["paths"].items():
        if "get" in operations:
            yield path
