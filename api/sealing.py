"""Who may see which hole cards (DESIGN decision 8; bfsp 5.9.2).

While a hand is played, its hole cards are sealed ("??") from everyone but the judges, the chief judge and
the dealer of its own table; a face-up card (stud's up-cards) and a hand tabled before the showdown are
seen by all. Once the hand has ended (or was voided), the integrity team, the federation and the judges
see every card; everyone else sees the hands that were shown, never a hand mucked unshown (bfsp 5.9.2: a
mucked hand must not be revealed) nor a folded one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from api.auth import Principal
from domain.roles import Role
from projections import views

SEALED = "??"

#: see every live hole card, at every table
LIVE_CARDS: frozenset[Role] = frozenset({Role.JUDGE, Role.CHIEF_JUDGE})
#: see every hole card once the hand is over
ENDED_CARDS: frozenset[Role] = frozenset({Role.INTEGRITY, Role.CHIEF_JUDGE, Role.JUDGE, Role.FEDERATION})

#: the events of a hand's history that carry one seat's hole cards, and their fields of cards
HOLE_CARD_FIELDS: dict[str, tuple[str, ...]] = {
    "HoleCardsDealt": ("cards",),
    "MissingCardDealt": ("cards",),
    "CardsDiscarded": ("discarded", "drawn"),
    "ExposedCardReplaced": ("card",),
}


def sees_every_card(principal: Principal, hand_over: bool, table_id: str) -> bool:
    if principal.role is Role.DEALER and principal.table == table_id:
        return True
    return principal.role in (ENDED_CARDS if hand_over else LIVE_CARDS)


def seal(cards: Sequence[str], face_up: Sequence[bool] = ()) -> list[str]:
    """``cards`` with every face-down one sealed."""
    return [card if i < len(face_up) and face_up[i] else SEALED for i, card in enumerate(cards)]


def seal_hand(hand: views.Hand, principal: Principal) -> views.Hand:
    """The hand as ``principal`` may see it."""
    if sees_every_card(principal, hand.status != "in_progress", hand.table_id):
        return hand
    seats = [
        seat if seat.shown else seat.model_copy(update={"hole_cards": seal(seat.hole_cards, seat.face_up)})
        for seat in hand.seats
    ]
    return hand.model_copy(update={"seats": seats})


def seal_history(
    entries: list[views.HistoryEntry], hand: views.Hand, principal: Principal
) -> list[views.HistoryEntry]:
    if sees_every_card(principal, hand.status != "in_progress", hand.table_id):
        return entries
    shown = _shown_seats(hand)
    return [_seal_entry(entry, shown) for entry in entries]


def _seal_entry(entry: views.HistoryEntry, shown: Collection[int]) -> views.HistoryEntry:
    fields = HOLE_CARD_FIELDS.get(entry.type)
    if fields is None or entry.payload.get("seat") in shown:
        return entry
    payload: dict[str, Any] = dict(entry.payload)
    face_up = payload.get("face_up") or ()
    for name in fields:
        value = payload.get(name)
        if isinstance(value, list):
            payload[name] = seal(value, face_up)
        elif isinstance(value, str):
            payload[name] = SEALED
    return entry.model_copy(update={"payload": payload})


def seal_showdown(showdown: views.Showdown, hand: views.Hand, principal: Principal) -> views.Showdown:
    """Shown hands are public; the cards of a hand mucked unshown only to those who see every card."""
    if sees_every_card(principal, hand.status != "in_progress", hand.table_id):
        return showdown
    mucked = [m.model_copy(update={"cards": None}) for m in showdown.mucked_unshown]
    return showdown.model_copy(update={"mucked_unshown": mucked})


def _shown_seats(hand: views.Hand) -> set[int]:
    return {seat.seat for seat in hand.seats if seat.shown}
