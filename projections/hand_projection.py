"""One hand as the read models see it: its stored events replayed through the engine, in store order.

The engine (:class:`domain.hand.state.HandState`) is driven exactly as the Hand aggregate drives it: a
reported act is applied, while what the engine derived from it (an uncalled bet returned, a pot awarded,
the end, a raw act's reading) is stored after it and only followed here. Stacks are followed event by
event: a reported act's chips move at once, and the chips its consequences hand back move at the stored
consequence, so the stacks after every stored event read as the table saw them.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from json.encoder import c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any

import orjson

from domain.cards import MaybeCard
from domain.clock import is_imported_record
from domain.hand.codec import decode
from domain.hand.events import (
    BetCorrected,
    HandMucked,
    HandShown,
    HandStarted,
    HandVoided,
    MisdealDeclared,
    PotAwarded,
    ReportedEvent,
    UncalledBetReturned,
)
from domain.hand.phase import Phase
from domain.hand.state import HandState
from domain.rulebooks import get_rulebook

JSON = dict[str, Any]

#: stored after the act they follow from: the engine derived them when it applied that act
FOLLOWED = frozenset({
    "UncalledBetReturned", "PotAwarded", "HandEnded", "ActionObliged", "RulingRequested",
    "IncorrectBetNoted", "BetCorrected", "IncorrectBetStood", "MisdealRecognised", "ShowRequestAnswered",
    "ClockExpiryApplied",
})  # fmt: skip

#: (seat, stack, chips it has in the pot) after an event, for the seats that moved
StackChange = tuple[int, int, int]


@dataclass(slots=True)
class Stored:
    """What the read models use of a stored event."""

    #: the stream's id as text (what the read models key a hand by)
    stream: str
    version: int
    type: str
    payload: JSON
    meta: JSON
    link: str
    at: str
    _text: str | None = None

    def payload_text(self) -> str:
        """The payload as JSON text, written once (the history keeps it; the decoder's memo is keyed by it)."""
        if self._text is None:
            self._text = dumps(self.payload)
        return self._text

    @classmethod
    def of_event(cls, event: Any) -> Stored:
        return cls(
            str(event.originator_id), event.originator_version, type(event).__name__, event.payload, event.meta,
            str(event.link), event.timestamp.isoformat(),
        )

    @classmethod
    def of_row(cls, row: tuple[int, str, int, str, Any]) -> Stored | None:
        """Read straight from a stored row's JSON (:func:`projections.stored.stored_rows`), or None when it is
        not in a shape known here (the store's mapper then reads it): the mapper would build the aggregate's
        event object and parse its time, only for both to be taken apart again here."""
        _, stream, version, topic, raw = row
        state = loads(raw)
        payload_text: str | None = None
        if "payload" in state and "link" in state:  # eventsourcing's own encoding of the event's fields
            payload, meta, link = state["payload"], state["meta"], state["link"]
            at = state["timestamp"].get("_data_")
        elif "body" in state and "chain" in state:  # the canonical body of the hash chain, kept as it was linked
            body = state["body"]
            payload, meta, link, at = body["payload"], body["meta"], state["chain"].get("link"), body["at"]
            payload_text = _canonical_payload(raw)
        else:
            return None
        if not isinstance(at, str) or not isinstance(link, str):
            return None
        name = _TYPES.get(topic)
        if name is None:
            name = _TYPES[topic] = topic.rpartition(".")[2]
        return cls(stream, version, name, payload, meta, link, at, payload_text)


#: an event's type by its stored topic (a few dozen topics, met for every stored event)
_TYPES: dict[str, str] = {}


def _canonical_payload(text: str | bytes) -> str | None:
    """The payload's JSON text as the chain's canonical body holds it, which is what :func:`dumps` would
    write again (sorted keys kept in order, no white space), so it is taken instead of written: when the
    body is ASCII (the canonical form leaves other characters unescaped, :func:`dumps` escapes them) and its
    one payload is followed by the stream's id (the body's keys are sorted). None otherwise. Stored bytes
    are searched as they are and only the payload's are decoded."""
    data = text.encode() if isinstance(text, str) else bytes(text)
    if not data.isascii():
        return None
    # one pass over the bytes, not two (a count and then a find): the first "payload" key, and none after it
    at = data.find(_PAYLOAD)
    if at < 0 or data.find(_PAYLOAD, at + len(_PAYLOAD)) >= 0:
        return None
    start = at + len(_PAYLOAD)
    # most events' chain is the two links alone, a fixed length from the end: found without a search
    chain = len(data) - _LINKS_ONLY_CHAIN
    if chain < start or not data.startswith(_CHAIN_LINKS, chain):
        chain = data.rfind(b',"chain":')
    end = data.rfind(b',"stream":"', start, chain)
    return data[start:end].decode() if end > start and data[start] == 0x7B else None  # 0x7B: "{"


_PAYLOAD = b'"payload":'
#: ``,"chain":{"prev_link":"<64 hex>","link":"<64 hex>"}}``: how a chained event holding only its links ends
_CHAIN_LINKS = b',"chain":{"prev_link":"'
_LINKS_ONLY_CHAIN = len(_CHAIN_LINKS) + 64 + len(b'","link":"') + 64 + len(b'"}}')


#: decoded acts by their JSON text: an act is an immutable value and the same few (a fold, a check, a call
#: by seat) recur in every hand, so most are decoded once; the memo is emptied when it grows past its bound
_DECODED: dict[str, ReportedEvent] = {}
DECODED_BOUND = 100_000


def decoded(event: Stored) -> ReportedEvent:
    text = event.payload_text()
    act = _DECODED.get(text)
    if act is None:
        if len(_DECODED) >= DECODED_BOUND:
            _DECODED.clear()
        act = _DECODED[text] = decode(event.payload)
    return act


def card_text(card: MaybeCard) -> str:
    return "??" if card is None else str(card)


#: stored JSON parsed by a C parser (a quarter of a rebuild's time with the standard library's)
loads = orjson.loads

#: compact JSON, the encoder made once (json.dumps with separators makes one per call)
_ENCODER = json.JSONEncoder(separators=(",", ":"))
#: the standard library's C encoder itself, made once with the encoder's settings (no check for cycles: the rows
#: are made of fresh lists and dicts): ``JSONEncoder.encode`` makes a new one at every call, half of its time for
#: the small values written here. The same C code writes the same text; without it, ``encode``.
_C_ENCODE = (
    c_make_encoder(None, _ENCODER.default, encode_basestring_ascii, None, ":", ",", False, False, True)
    if c_make_encoder is not None else None
)


def dumps(value: Any) -> str:
    """``value`` as compact JSON, exactly as ``json.dumps(value, separators=(",", ":"))`` writes it."""
    if _C_ENCODE is None:
        return _ENCODER.encode(value)
    return "".join(_C_ENCODE(value, 0))


def hand_row(
    hand: Any,
    *,
    seats: Iterable[int],
    hole: Mapping[int, list[str]],
    face_up: Mapping[int, list[bool]],
    folded: Collection[int],
    shown: Collection[int],
    mucked: Collection[int],
    board: list[str],
) -> tuple[Any, ...]:
    """The hands table's row of ``hand`` (the engine's replay or the chip accountant: both keep ``started``,
    ``stacks``, ``committed``, the status, the chain head and whether it was imported; the cards and flags are given by each)."""
    s = hand.started
    players = {entry.seat: entry for entry in s.seats}
    rows = [
        {
            "seat": seat,
            "player": players[seat].player,
            "starting_stack": players[seat].stack,
            "stack": hand.stacks[seat],
            "committed": hand.committed[seat],
            "hole_cards": hole[seat],
            "face_up": face_up[seat],
            "folded": seat in folded,
            "shown": seat in shown,
            "mucked": seat in mucked,
        }
        for seat in seats
    ]
    stakes = {
        "antes": [list(a) for a in s.stakes.antes],
        "blinds": [list(b) for b in s.stakes.blinds],
        "bring_in": s.stakes.bring_in,
        "small_bet": s.stakes.small_bet,
        "big_bet": s.stakes.big_bet,
        "min_bet": s.stakes.min_bet,
    }
    return (
        hand.hand_id, hand.competition, s.table_id, s.hand_number, s.variant, s.rulebook, s.button, s.level,
        dumps(stakes), dumps(rows), dumps(board), hand.status, int(hand.undetermined), hand.started_at,
        hand.ended_at, hand.version, hand.chain_head, int(hand.imported),
    )


class HandProjection:
    __slots__ = (
        "hand_id", "competition", "started", "engine", "stacks", "committed", "status", "voiding",
        "started_at", "ended_at", "version", "chain_head", "order", "awards", "contributors", "undetermined",
        "imported",
    )

    def __init__(self, hand_id: str, event: Stored) -> None:
        started = decode(event.payload)
        assert isinstance(started, HandStarted)
        self.hand_id = str(hand_id)
        self.competition = str(event.meta.get("competition_id", ""))
        self.imported = is_imported_record(event.meta)
        self.started = started
        self.engine = HandState.start(started, get_rulebook(started.rulebook))
        self.stacks = dict(self.engine.stacks)
        self.committed = dict.fromkeys(self.engine.seats, 0)
        self.status = "in_progress"
        self.voiding = False
        self.started_at = event.at
        self.ended_at: str | None = None
        self.version = event.version
        self.chain_head = event.link
        self.order: tuple[int, ...] = ()
        #: the stored PotAwarded payloads, each with the seats whose chips are in that pot
        self.awards: list[tuple[JSON, tuple[int, ...]]] = []
        self.contributors: deque[tuple[int, ...]] = deque()
        self.undetermined = False

    def opening_stacks(self) -> list[StackChange]:
        return [(seat, self.stacks[seat], 0) for seat in self.engine.seats]

    def apply(self, event: Stored) -> list[StackChange]:
        """Follow one stored event after the start; the seats whose stack or chips in the pot it moved."""
        name = event.type
        payload = event.payload
        before_stacks, before_committed = dict(self.stacks), dict(self.committed)
        if name in FOLLOWED or (name == "PlayerActed" and "interprets" in event.meta):
            self._follow(name, payload, event)
        else:
            self._play(decoded(event))
        self.version = event.version
        self.chain_head = event.link
        return [
            (seat, self.stacks[seat], self.committed[seat])
            for seat in self.engine.seats
            if self.stacks[seat] != before_stacks[seat] or self.committed[seat] != before_committed[seat]
        ]

    def _play(self, act: ReportedEvent) -> None:
        engine = self.engine
        if isinstance(act, HandShown | HandMucked):
            self._note_showdown()
        derived = engine.apply(act)
        self._note_showdown()
        if isinstance(act, HandVoided | MisdealDeclared):
            self.voiding = True
        self.stacks = dict(engine.stacks)
        self.committed = dict(engine.contributions)
        if not derived:
            return
        # the chips the consequences hand back move when their stored events come
        for consequence in derived:
            if isinstance(consequence, UncalledBetReturned):
                self.stacks[consequence.seat] -= consequence.amount
                self.committed[consequence.seat] += consequence.amount
            elif isinstance(consequence, BetCorrected):
                self.stacks[consequence.seat] += consequence.to - consequence.was
                self.committed[consequence.seat] -= consequence.to - consequence.was
            elif isinstance(consequence, PotAwarded):
                for share in consequence.shares:
                    self.stacks[share.seat] -= share.amount
        self.contributors.extend(self._award_contributors(derived))

    def _award_contributors(self, derived: tuple[Any, ...]) -> list[tuple[int, ...]]:
        awards = [a for a in derived if isinstance(a, PotAwarded)]
        if not awards:
            return []
        pots = self.engine.pots()
        everyone = tuple(s for s in self.engine.seats if self.engine.contributions[s] > 0)
        per_index: dict[int, int] = {}
        for award in awards:
            per_index[award.pot_index] = per_index.get(award.pot_index, 0) + award.amount
        out = []
        for award in awards:
            i = award.pot_index
            # an uncontested hand takes every layer as one pot: its contributors are everyone's
            fits = i < len(pots) and pots[i].amount == per_index[i]
            out.append(pots[i].contributors if fits else everyone)
        return out

    def _follow(self, name: str, payload: JSON, event: Stored) -> None:
        if name == "UncalledBetReturned":
            seat, amount = payload["seat"], payload["amount"]
            self.stacks[seat] += amount
            self.committed[seat] -= amount
        elif name == "MisdealRecognised":  # the deal showed a misdeal: the hand ends voided, as a declared one
            self.voiding = True
        elif name == "BetCorrected":
            seat, moved = payload["seat"], payload["to"] - payload["was"]
            self.stacks[seat] -= moved
            self.committed[seat] += moved
        elif name == "PotAwarded":
            for share in payload["shares"]:
                self.stacks[share["seat"]] += share["amount"]
            contributors = self.contributors.popleft() if self.contributors else ()
            self.awards.append((payload, contributors))
        elif name == "HandEnded":
            for seat, stack in payload["final_stacks"]:
                self.stacks[seat] = stack
            if self.voiding:
                self.committed = dict.fromkeys(self.engine.seats, 0)
            self.undetermined = bool(payload.get("undetermined", False))
            self.status = "voided" if self.voiding else "ended"
            self.ended_at = event.at

    def _note_showdown(self) -> None:
        """The showdown order, taken once, when the first card is tabled or the showdown begins (as the
        replay of :mod:`domain.hand.replay` takes it)."""
        engine = self.engine
        if not self.order and (engine.phase is Phase.SHOWDOWN or engine.shown):
            self.order = engine.showdown_order()

    @property
    def is_over(self) -> bool:
        return self.status != "in_progress"

    def settle(self) -> None:
        """Ready to write its rows: the engine's replay always is (a chip accountant hands over here)."""

    # --- the rows of the snapshot tables ---------------------------------------------------------------------

    def hand_row(self) -> tuple[Any, ...]:
        engine = self.engine
        return hand_row(
            self,
            seats=engine.seats,
            hole={seat: [card_text(c) for c in engine.hole[seat]] for seat in engine.seats},
            face_up={seat: list(engine.face_up[seat]) for seat in engine.seats},
            folded=engine.folded,
            shown=engine.shown,
            mucked=engine.mucked,
            board=[card_text(c) for c in engine.board],
        )

    def pot_rows(self) -> list[tuple[Any, ...]]:
        if self.awards:
            return [
                (
                    self.hand_id, n, a["pot_index"], a.get("half", ""), a["amount"], dumps(a["eligible"]),
                    dumps(list(contributors)), 1, dumps(a["shares"]), a.get("winning_hand", ""),
                    a.get("odd_chip", ""),
                )
                for n, (a, contributors) in enumerate(self.awards)
            ]
        if self.is_over:
            return []
        return [
            (self.hand_id, n, n, "", pot.amount, dumps(pot.eligible), dumps(pot.contributors), 0, "[]", "", "")
            for n, pot in enumerate(self.engine.pots())
        ]

    def showdown_row(self) -> tuple[Any, ...] | None:
        engine = self.engine
        if not (self.order or engine.shown or engine.mucked):
            return None
        shown = [{"seat": s, "cards": [card_text(c) for c in engine.hole[s]]} for s in sorted(engine.shown)]
        mucked = sorted(engine.mucked - engine.shown)
        odd = [a["odd_chip"] for a, _ in self.awards if a.get("odd_chip")]
        return (self.hand_id, dumps(list(self.order)), dumps(shown), dumps(mucked), dumps(odd))


def history_row(hand_id: str, event: Stored) -> tuple[Any, ...]:
    meta: JSON = event.meta
    recorded_by = meta.get("recorded_by") or {}
    return (
        hand_id,
        event.version,
        event.type,
        event.payload_text(),
        str(recorded_by.get("person", "")),
        str(recorded_by.get("role", "")),
        str(meta.get("event_id") or ""),
        meta.get("seq"),
        str(meta.get("follows") or ""),
        str(meta.get("interprets") or ""),
        str(meta.get("rule") or ""),
        str(meta.get("reading") or ""),
        event.at,
        event.link,
    )

