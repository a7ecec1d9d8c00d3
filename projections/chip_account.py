"""A hand as the read models see it, followed cheaply: a chip accountant while it can, the engine when it must.

The stored events were judged by the referee when they were recorded, so most of a hand can be followed
without judging it again: forced bets, cards dealt and betting acts move chips and cards by what they say
(a bet or raise says the street total it goes to; a call goes to the highest street total, or all-in), and
what the engine derived from them (an uncalled bet returned, a pot awarded, the end) is read from its stored
event. That is all a hand won by a fold needs, and such hands are most of the play.

Whatever the accountant does not follow — a card shown or mucked (the showdown order is the engine's
reading of the betting), a raw act and its reading, a correction, a misdeal, a short forced bet, a game
with cards dealt face up or a draw — hands the hand to :class:`HandProjection`, the engine's replay, which
is given every event of the hand so far. A hand still in play when its rows are written is handed over
too, so its live pots and showdown are the engine's. Either way the rows are the same as the engine's
replay gives (tests/unit/projections/test_projected_differential.py holds them to it).
"""

from __future__ import annotations

from typing import Any

from mypy_extensions import mypyc_attr

from domain.clock import is_imported_record
from domain.hand.codec import decode
from domain.hand.events import HandStarted
from domain.hand.pots import Pot, build_pots
from domain.hand.showdown import showdown_order
from domain.hand.turn import topology
from domain.rulebooks import Rulebook, get_rulebook
from domain.variants import VARIANTS
from projections.hand_projection import HandProjection, StackChange, Stored, dumps, hand_row

JSON = dict[str, Any]

#: the kinds of acts whose chips are the street total they name
_TO_TOTAL = frozenset({"bet", "raise"})
_DEALT = frozenset({"HoleCardsDealt", "BoardDealt", "CardBurned"})


class _HandOver(Exception):
    """The accountant cannot follow this event: the engine takes the hand from here."""


def _final_board(variant: str) -> int | None:
    """The board cards out once the final betting round is reached, for games with a button, no cards dealt
    face up and no draw (their acts move chips by what they say, and the street is told by the board);
    None for the others."""
    game = VARIANTS.get(variant)
    if game is None or not game.uses_button:
        return None
    if any(street.draw or any(street.face_up) for street in game.streets):
        return None
    if game.streets[-1].board_cards <= 0:
        return None
    return sum(street.board_cards for street in game.streets)


_FINAL_BOARD: dict[str, int | None] = {}


def final_board(variant: str) -> int | None:
    if variant not in _FINAL_BOARD:
        _FINAL_BOARD[variant] = _final_board(variant)
    return _FINAL_BOARD[variant]


def _card(card: str | None) -> str:
    return "??" if card is None else card


