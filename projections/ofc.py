"""OFC rounds and points as read (issue 16): each round of a competition's Open-Face Chinese tables, and each
player's points per round and over the event.

**Computed on read** from the store's OfcRound aggregates, as the federation's views are (projections/federation
.py): a competition's rounds are found by one query of the store's index of its streams (those opened by an
``OfcRoundStarted``) and each is the engine's own state of the round (:class:`domain.ofc.game.OfcGame`), so
nothing here re-decides a foul, a royalty or a point.

Cards come back as recorded — each player's rows, his discards, the cards he was dealt and has not set yet.
Sealing them for the caller is the API's business (api/routes/ofc.py, through api/sealing.py): the discards and
the unset cards are hidden until the round is over, and a player in fantasy's whole hand too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic
from pydantic import BaseModel

from domain.ofc.aggregate import OfcRound
from domain.ofc.events import OFC
from domain.ofc.rows import Row
from projections.stored import EventSource, iso

_ROUND_STARTED = get_topic(OfcRound.OfcRoundStarted)  # type: ignore[attr-defined]


class OfcRows(BaseModel):
    bottom: list[str]
    middle: list[str]
    top: list[str]


class OfcSeatView(BaseModel):
    seat: int
    player: str
    position: int
    fantasy: bool
    rows: OfcRows
    #: cards dealt and not set yet (sealed from others while the round is played)
    unset: list[str]
    #: the discards (sealed until the round is over)
    discarded: list[str]
    fouled: bool | None = None  # None until the round is scored
    foul: str = ""
    royalties: list[int] = []  # bottom, middle, top
    points: int | None = None
    earns_fantasy: bool = False
    may_repeat_fantasy: bool = False


class OfcPairView(BaseModel):
    first: int
    second: int
    rows: list[int]
    scoop: bool
    royalties: int
    points: int


class OfcRoundView(BaseModel):
    competition_id: str
    table_id: str
    round_number: int
    variant: str = OFC
    rulebook: str
    button: int
    status: str  # "in_progress" or "scored"
    scored_at: str | None = None  # when the last setting was recorded (ISO)
    redeals: int
    seats: list[OfcSeatView]
    pairs: list[OfcPairView]
    version: int
    chain_head: str


class OfcStanding(BaseModel):
    place: int
    player: str
    rounds: int
    points: int
    fouls: int
    royalties: int
    fantasies: int
    #: points per round, in round order at the player's table
    per_round: list[int]


class OfcEvent(BaseModel):
    competition_id: str
    variant: str = OFC
    rounds: list[OfcRoundView]
    standings: list[OfcStanding]


def round_view(competition_id: str, found: OfcRound) -> OfcRoundView:
    game = found.engine
    scored = {h.seat: h for h in game.scored.hands} if game.scored else {}
    seats = []
    for seat in game.order:
        hand = scored.get(seat.seat)
        seats.append(
            OfcSeatView(
                seat=seat.seat,
                player=seat.player,
                position=seat.position,
                fantasy=seat.fantasy,
                rows=OfcRows(**{row.value: [str(c) for c in seat.rows[row]] for row in Row}),
                unset=[str(c) for c in seat.pending or ()],
                discarded=[str(c) for c in seat.discards],
                fouled=None if hand is None else hand.fouled,
                foul="" if hand is None else hand.foul,
                royalties=[] if hand is None else list(hand.royalties),
                points=None if hand is None else hand.points,
                earns_fantasy=hand is not None and hand.earns_fantasy,
                may_repeat_fantasy=hand is not None and hand.may_repeat_fantasy,
            )
        )
    pairs = [
        OfcPairView(
            first=p.first,
            second=p.second,
            rows=list(p.rows),
            scoop=p.scoop,
            royalties=p.royalties,
            points=p.points,
        )
        for p in (game.scored.pairs if game.scored else ())
    ]
    return OfcRoundView(
        competition_id=competition_id,
        table_id=found.table_id,
        round_number=found.round_number,
        rulebook=game.rulebook.name,
        button=game.started.button,
        status="scored" if game.is_over else "in_progress",
        scored_at=found.modified_on.isoformat() if game.is_over else None,
        redeals=game.redeals,
        seats=seats,
        pairs=pairs,
        version=found.version,
        chain_head=found.chain_head,
    )


def ofc_rounds(store: EventSource, competition_id: str) -> list[OfcRoundView]:
    """Every OFC round of the competition, by table then round number."""
    views = []
    for stream in _rounds_of(store, competition_id):
        found: object = store.repository.get(stream)
        if isinstance(found, OfcRound):
            views.append(round_view(competition_id, found))
    return sorted(views, key=lambda v: (v.table_id, v.round_number))


def _rounds_of(store: EventSource, competition_id: str) -> Iterable[UUID]:
    return sorted(store.streams_of(competition_id, opened_by=_ROUND_STARTED))


def standings(rounds: Iterable[OfcRoundView]) -> list[OfcStanding]:
    """Points per player over the scored rounds, most first; equal points share the place (bfsp 8: "the player
    with the most points ... wins")."""
    totals: dict[str, dict[str, int]] = {}
    per_round: dict[str, list[int]] = {}
    for view in rounds:
        if view.status != "scored":
            continue
        for seat in view.seats:
            t = totals.setdefault(
                seat.player, {"rounds": 0, "points": 0, "fouls": 0, "royalties": 0, "fantasies": 0}
            )
            t["rounds"] += 1
            t["points"] += seat.points or 0
            t["fouls"] += bool(seat.fouled)
            t["royalties"] += sum(seat.royalties)
            t["fantasies"] += seat.fantasy
            per_round.setdefault(seat.player, []).append(seat.points or 0)
    ordered = sorted(totals, key=lambda p: (-totals[p]["points"], p))
    out: list[OfcStanding] = []
    for i, player in enumerate(ordered):
        place = out[-1].place if out and out[-1].points == totals[player]["points"] else i + 1
        out.append(OfcStanding(place=place, player=player, per_round=per_round[player], **totals[player]))
    return out


def ofc_event(store: EventSource, competition_id: str) -> OfcEvent | None:
    """The competition's OFC rounds and its standings by points; None when it has no OFC round."""
    rounds = ofc_rounds(store, competition_id)
    if not rounds:
        return None
    return OfcEvent(competition_id=competition_id, rounds=rounds, standings=standings(rounds))


# --- the competition protocol's OFC section (projections/protocol.py) ----------------------------------------


def protocol_section(rounds: Iterable[list[Any]]) -> dict[str, Any]:
    """The protocol's record of a competition's OFC rounds, from their stored events (each stream's domain events
    in version order): each round's players, button, fantasy, redeals, and once scored each hand's rows, foul,
    royalties and points and each pair's settlement; then the points per player over the event with places.
    Nothing unsettled or sealed is in it: a round still being played lists its players only, and no discard is
    ever listed."""
    listed = []
    for events in rounds:
        start = events[0].payload
        scored = next((e.payload for e in reversed(events) if type(e).__name__ == "OfcRoundScored"), None)
        redeals = sum(type(e).__name__ == "OfcRoundRedealt" for e in events)
        entry: dict[str, Any] = {
            "round": str(events[0].originator_id),
            "table": start["table_id"],
            "number": start["round_number"],
            "variant": start.get("variant", OFC),
            "button": start["button"],
            "players": [p["player"] for p in start["players"]],
            "fantasy": list(start.get("fantasy", [])),
            "redeals": redeals,
            "started_at": iso(events[0].timestamp),
            "scored_at": None,
            "hands": [],
            "pairs": [],
            "rule": "bfsp 8",
        }
        if scored is not None:
            entry["scored_at"] = iso(events[-1].timestamp)
            entry["hands"] = [
                {k: h[k] for k in ("seat", "player", "position", "bottom", "middle", "top", "fouled", "foul",
                                   "royalties", "points", "fantasy", "earns_fantasy")}
                for h in scored["hands"]
            ]  # fmt: skip
            entry["pairs"] = scored["pairs"]
        listed.append(entry)
    listed.sort(key=lambda r: (r["table"], r["number"]))
    totals: dict[str, int] = {}
    for entry in listed:
        for hand in entry["hands"]:
            totals[hand["player"]] = totals.get(hand["player"], 0) + hand["points"]
    ordered = sorted(totals, key=lambda p: (-totals[p], p))
    standings: list[dict[str, Any]] = []
    for i, player in enumerate(ordered):
        place = standings[-1]["place"] if standings and standings[-1]["points"] == totals[player] else i + 1
        standings.append({"place": place, "player": player, "points": totals[player]})
    return {"rounds": listed, "standings": standings}
