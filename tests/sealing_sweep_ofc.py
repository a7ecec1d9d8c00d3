"""The sealing sweep's OFC world (tests/sealing_sweep.py): an Open-Face Chinese table (bfsp 8) whose secrets are a
round's discards and a fantasy hand still being played.

* **round 1**, scored: Ann (seat 1) and Bob (seat 2, the button) set their 13 cards; Ann's QQ on top earns her
  fantasy. Their rows are public once the round is over; their discards (one a later deal each) never are, but to
  those who see an ended round's every card (the judges, the integrity team, the federation, the table's dealer).
* **round 2**, being played: Ann in fantasy is dealt 14 cards and sets 13 (discarding one); then Bob is dealt his
  first five. Ann's hand and discard and Bob's unset cards are seen by the judges and the table's dealer only.

A card of one round is never a secret of the other (a fresh deck each round: round 2 is dealt the 18 cards round 1
left, and Bob's fifth card is one of round 1's rows, public), so each secret has one set of readers.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from uuid import NAMESPACE_URL, uuid5

from domain.cards import Card, parse_cards
from domain.ofc.events import OfcCardsDealt, OfcCardsSet, OfcPlayer, OfcReported, OfcRoundStarted
from domain.roles import Role
from ingest.envelope import RecordedBy, encode, make_envelope

COMPETITION = "ofc-open-2026"
TABLE = "ofc-1"
DEALER = RecordedBy(person="dealer-ofc", role=Role.DEALER)
AT = datetime(2026, 11, 29, 14, 0, tzinfo=UTC)
PLAYERS = (OfcPlayer(1, "Ann"), OfcPlayer(2, "Bob"))


def _c(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def _set(seat: int, bottom: str = "", middle: str = "", top: str = "", discarded: str = "") -> OfcCardsSet:
    return OfcCardsSet(seat, _c(bottom), _c(middle), _c(top), _c(discarded))


#: each street of round 1: (seat, dealt, its setting); Ann is position 1, Bob the button
ROUND_1 = (
    (1, "QhQdKcKdAc", _set(1, bottom="Ac", middle="KcKd", top="QhQd")),
    (2, "8h8d9c9dJh", _set(2, bottom="Jh", middle="9c9d", top="8h8d")),
    (1, "AdAs2h", _set(1, bottom="AdAs", discarded="2h")),
    (2, "JdJs6c", _set(2, bottom="JdJs", discarded="6c")),
    (1, "2c3s3h", _set(1, middle="3s", top="2c", discarded="3h")),
    (2, "Jc3c6d", _set(2, bottom="Jc3c", discarded="6d")),
    (1, "4h5d4c", _set(1, middle="4h5d", discarded="4c")),
    (2, "ThTc7d", _set(2, middle="ThTc", discarded="7d")),
    (1, "6h7c5c", _set(1, bottom="6h7c", discarded="5c")),
    (2, "2s2d7h", _set(2, middle="2d", top="2s", discarded="7h")),
)
ROUND_1_DISCARDS = ("2h", "6c", "3h", "6d", "4c", "7d", "5c", "7h")
#: round 2: Ann's fantasy (14 cards, 13 set, one discarded), then Bob's first five: four cards round 1 left and
#: round 1's Qh (public: Ann's top row)
FANTASY = "4s5s6s7s8s9sTsQsKs5h9hKhAh3d"
FANTASY_SET = _set(1, bottom="4s5s6s7s8s", middle="KhAh9hQsKs", top="5h9s3d", discarded="Ts")
BOB_DEALT = "4d8cTdQcQh"


def rounds() -> list[tuple[OfcRoundStarted, list[OfcReported]]]:
    first = OfcRoundStarted(TABLE, 1, 2, PLAYERS)
    events: list[OfcReported] = []
    for seat, dealt, setting in ROUND_1:
        events += [OfcCardsDealt(seat, _c(dealt)), setting]
    second = OfcRoundStarted(TABLE, 2, 1, PLAYERS, fantasy=("Ann",))
    live: list[OfcReported] = [
        OfcCardsDealt(1, _c(FANTASY)), FANTASY_SET, OfcCardsDealt(2, _c(BOB_DEALT)),
    ]
    return [(first, events), (second, live)]


def scenario() -> list[tuple[bytes, bytes]]:
    out = []
    for started, events in rounds():
        for seq, event in enumerate([started, *events]):
            envelope = make_envelope(
                event,
                event_id=uuid5(NAMESPACE_URL, f"sweep/{COMPETITION}/{TABLE}/{started.round_number}/{seq}"),
                competition_id=COMPETITION,
                table_id=TABLE,
                hand_id=str(started.round_number),
                seq=seq,
                recorded_by=DEALER,
                occurred_at=AT + timedelta(hours=started.round_number, seconds=seq),
            )
            out.append((COMPETITION.encode(), encode(envelope)))
    return out


def public_cards() -> set[str]:
    """Round 1's rows (shown once it was scored)."""
    return {
        str(card) for _, _, setting in ROUND_1 for card in (*setting.bottom, *setting.middle, *setting.top)
    }


def live_secrets() -> Iterator[tuple[str, str]]:
    for card in _c(FANTASY):
        yield str(card), "Ann's fantasy hand, being played"
    for card in _c(BOB_DEALT):
        yield str(card), "Bob's cards dealt and not set yet"