class ChipAccount:
    """Stacks, chips in the pot, folds and cards of a hand, followed from its stored events' payloads."""

    __slots__ = (
        "hand_id", "competition", "started", "seats", "stacks", "committed", "bets", "acted", "folded",
        "hole", "board", "dead", "antes_dead", "status", "undetermined", "started_at", "ended_at", "version",
        "chain_head", "awards", "events", "shown", "mucked", "order", "aggressor_any", "aggressor_final",
        "final_board", "from_button", "rulebook", "imported",
    )

    def __init__(self, stream: str, event: Stored, started: HandStarted, final_board: int) -> None:
        self.hand_id = str(stream)
        self.competition = str(event.meta.get("competition_id", ""))
        self.imported = is_imported_record(event.meta)
        self.started = started
        starting = {entry.seat: entry.stack for entry in started.seats}
        self.seats = tuple(sorted(starting))
        self.stacks = starting
        self.committed = dict.fromkeys(self.seats, 0)
        #: each seat's total on the street being bet
        self.bets = dict.fromkeys(self.seats, 0)
        #: someone acted since the last card was dealt: the next card opens a new street
        self.acted = False
        self.folded: set[int] = set()
        self.hole: dict[int, list[str]] = {s: [] for s in self.seats}
        self.board: list[str] = []
        #: dead money (antes not everyone owes alike, dead blinds) is in the main pot whatever the side pots
        self.dead: dict[int, int] = {}
        antes = started.stakes.antes
        self.antes_dead = len(antes) != len(self.seats) or len({a for _, a in antes}) > 1
        self.status = "in_progress"
        self.undetermined = False
        self.started_at = event.at
        self.ended_at: str | None = None
        self.version = event.version
        self.chain_head = event.link
        self.awards: list[JSON] = []
        #: every stored event of the hand so far, for the engine should it take the hand over
        self.events = [event]
        self.shown: set[int] = set()
        self.mucked: set[int] = set()
        self.order: tuple[int, ...] = ()
        #: the last to bet or raise in the hand, and on the final betting round (the showdown order's)
        self.aggressor_any: int | None = None
        self.aggressor_final: int | None = None
        self.final_board = final_board
        button = started.button if started.button is not None else self.seats[-1]
        self.from_button = topology(self.seats, button)[1]
        self.rulebook: Rulebook = get_rulebook(started.rulebook)

    @property
    def is_over(self) -> bool:
        return self.status != "in_progress"

    def opening_stacks(self) -> list[StackChange]:
        return [(seat, self.stacks[seat], 0) for seat in self.seats]

    def apply(self, event: Stored) -> list[StackChange]:
        """Follow one stored event; the seats whose stack or chips in the pot it moved. Raises
        :class:`_HandOver` (having changed nothing the engine's replay would need) when it cannot."""
        name, p = event.type, event.payload
        if name == "PlayerActed":
            changes = self._act(p, event.meta)
        elif name in _DEALT:
            changes = self._deal(name, p)
        elif name == "ForcedBetPosted":
            changes = self._forced(p)
        elif name == "UncalledBetReturned":
            seat, amount = p["seat"], p["amount"]
            self.stacks[seat] += amount
            self.committed[seat] -= amount
            changes = [(seat, self.stacks[seat], self.committed[seat])] if amount else []
        elif name == "PotAwarded":
            changes = self._award(p)
        elif name == "HandEnded":
            changes = self._end(p, event.at)
        elif name == "HandShown" or name == "HandMucked":
            changes = self._table(name, p)
        else:
            raise _HandOver
        self.version = event.version
        self.chain_head = event.link
        self.events.append(event)
        return changes

    def _act(self, p: JSON, meta: JSON) -> list[StackChange]:
        if "interprets" in meta:
            raise _HandOver
        seat, action, amount = p["seat"], p["action"], p.get("amount")
        bets = self.bets
        if action == "fold" or action == "check":
            total = bets[seat]
        elif action == "call":
            total = bets[seat] + min(max(bets.values()) - bets[seat], self.stacks[seat])
        elif action in _TO_TOTAL and amount is not None:
            total = amount
            self.aggressor_any = seat
            self.aggressor_final = seat if len(self.board) >= self.final_board else None
        else:
            raise _HandOver
        self.acted = True
        if action == "fold":
            self.folded.add(seat)
        put = total - bets[seat]
        if not put:
            return []
        bets[seat] = total
        self.stacks[seat] -= put
        self.committed[seat] += put
        return [(seat, self.stacks[seat], self.committed[seat])]

    def _deal(self, name: str, p: JSON) -> list[StackChange]:
        if self.acted:
            self.bets = dict.fromkeys(self.seats, 0)
            self.acted = False
        if name == "HoleCardsDealt":
            self.hole[p["seat"]].extend(_card(c) for c in p["cards"])
        elif name == "BoardDealt":
            self.board.extend(_card(c) for c in p["cards"])
        return []

    def _table(self, name: str, p: JSON) -> list[StackChange]:
        """A hand shown or mucked at the showdown (or an all-in hand tabled before it, TDA 2022 16)."""
        seat = p["seat"]
        if self.is_over:
            raise _HandOver
        if name == "HandShown":
            merged = list(self.hole[seat])
            unknown = [i for i, c in enumerate(merged) if c == "??"]
            for card in p["cards"]:
                if card is not None and card not in merged:
                    merged[unknown.pop(0)] = card
            if "??" in merged:
                raise _HandOver  # tabled face down: shown or not is the phase's, which the engine knows
        if not self.order:
            self.order = self._showdown_order()
        if name == "HandShown":
            self.hole[seat] = merged
            self.shown.add(seat)
        else:
            self.mucked.add(seat)
        return []

    def _showdown_order(self) -> tuple[int, ...]:
        """As the engine reads it when the first card is tabled (HandState.showdown_order)."""
        out = self.folded | self.mucked
        contest = [s for s in self.from_button if s not in out]
        if not contest:
            return ()
        final = self.aggressor_final if self.aggressor_final in contest else None
        return showdown_order(contest, final, self.aggressor_any, self.rulebook)

    def _forced(self, p: JSON) -> list[StackChange]:
        seat, kind, amount = p["seat"], p["kind"], p["amount"]
        if amount >= self.stacks[seat]:
            raise _HandOver  # a short blind may be called in full (bfsp 4.9.8): the engine's to reckon
        self.stacks[seat] -= amount
        self.committed[seat] += amount
        if kind == "dead_blind" or (kind == "ante" and self.antes_dead):
            self.dead[seat] = self.dead.get(seat, 0) + amount
        if kind not in ("ante", "dead_blind"):
            self.bets[seat] += amount
        return [(seat, self.stacks[seat], self.committed[seat])] if amount else []

    def _award(self, p: JSON) -> list[StackChange]:
        won: dict[int, int] = {}
        for share in p["shares"]:
            won[share["seat"]] = won.get(share["seat"], 0) + share["amount"]
        for seat, amount in won.items():
            self.stacks[seat] += amount
        self.awards.append(p)
        return [(s, self.stacks[s], self.committed[s]) for s in self.seats if won.get(s)]

    def _end(self, p: JSON, at: str) -> list[StackChange]:
        changed = []
        for seat, stack in p["final_stacks"]:
            if self.stacks[seat] != stack:
                self.stacks[seat] = stack
                changed.append(seat)
        self.undetermined = bool(p.get("undetermined", False))
        self.status = "ended"
        self.ended_at = at
        return [(s, self.stacks[s], self.committed[s]) for s in sorted(changed)]

    # --- the rows of the snapshot tables (an ended hand's: one in play is the engine's) ---------------------

    def hand_row(self) -> tuple[Any, ...]:
        return hand_row(
            self,
            seats=self.seats,
            hole=self.hole,
            face_up={seat: [False] * len(self.hole[seat]) for seat in self.seats},
            folded=self.folded,
            shown=self.shown,
            mucked=self.mucked,
            board=self.board,
        )

    def pot_rows(self) -> list[tuple[Any, ...]]:
        """The awarded pots, each with the seats whose chips are in it: the pot of the same index now, if it
        holds what was awarded from it; else (one winner takes every layer as one pot) everyone's."""
        pots = self._pots()
        everyone = tuple(s for s in self.seats if self.committed[s] > 0)
        per_index: dict[int, int] = {}
        for a in self.awards:
            per_index[a["pot_index"]] = per_index.get(a["pot_index"], 0) + a["amount"]
        rows = []
        for n, a in enumerate(self.awards):
            i = a["pot_index"]
            contributors = pots[i].contributors if i < len(pots) and pots[i].amount == per_index[i] else everyone
            rows.append(
                (
                    self.hand_id, n, i, a.get("half", ""), a["amount"], dumps(a["eligible"]),
                    dumps(list(contributors)), 1, dumps(a["shares"]), a.get("winning_hand", ""),
                    a.get("odd_chip", ""),
                )
            )
        return rows

    def _pots(self) -> tuple[Pot, ...]:
        # as the engine builds them (domain/hand/tabling.py pots): dead money in the main pot
        out = self.folded | self.mucked
        if not self.dead:
            return build_pots(self.committed, out)
        live = {s: c - self.dead.get(s, 0) for s, c in self.committed.items()}
        layers = list(build_pots(live, out))
        dead = sum(self.dead.values())
        if layers:
            main = layers[0]
            layers[0] = Pot(main.amount + dead, main.eligible, tuple(sorted(set(main.contributors) | set(self.dead))))
        else:
            layers.append(Pot(dead, tuple(s for s in self.seats if s not in out), tuple(sorted(self.dead))))
        return tuple(layers)

    def showdown_row(self) -> tuple[Any, ...] | None:
        if not (self.order or self.shown or self.mucked):
            return None
        shown = [{"seat": s, "cards": self.hole[s]} for s in sorted(self.shown)]
        odd = [a["odd_chip"] for a in self.awards if a.get("odd_chip")]
        return (self.hand_id, dumps(list(self.order)), dumps(shown), dumps(sorted(self.mucked - self.shown)), dumps(odd))


