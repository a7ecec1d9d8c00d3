"""Open Hand History (hh-specs.handhistory.org): a hand's events to an ``{"ohh": {...}}`` object and back.

OHH names its game by ``game_type`` and ``bet_limit.bet_type``; it has hold'em and Omaha (high, and hi-lo) in
no-limit, pot-limit and fixed-limit, and those are the games read and written here: ``NT``, ``PT``, ``FT``,
``NO``, ``PO``, ``PO/8``, ``FO/8``. Short-deck hold'em, the stud games (``F7S``, ``F7S/8``, razz) and the draw
games (``N2L1D``, ``F2L3D``, badugi) are refused naming ``game_type``: OHH has no short deck, no razz and no
bring-in, and its one ``Draw`` type does not say which draw game or how many draws.

OHH amounts are what a player puts in with the act (a raise "to 20" after a bet of 2 is ``"amount": 18``); our
bets and raises are the street total after the act, so both directions keep each seat's street commitment
(live blinds count, antes and dead blinds do not, as in the engine). The stakes are one small blind, one big
blind and one ante amount; the forced bets of a hand are its ``Post …`` actions. A hand whose stakes those
cannot carry (an ante that differs by seat and is cut by a short stack, a minimum bet other than the big
blind) is refused naming the field, found by reading the written start back. Amounts are written in chips;
a file in money is read to the smallest unit its amounts use (dollars with cents → cents).

Where an act happened stays where it happened: a show before the board is complete stays in its street's
round, and the shows and mucks after the last card go in a ``Showdown`` round. Burns are not OHH actions
and are left out; pots are written when given (``pots``) and not read: the engine computes them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from domain.cards import CardParseError, MaybeCard, parse_card
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    ForcedBetKind,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.variants import VARIANTS, BettingStructure

__all__ = ["GAMES", "OhhError", "OhhHand", "dumps", "load_file", "loads", "to_ohh"]

SPEC_VERSION = "1.4.6"
#: (game_type, bet_type) ↔ our variant code
GAMES: dict[tuple[str, str], str] = {
    ("Holdem", "NL"): "NT",
    ("Holdem", "PL"): "PT",
    ("Holdem", "FL"): "FT",
    ("Omaha", "NL"): "NO",
    ("Omaha", "PL"): "PO",
    ("OmahaHiLo", "PL"): "PO/8",
    ("OmahaHiLo", "FL"): "FO/8",
}
_CODES = {code: game for game, code in GAMES.items()}
_STREETS = ("Preflop", "Flop", "Turn", "River")
_POSTS = {
    ForcedBetKind.ANTE: "Post Ante",
    ForcedBetKind.SMALL_BLIND: "Post SB",
    ForcedBetKind.BIG_BLIND: "Post BB",
    ForcedBetKind.STRADDLE: "Straddle",
    ForcedBetKind.DEAD_BLIND: "Post Dead",
}
_POSTED = {name: kind for kind, name in _POSTS.items()}
_ACTS = {
    ActionKind.FOLD: "Fold",
    ActionKind.CHECK: "Check",
    ActionKind.CALL: "Call",
    ActionKind.BET: "Bet",
    ActionKind.RAISE: "Raise",
}
_ACTED = {name: kind for kind, name in _ACTS.items()}
#: which OHH field carries each part of our stakes
_STAKES_FIELDS = (
    ("antes", "ante_amount"),
    ("blinds", "small_blind_amount"),
    ("bring_in", "game_type"),
    ("small_bet", "big_blind_amount"),
    ("big_bet", "big_blind_amount"),
    ("min_bet", "big_blind_amount"),
)
JSON = dict[str, Any]


class OhhError(ValueError):
    """An OHH hand we cannot read or write: ``path`` is the JSON path of the field (``$.ohh.game_type``)."""

    def __init__(
        self, reason: str, path: str, file: str = "", hand: int | None = None, line: int | None = None
    ) -> None:
        self.reason = reason
        self.path = path
        self.file = file
        self.hand = hand
        self.line = line
        where = file + (f":{line}" if line is not None else "") + (f": hand {hand}" if hand is not None else "")
        super().__init__(f"{where + ': ' if where else ''}{path}: {reason}")

    def located(self, file: str, hand: int, line: int | None) -> OhhError:
        return OhhError(self.reason, self.path, file, hand, line)


@dataclass
class _Street:
    """What each seat has committed on the current street and holds behind, so OHH's "put in" amounts and
    our street totals convert both ways."""

    stacks: dict[int, int]
    committed: dict[int, int] = field(default_factory=dict)

    def new_street(self) -> None:
        self.committed.clear()

    def put(self, seat: int, amount: int, live: bool = True) -> None:
        self.stacks[seat] -= amount
        if live:
            self.committed[seat] = self.committed.get(seat, 0) + amount

    def to_call(self, seat: int) -> int:
        owed = max(self.committed.values(), default=0) - self.committed.get(seat, 0)
        return min(owed, self.stacks[seat])


# --- writing ---------------------------------------------------------------------------------------------


def to_ohh(
    events: Iterable[ReportedEvent], pots: Sequence[PotAwarded] = (), start_date_utc: str | None = None
) -> JSON:
    """One hand as an ``{"ohh": …}`` object; ``pots`` (the engine's awards) fill ``pots``."""
    events = list(events)
    if not events or not isinstance(events[0], HandStarted):
        raise OhhError("a hand's first event is HandStarted", "$.ohh")
    start = events[0]
    game = _CODES.get(start.variant)
    if game is None:
        name = VARIANTS[start.variant].name if start.variant in VARIANTS else start.variant
        raise OhhError(
            f"OHH has no game for {name} ({start.variant}); it writes {', '.join(sorted(_CODES))}",
            "$.ohh.game_type",
        )
    ids = {entry.seat: i for i, entry in enumerate(start.seats)}
    rounds = _rounds(start, events[1:], ids)
    blinds = dict(_nominal_blinds(start))
    document: JSON = {
        "spec_version": SPEC_VERSION,
        "site_name": "pokeraudit",
        "network_name": "pokeraudit",
        "internal_version": SPEC_VERSION,
        "tournament": False,
        "game_number": str(start.hand_number),
        "table_name": start.table_id,
        "game_type": game[0],
        "bet_limit": {"bet_type": game[1], "bet_cap": 0},
        "table_size": max(max(ids), len(ids)),
        "dealer_seat": start.button,
        "small_blind_amount": blinds.get(ForcedBetKind.SMALL_BLIND, 0),
        "big_blind_amount": blinds.get(ForcedBetKind.BIG_BLIND, _big_blind(start)),
        "ante_amount": max((amount for _, amount in start.stakes.antes), default=0),
        "players": [
            {"id": ids[e.seat], "seat": e.seat, "name": e.player, "starting_stack": e.stack} for e in start.seats
        ],
        "rounds": rounds,
        "pots": _pots(pots, ids),
    }
    if start_date_utc is not None:
        document["start_date_utc"] = start_date_utc
    ohh = {"ohh": document}
    _check_read_back(start, ohh)
    return ohh


def dumps(hands: Iterable[JSON]) -> str:
    """OHH objects as a file's text: one object per line, a blank line between hands."""
    return "".join(json.dumps(hand, ensure_ascii=False) + "\n\n" for hand in hands)


def _nominal_blinds(start: HandStarted) -> list[tuple[ForcedBetKind, int]]:
    """The small and big blind as the stakes owe them (the first two blinds, in posting order)."""
    kinds = (ForcedBetKind.SMALL_BLIND, ForcedBetKind.BIG_BLIND)
    blinds = start.stakes.blinds
    if len(blinds) == 1:
        return [(ForcedBetKind.BIG_BLIND, blinds[0][1])]
    return [(kind, amount) for kind, (_, amount) in zip(kinds, blinds, strict=False)]


def _big_blind(start: HandStarted) -> int:
    stakes = start.stakes
    return stakes.small_bet if VARIANTS[start.variant].betting is BettingStructure.FIXED_LIMIT else stakes.min_bet


def _rounds(start: HandStarted, events: list[ReportedEvent], ids: dict[int, int]) -> list[JSON]:
    street = _Street({e.seat: e.stack for e in start.seats})
    rounds: list[JSON] = [{"id": 0, "street": "Preflop", "actions": []}]
    last_board = max((i for i, e in enumerate(events) if isinstance(e, BoardDealt)), default=-1)
    last_play = max((i for i, e in enumerate(events) if not isinstance(e, HandShown | HandMucked)), default=-1)
    number = 0
    for index, event in enumerate(events):
        if isinstance(event, CardBurned):
            continue
        if isinstance(event, BoardDealt):
            if len(rounds) == len(_STREETS):
                raise OhhError("OHH has no street after the river for a fifth board deal", "$.ohh.rounds")
            street.new_street()
            rounds.append({"id": len(rounds), "street": _STREETS[len(rounds)], "cards": _cards_out(event.cards),
                           "actions": []})
            continue
        if index > max(last_board, last_play) and rounds[-1]["street"] != "Showdown":
            rounds.append({"id": len(rounds), "street": "Showdown", "actions": []})
        number += 1
        path = f"$.ohh.rounds[{len(rounds) - 1}].actions[{len(rounds[-1]['actions'])}]"
        rounds[-1]["actions"].append({"action_number": number, **_action(event, street, ids, path)})
    return rounds


def _action(event: ReportedEvent, street: _Street, ids: dict[int, int], path: str) -> JSON:
    match event:
        case ForcedBetPosted(seat=seat, kind=kind, amount=amount):
            street.put(seat, amount, live=kind not in (ForcedBetKind.ANTE, ForcedBetKind.DEAD_BLIND))
            return _acted(ids[seat], _POSTS[kind], amount, street.stacks[seat] == 0)
        case HoleCardsDealt(seat=seat, cards=cards):
            dealt: JSON = {"player_id": ids[seat], "action": "Dealt Cards"}
            if any(card is not None for card in cards):
                dealt["cards"] = _cards_out(cards)
            return dealt
        case HandShown(seat=seat, cards=cards):
            return {"player_id": ids[seat], "action": "Shows Cards", "cards": _cards_out(cards)}
        case HandMucked(seat=seat):
            return {"player_id": ids[seat], "action": "Mucks Cards"}
        case PlayerActed(seat=seat, action=kind, amount=total) if kind in _ACTS:
            return _betting(seat, kind, total, street, ids[seat], path)
    raise OhhError(f"{type(event).__name__} has no OHH action", path)


def _betting(seat: int, kind: ActionKind, total: int | None, street: _Street, player: int, path: str) -> JSON:
    if kind in (ActionKind.FOLD, ActionKind.CHECK):
        return {"player_id": player, "action": _ACTS[kind]}
    if kind is ActionKind.CALL:
        put = street.to_call(seat)
    else:
        if total is None:
            raise OhhError(f"seat {seat}'s {kind} has no amount", path)
        put = total - street.committed.get(seat, 0)
    street.put(seat, put)
    return _acted(player, _ACTS[kind], put, street.stacks[seat] == 0)


def _acted(player: int, action: str, amount: int, all_in: bool) -> JSON:
    return {"player_id": player, "action": action, "amount": amount, "is_allin": all_in}


def _cards_out(cards: Sequence[MaybeCard]) -> list[str]:
    return ["??" if card is None else str(card) for card in cards]


def _pots(pots: Sequence[PotAwarded], ids: dict[int, int]) -> list[JSON]:
    merged: dict[int, dict[int, int]] = {}
    amounts: dict[int, int] = {}
    for pot in pots:
        amounts[pot.pot_index] = amounts.get(pot.pot_index, 0) + pot.amount
        wins = merged.setdefault(pot.pot_index, {})
        for share in pot.shares:
            wins[share.seat] = wins.get(share.seat, 0) + share.amount
    return [
        {"number": n, "amount": amounts[n], "rake": 0,
         "player_wins": [{"player_id": ids[seat], "win_amount": won} for seat, won in merged[n].items()]}
        for n in sorted(merged)
    ]


def _check_read_back(start: HandStarted, ohh: JSON) -> None:
    """Refuse a hand whose start OHH would read back differently (its stakes are three amounts)."""
    back = _Reader(json.loads(json.dumps(ohh), parse_float=Decimal), "<written>").started()
    checks: list[tuple[object, object, str, str]] = [
        (start, back, "seats", "players"), (start, back, "button", "dealer_seat")
    ]
    checks += [(start.stakes, back.stakes, name, path) for name, path in _STAKES_FIELDS]
    for ours, theirs, name, path in checks:
        if getattr(theirs, name) != getattr(ours, name):
            raise OhhError(
                f"the hand's {name} ({getattr(ours, name)}) would read back as {getattr(theirs, name)}",
                f"$.ohh.{path}",
            )


# --- reading ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OhhHand:
    """One hand read from a file: where it was, and its events (amounts in chips, ``scale`` per file unit)."""

    file: str
    index: int
    line: int | None
    scale: int
    events: tuple[ReportedEvent, ...]


def loads(text: str, file: str = "<string>") -> Iterator[OhhHand | OhhError]:
    """Every hand in a file's text, in order; a hand that cannot be read is its :class:`OhhError`, and the
    others are still read. A file holds ``{"ohh": …}`` objects one after another, or an array of them."""
    decoder = json.JSONDecoder(parse_float=Decimal)
    offset, index = 0, 0
    while True:
        offset = _skip_space(text, offset)
        if offset >= len(text):
            return
        line = text.count("\n", 0, offset) + 1
        try:
            value, end = decoder.raw_decode(text, offset)
        except json.JSONDecodeError as error:
            yield OhhError(f"not JSON: {error.msg}", "$", file, index + 1, error.lineno)
            return
        items = value if isinstance(value, list) else [value]
        for item in items:
            index += 1
            try:
                yield _Reader(item, file).hand(index, line)
            except OhhError as error:
                yield error.located(file, index, line)
        offset = end


def load_file(path: Path) -> Iterator[OhhHand | OhhError]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        yield OhhError(f"cannot read: {error}", "$", str(path))
        return
    yield from loads(text, str(path))


def _skip_space(text: str, offset: int) -> int:
    while offset < len(text) and text[offset].isspace():
        offset += 1
    return offset


class _Reader:
    """One ``{"ohh": …}`` object, checked field by field; every refusal names the JSON path."""

    def __init__(self, value: object, file: str) -> None:
        if not isinstance(value, dict) or not isinstance(value.get("ohh"), dict):
            raise OhhError("an OHH hand is an object with an \"ohh\" object", "$")
        self.ohh: JSON = value["ohh"]
        self.file = file
        self.scale = _scale(self.ohh)
        self.variant = self._variant()
        self.players = self._players()

    def hand(self, index: int, line: int | None) -> OhhHand:
        return OhhHand(self.file, index, line, self.scale, tuple(self.events()))

    # --- fields ---

    def get(self, name: str, path: str | None = None, required: bool = True) -> Any:
        if name not in self.ohh:
            if required:
                raise OhhError("missing", path or f"$.ohh.{name}")
            return None
        return self.ohh[name]

    def chips(self, value: object, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise OhhError(f"{value!r} is not an amount", path)
        if value < 0:
            raise OhhError(f"{value} is negative", path)
        return int(value * self.scale)

    def _variant(self) -> str:
        game = self.get("game_type")
        limit = self.get("bet_limit")
        if not isinstance(limit, dict) or "bet_type" not in limit:
            raise OhhError("missing: the bet type (NL, PL, FL) names the game", "$.ohh.bet_limit.bet_type")
        code = GAMES.get((game, limit["bet_type"]))
        if code is None:
            known = ", ".join(f"{g} {b}" for g, b in GAMES)
            raise OhhError(f"{game} {limit['bet_type']} is not a game we read ({known})", "$.ohh.game_type")
        return code

    def _players(self) -> list[SeatEntry]:
        players = self.get("players")
        if not isinstance(players, list) or len(players) < 2:
            raise OhhError("a hand needs a list of at least two players", "$.ohh.players")
        entries, ids = [], []
        for i, player in enumerate(players):
            path = f"$.ohh.players[{i}]"
            if not isinstance(player, dict):
                raise OhhError("a player is an object", path)
            for name in ("id", "seat", "starting_stack"):
                if name not in player:
                    raise OhhError("missing", f"{path}.{name}")
            if not isinstance(player["seat"], int) or player["seat"] < 1:
                raise OhhError(f"{player['seat']!r} is not a seat number", f"{path}.seat")
            ids.append(player["id"])
            name = player.get("name", f"player {player['id']}")
            entries.append(SeatEntry(player["seat"], str(name), self.chips(player["starting_stack"], f"{path}.starting_stack")))
        if len(set(ids)) != len(ids):
            raise OhhError(f"player ids {ids} are not distinct", "$.ohh.players")
        self.ids: dict[object, int] = dict(zip(ids, (e.seat for e in entries), strict=True))
        return entries

    def seat(self, action: JSON, path: str) -> int:
        player = action.get("player_id")
        if player not in self.ids:
            raise OhhError(f"{player!r} is not the id of a player of this hand", f"{path}.player_id")
        return self.ids[player]

    def hand_number(self) -> int:
        number = self.get("game_number")
        text = str(number)
        if not text.isdigit():
            raise OhhError(f"{number!r} is not a hand number", "$.ohh.game_number")
        return int(text)

    # --- the start ---

    def started(self) -> HandStarted:
        posts = list(self._posts())
        return HandStarted(
            table_id=str(self.get("table_name", required=False) or self.file),
            hand_number=self.hand_number(),
            variant=self.variant,
            seats=tuple(self.players),
            button=self.get("dealer_seat"),
            stakes=self._stakes(posts),
            burns_recorded=False,  # OHH records no burn cards
        )

    def _posts(self) -> Iterator[tuple[ForcedBetKind, int, int, bool]]:
        for path, action in self._actions():
            name = action.get("action")
            if name == "Post Extra Blind":
                raise OhhError("an extra blind does not say which blind it is; we read SB, BB, straddle, dead",
                               f"{path}.action")
            if name in _POSTED:
                amount = self.chips(action.get("amount"), f"{path}.amount")
                yield _POSTED[name], self.seat(action, path), amount, bool(action.get("is_allin"))

    def _stakes(self, posts: list[tuple[ForcedBetKind, int, int, bool]]) -> Stakes:
        sb = self.chips(self.get("small_blind_amount", required=False) or 0, "$.ohh.small_blind_amount")
        bb = self.chips(self.get("big_blind_amount"), "$.ohh.big_blind_amount")
        ante = self.chips(self.get("ante_amount", required=False) or 0, "$.ohh.ante_amount")
        # a post cut short by the stack owed the table's amount; the others owed what they posted
        nominal = {ForcedBetKind.SMALL_BLIND: sb, ForcedBetKind.BIG_BLIND: bb, ForcedBetKind.ANTE: ante}
        owed = [(kind, seat, nominal.get(kind, amount) if all_in else amount) for kind, seat, amount, all_in in posts]
        limit = VARIANTS[self.variant].betting is BettingStructure.FIXED_LIMIT
        return Stakes(
            antes=tuple((seat, amount) for kind, seat, amount in owed if kind is ForcedBetKind.ANTE),
            blinds=tuple((seat, amount) for kind, seat, amount in owed if kind is not ForcedBetKind.ANTE),
            small_bet=bb if limit else 0,
            big_bet=2 * bb if limit else 0,
            min_bet=0 if limit else bb,
        )

    # --- the events ---

    def _rounds(self) -> list[JSON]:
        rounds = self.get("rounds")
        if not isinstance(rounds, list):
            raise OhhError("must be a list of rounds", "$.ohh.rounds")
        return rounds

    def _actions(self) -> Iterator[tuple[str, JSON]]:
        for r, round_ in enumerate(self._rounds()):
            actions = round_.get("actions", []) if isinstance(round_, dict) else None
            if not isinstance(actions, list):
                raise OhhError("a round is an object with a list of actions", f"$.ohh.rounds[{r}]")
            for a, action in enumerate(actions):
                path = f"$.ohh.rounds[{r}].actions[{a}]"
                if not isinstance(action, dict):
                    raise OhhError("an action is an object", path)
                yield path, action

    def events(self) -> Iterator[ReportedEvent]:
        yield self.started()
        hole = VARIANTS[self.variant].hand_size
        street = _Street({e.seat: e.stack for e in self.players})
        for r, round_ in enumerate(self._rounds()):
            name = round_.get("street") if isinstance(round_, dict) else None
            if r > 0 and name in _STREETS[1:]:
                street.new_street()
                cards = self.cards(round_.get("cards", []), f"$.ohh.rounds[{r}].cards")
                if cards:
                    yield BoardDealt(cards)
            elif name not in ("Preflop", "Showdown"):
                raise OhhError(f"{name!r} is not a street of {self.variant} (Preflop, Flop, Turn, River, Showdown)",
                               f"$.ohh.rounds[{r}].street")
            for a, action in enumerate(round_.get("actions", [])):
                yield self._event(action, f"$.ohh.rounds[{r}].actions[{a}]", street, hole)

    def _event(self, action: JSON, path: str, street: _Street, hole: int) -> ReportedEvent:
        name = action.get("action")
        seat = self.seat(action, path)
        if name in _POSTED:
            post = _POSTED[name]
            amount = self.chips(action.get("amount"), f"{path}.amount")
            street.put(seat, amount, live=post not in (ForcedBetKind.ANTE, ForcedBetKind.DEAD_BLIND))
            return ForcedBetPosted(seat, post, amount)
        if name == "Dealt Cards":
            cards = self.cards(action.get("cards", []), f"{path}.cards") or (None,) * hole
            return HoleCardsDealt(seat, cards, (False,) * len(cards))
        if name == "Shows Cards":
            return HandShown(seat, self.cards(action.get("cards", []), f"{path}.cards"))
        if name == "Mucks Cards":
            return HandMucked(seat)
        if name not in _ACTED:
            known = ", ".join([*_POSTED, "Dealt Cards", "Shows Cards", "Mucks Cards", *_ACTED])
            raise OhhError(f"{name!r} is not an action we read ({known})", f"{path}.action")
        kind = _ACTED[name]
        if kind in (ActionKind.FOLD, ActionKind.CHECK):
            return PlayerActed(seat, kind)
        put = self.chips(action.get("amount"), f"{path}.amount")
        if kind is ActionKind.CALL:
            street.put(seat, put)
            return PlayerActed(seat, kind)
        street.put(seat, put)
        return PlayerActed(seat, kind, street.committed[seat])

    def cards(self, value: object, path: str) -> tuple[MaybeCard, ...]:
        if isinstance(value, str):
            value = value.split() if " " in value.strip() else [value[i : i + 2] for i in range(0, len(value), 2)]
        if not isinstance(value, list):
            raise OhhError(f"{value!r} is not a list of cards", path)
        try:
            return tuple(parse_card(str(card)) for card in value)
        except CardParseError as error:
            raise OhhError(str(error), path) from None


def _scale(ohh: Mapping[str, Any]) -> int:
    """Chips per file unit: the smallest power of ten that makes every amount whole (cents for dollars)."""
    places = 0
    for amount in _amounts(ohh):
        if isinstance(amount, Decimal) and amount.is_finite():
            places = max(places, -min(0, int(amount.normalize().as_tuple().exponent)))
    return int(10 ** min(places, 6))


def _amounts(ohh: Mapping[str, Any]) -> Iterator[object]:
    for name in ("small_blind_amount", "big_blind_amount", "ante_amount"):
        yield ohh.get(name)
    for player in ohh.get("players") or []:
        if isinstance(player, dict):
            yield player.get("starting_stack")
    for round_ in ohh.get("rounds") or []:
        for action in (round_.get("actions") or []) if isinstance(round_, dict) else []:
            if isinstance(action, dict):
                yield action.get("amount")
