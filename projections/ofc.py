"""OFC rounds and points as read models (issue 16): each round of a competition's Open-Face Chinese tables, and
each player's points per round and over the event.

**Projected** exactly once by the projector (projections/runner.py), rebuilt like every read model: a round's
stored events are replayed through the round's own engine (:class:`domain.ofc.game.OfcGame`) by
:class:`ProjectedRound`, so nothing here re-decides a foul, a royalty or a point. ``rm_ofc_rounds`` holds each round
as it stands (a row upserted at each of its events), ``rm_ofc_points`` each player's points in each scored round
(written once, at the round's ``OfcRoundScored``); the standings over an event are summed from them.

Cards are kept as recorded — each player's rows, his discards, the cards he was dealt and has not set yet.
Sealing them for the caller is the API's business (api/routes/ofc.py, through api/sealing.py): the discards and
the unset cards are hidden until the round is over, and a player in fantasy's whole hand too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from domain.ofc.codec import decode
from domain.ofc.events import OFC, OFC_REPORTED, OfcRoundStarted
from domain.ofc.game import OfcGame
from domain.ofc.rows import Row
from domain.rulebooks import get_rulebook
from projections.schema import OFC_ROUND_COLUMNS
from projections.stored import iso


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
    started_at: str = ""  # when the round's start was recorded (ISO)
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


class OfcTableSeat(BaseModel):
    seat: int
    player: str
    points: int  # over the table's scored rounds: an OFC table keeps points, not chips (bfsp 8)


class OfcTableState(BaseModel):
    """An OFC table as its last round leaves it: the players of that round and their points over the table's
    scored rounds (no stacks: OFC is played for points)."""

    competition_id: str
    table_id: str
    variant: str = OFC
    rounds: int
    last_round_number: int
    last_round_status: str
    button: int
    seats: list[OfcTableSeat]


class ProjectedRound:
    """One round as the read models follow it: its stored events replayed through the round's engine in store
    order, as the OfcRound aggregate drives it (a reported act applied, what the engine derived followed)."""

    def __init__(self, stream: str, started: Any) -> None:
        start = decode(started.payload)
        assert isinstance(start, OfcRoundStarted)
        self.round_id = stream
        self.competition = str(started.meta.get("competition_id", ""))
        self.game = OfcGame(start, get_rulebook(start.rulebook))
        self.started_at: str = started.at
        self.scored_at: str | None = None
        self.version: int = started.version
        self.chain_head: str = started.link

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def apply(self, event: Any) -> None:
        """The next stored event (``projections.hand_projection.Stored``) of the round."""
        if event.type in OFC_REPORTED:
            self.game.apply(decode(event.payload))
        elif event.type == "OfcRoundScored":
            self.scored_at = event.at
        self.version = event.version
        self.chain_head = event.link

    def view(self) -> OfcRoundView:
        return round_view(
            self.competition, self.game, self.started_at, self.scored_at, self.version, self.chain_head
        )

    def round_row(self) -> tuple[Any, ...]:
        """The round's row of ``rm_ofc_rounds`` (projections/schema.py: OFC_ROUND_COLUMNS)."""
        view = self.view()
        return (
            self.round_id, view.competition_id, view.table_id, view.round_number, view.variant, view.rulebook,
            view.button, view.status, view.redeals, json.dumps([s.model_dump() for s in view.seats]),
            json.dumps([p.model_dump() for p in view.pairs]), view.started_at, view.scored_at, view.version,
            view.chain_head,
        )

    def points_rows(self) -> list[tuple[Any, ...]]:
        """Each player's points in the round, once it is scored (``rm_ofc_points``)."""
        scored = self.game.scored
        if scored is None:
            return []
        started = self.game.started
        return [
            (
                self.round_id, hand.seat, self.competition, started.table_id, started.round_number, hand.player,
                hand.points, int(hand.fouled), sum(hand.royalties), int(hand.fantasy), int(hand.earns_fantasy),
            )
            for hand in scored.hands
        ]


def round_view(
    competition_id: str, game: OfcGame, started_at: str, scored_at: str | None, version: int, chain_head: str
) -> OfcRoundView:
    """The round as the engine holds it: nothing here re-decides a foul, a royalty or a point."""
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
        table_id=game.started.table_id,
        round_number=game.started.round_number,
        rulebook=game.rulebook.name,
        button=game.started.button,
        status="scored" if game.is_over else "in_progress",
        started_at=started_at,
        scored_at=scored_at,
        redeals=game.redeals,
        seats=seats,
        pairs=pairs,
        version=version,
        chain_head=chain_head,
    )


def round_of_row(row: Sequence[Any]) -> OfcRoundView:
    """A row of ``rm_ofc_rounds`` back as the view it was written from."""
    r = dict(zip(OFC_ROUND_COLUMNS, row, strict=True))
    return OfcRoundView(
        competition_id=r["competition"], table_id=r["table_id"], round_number=int(r["number"]),
        variant=r["variant"], rulebook=r["rulebook"], button=int(r["button"]), status=r["status"],
        redeals=int(r["redeals"]), seats=[OfcSeatView(**s) for s in json.loads(r["seats"])],
        pairs=[OfcPairView(**p) for p in json.loads(r["pairs"])], started_at=r["started_at"],
        scored_at=r["scored_at"], version=int(r["version"]), chain_head=r["chain_head"],
    )


#: a player's result in one scored round, as ``rm_ofc_points`` keeps it:
#: (player, table, round number, points, fouled, royalties, fantasy)
PointsRow = tuple[str, str, int, int, bool, int, bool]


def standings(results: Iterable[PointsRow]) -> list[OfcStanding]:
    """Points per player over the scored rounds (given by table and round), most first; equal points share the
    place (bfsp 8: "the player with the most points ... wins")."""
    totals: dict[str, dict[str, int]] = {}
    per_round: dict[str, list[int]] = {}
    for player, _table, _number, points, fouled, royalties, fantasy in results:
        t = totals.setdefault(player, {"rounds": 0, "points": 0, "fouls": 0, "royalties": 0, "fantasies": 0})
        t["rounds"] += 1
        t["points"] += points
        t["fouls"] += bool(fouled)
        t["royalties"] += royalties
        t["fantasies"] += bool(fantasy)
        per_round.setdefault(player, []).append(points)
    ordered = sorted(totals, key=lambda p: (-totals[p]["points"], p))
    out: list[OfcStanding] = []
    for i, player in enumerate(ordered):
        place = out[-1].place if out and out[-1].points == totals[player]["points"] else i + 1
        out.append(OfcStanding(place=place, player=player, per_round=per_round[player], **totals[player]))
    return out


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