#: the projector's hand type may be a subclass (the differential test counts the hands the accountant follows)
@mypyc_attr(allow_interpreted_subclasses=True)
class ProjectedHand:
    """One hand of the read models: followed by its :class:`ChipAccount` until the engine must take over."""

    __slots__ = ("account", "engine", "hand_id", "now")

    def __init__(self, stream: str, event: Stored) -> None:
        self.hand_id = str(stream)
        started = decode(event.payload)
        assert isinstance(started, HandStarted)
        self.account: ChipAccount | None = None
        self.engine: HandProjection | None = None
        board = final_board(started.variant)
        #: whichever follows the hand now
        self.now: ChipAccount | HandProjection
        if board is not None:
            self.account = self.now = ChipAccount(stream, event, started, board)
        else:
            self.engine = self.now = HandProjection(stream, event)

    @property
    def version(self) -> int:
        return self.now.version

    @property
    def started(self) -> HandStarted:
        """The hand's start as decoded once (integrity's counters read it too)."""
        return self.now.started

    @property
    def is_over(self) -> bool:
        return self.now.is_over

    def opening_stacks(self) -> list[StackChange]:
        return self.now.opening_stacks()

    def apply(self, event: Stored) -> list[StackChange]:
        if self.account is not None:
            try:
                return self.account.apply(event)
            except _HandOver:
                self._hand_over()
        assert self.engine is not None
        return self.engine.apply(event)

    def _hand_over(self) -> None:
        """The engine replays the hand so far and follows it from here."""
        account = self.account
        assert account is not None
        first, *rest = account.events
        engine = HandProjection(account.hand_id, first)
        for event in rest:
            engine.apply(event)
        self.engine, self.account, self.now = engine, None, engine

    def settle(self) -> None:
        """Before its rows are written: a hand still in play is the engine's (its live pots, its showdown)."""
        if self.account is not None and not self.account.is_over:
            self._hand_over()

    def hand_row(self) -> tuple[Any, ...]:
        return self.now.hand_row()

    def pot_rows(self) -> list[tuple[Any, ...]]:
        return self.now.pot_rows()

    def showdown_row(self) -> tuple[Any, ...] | None:
        return self.now.showdown_row()
