"""The one sealing policy (DESIGN decisions 8 and 12): what each role may see, decided here and applied to every
output — hand reads, histories, showdowns, pots, rulings, rejections, verdicts, the protocol (JSON, HTML, PDF),
the federation's views and the CLI when it renders for a role. Routes never decide what to hide: they ask this
module, and the sweep test (tests/sealing_sweep.py) reads every GET route of the OpenAPI schema as every role to
prove that nothing slips past it.

**Cards.** How much of a hand's cards a reader sees is one :class:`Sight`:

* ``EVERY`` — every card: hole cards, burns, hands mucked unshown and folded. While the hand is played: the
  judges, the Chief Judge and the dealer of its own table (his token names its competition and table). Once it
  has ended (or was voided): the judges, the Chief Judge, the integrity team and the federation.
* ``SHOWN`` — what the table saw: the board, face-up cards (stud's up-cards, a card exposed by the dealer) and
  the hands shown; never a burn, never a hand mucked unshown (bfsp 5.9.2) nor a folded one. Everyone else.
* ``NOTHING`` — the public feeds' delay: a viewer (and an anonymous public read) sees a hand's hole cards, the
  shown ones included, only ``POKERAUDIT_PUBLIC_DELAY_MINUTES`` after the hand ended, judged by the service's
  clock; until then he sees the board and the betting only. 0 (the default) means at the end.

Free texts quote cards too ("the board includes Kd, which was already dealt"): a card named in a reason, a
finding, grounds or a verdict is sealed ("??") for a reader who may not see it — in a text about one hand,
unless he sees every card of that hand; in a text about no one hand, unless he sees every live card (the judges
and the Chief Judge). Only the cards the hand made public (its board, shown and face-up cards) stay readable.

**Officials' texts.** The grounds of an open protest, what a violation was about (its hand, intent and
description) and the findings and justifications of rulings are for the officials (:data:`READS_GROUNDS`):
others read that they exist, their rule and their sanction, never their words. A decided protest is published
with its grounds and reasons. The rejections and a protocol snapshot's full text are for the officials too
(:data:`READS_REJECTIONS`).

**Integrity.** Statistics by pair, scores, alerts and cases are for the integrity team and the federation
(:data:`READS_INTEGRITY`).

**Verdicts.** A submission's verdict is the verdict on the record the caller submitted: an event id that already
names another record (another table's, another person's) answers that it does, never that record's verdict
(api/verdicts.py); a reason is sealed like any other text.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import IntEnum
from typing import Any, TypeVar

from pydantic import BaseModel

from api.auth import Principal
from domain.roles import Role
from projections import views

SEALED = "??"
WITHHELD = "withheld: officials only"

#: see every live hole card, at every table
LIVE_CARDS: frozenset[Role] = frozenset({Role.JUDGE, Role.CHIEF_JUDGE})
#: see every hole card once the hand is over
ENDED_CARDS: frozenset[Role] = frozenset({Role.INTEGRITY, Role.CHIEF_JUDGE, Role.JUDGE, Role.FEDERATION})
#: read the officials' texts: open protests' grounds, violations' descriptions, rulings' findings
READS_GROUNDS: frozenset[Role] = frozenset(
    {Role.INTEGRITY, Role.JUDGE, Role.CHIEF_JUDGE, Role.SECRETARY, Role.FEDERATION}
)
#: read what was refused and why, and a protocol snapshot's full text
READS_REJECTIONS: frozenset[Role] = frozenset(
    {Role.JUDGE, Role.CHIEF_JUDGE, Role.SECRETARY, Role.FEDERATION, Role.INTEGRITY}
)
#: the public feeds: their hole cards wait for the configured delay after the hand's end
DELAYED: frozenset[Role] = frozenset({Role.VIEWER})
#: integrity statistics by pair, scores, alerts and cases (DESIGN decision 13)
READS_INTEGRITY: frozenset[Role] = frozenset({Role.INTEGRITY, Role.FEDERATION})


class Sight(IntEnum):
    NOTHING = 0
    SHOWN = 1
    EVERY = 2


#: the events of a hand's history that carry cards, each field with whose cards it holds: ``hole`` one seat's
#: face-down cards (public once the seat shows), ``burn`` a burned card (public never), ``shown`` cards the table
#: saw (public, but not within the public feeds' delay); the board is public to all and not listed
CARD_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "HoleCardsDealt": (("cards", "hole"),),
    "MissingCardDealt": (("cards", "hole"),),
    "CardsDiscarded": (("discarded", "hole"), ("drawn", "hole")),
    # the card that replaces an exposed one is dealt face down to the seat (bfsp 6.6.1)
    "ExposedCardReplaced": (("card", "hole"),),
    "HoleCardExposed": (("card", "shown"),),
    "HandShown": (("cards", "shown"),),
    "CardBurned": (("card", "burn"),),
    # a burn before cards dealt early; the early cards themselves were face up on the table
    "PrematureCardsDealt": (("burn", "burn"),),
    # a card too many found in a seat's hand is one of his face-down cards (TDA 2022 38)
    "ExtraCardDealt": (("card", "hole"),),
    # a card found face up in the deck was seen by the table, and is no playing card (bfsp 6.4.5)
    "BoxedCardFound": (("card", "shown"),),
}
#: the keys of free text that may quote cards, in every output
TEXT_KEYS: frozenset[str] = frozenset(
    {"reason", "reasons", "description", "grounds", "finding", "justification", "suspicion", "winning_hand",
     "odd_chip", "odd_chips", "reading"}
)
#: the protocol's section of misdeals and voids repeats those of the hands' officials' acts
_MISDEAL_AND_VOID = frozenset({"MisdealDeclared", "MisdealRecognised", "HandVoided"})
#: a card as the records write it (``As``, ``Td``), alone or run together (``AsKd``)
_CARDS = re.compile(r"(?<![A-Za-z0-9])((?:[2-9TJQKA][cdhs])+)(?![A-Za-z0-9])")

M = TypeVar("M", bound=BaseModel)


def _now() -> datetime:
    return datetime.now(UTC)


def seal_text(text: str, public: Collection[str] = frozenset()) -> str:
    """``text`` with every card it names sealed, but those in ``public``."""

    def sealed(match: re.Match[str]) -> str:
        run = match.group(1)
        cards = [run[i : i + 2] for i in range(0, len(run), 2)]
        return "".join(card if card in public else SEALED for card in cards)

    return _CARDS.sub(sealed, text)


def seal_texts(value: Any, public: Collection[str] = frozenset(), keys: Collection[str] = TEXT_KEYS) -> Any:
    """``value`` (JSON: dicts, lists, strings) with the cards in its free texts (``keys``) sealed."""
    if isinstance(value, dict):
        return {
            k: (_seal_all(v, public) if k in keys else seal_texts(v, public, keys)) for k, v in value.items()
        }
    if isinstance(value, list):
        return [seal_texts(v, public, keys) for v in value]
    return value


def _seal_all(value: Any, public: Collection[str]) -> Any:
    if isinstance(value, str):
        return seal_text(value, public)
    if isinstance(value, list):
        return [_seal_all(v, public) for v in value]
    if isinstance(value, dict):
        return {k: _seal_all(v, public) for k, v in value.items()}
    return value


def seal_cards(cards: Sequence[Any], visible: Sequence[bool] = ()) -> list[Any]:
    """``cards`` with every one not flagged ``visible`` sealed (an unknown card, None, stays unknown)."""
    return [c if c is None or (i < len(visible) and visible[i]) else SEALED for i, c in enumerate(cards)]


def public_cards(hand: views.Hand, sight: Sight) -> frozenset[str]:
    """The cards of ``hand`` a reader with ``sight`` may read in a text: the board, and (but within the public
    delay) the face-up and shown hole cards."""
    found = {c for c in hand.board if c and c != SEALED}
    if sight >= Sight.SHOWN:
        for seat in hand.seats:
            found.update(c for i, c in enumerate(seat.hole_cards) if seat.shown or (i < len(seat.face_up) and seat.face_up[i]))
    found.discard(SEALED)
    return frozenset(found)


@dataclass(frozen=True)
class SealingPolicy:
    """The policy with its one setting (the public feeds' delay) and the service's clock it is judged by."""

    public_delay: timedelta = timedelta(0)
    clock: Callable[[], datetime] = field(default=_now)
    #: does the principal read at that competition in the office his token names (DESIGN decision 11: the
    #: competition's appointments; api/appointments.py)? By default the roles table alone (the CLI's ``--as``)
    appointed: Callable[[Principal, str], bool] = field(default=lambda _principal, _competition: True)

    @classmethod
    def from_settings(cls, settings: Any) -> SealingPolicy:
        return cls(public_delay=timedelta(minutes=float(getattr(settings, "public_delay_minutes", 0) or 0)))

    # --- who reads what ------------------------------------------------------------------------------------

    def sight(
        self, principal: Principal, competition_id: str, table_id: str, over: bool, ended_at: str | None
    ) -> Sight:
        """How much of the cards of a hand at ``table_id`` of ``competition_id`` ``principal`` sees: ``over``
        once it has ended or was voided, ``ended_at`` (ISO) when it ended."""
        if _deals_at(principal, competition_id, table_id) or principal.role in (ENDED_CARDS if over else LIVE_CARDS):
            if self.appointed(principal, competition_id):
                return Sight.EVERY
            return Sight.SHOWN  # an official appointed elsewhere (or not at all) reads what the table saw
        if principal.role in DELAYED and self.public_delay > timedelta(0):
            if not over or ended_at is None:
                return Sight.NOTHING
            ended = datetime.fromisoformat(ended_at)
            if ended.tzinfo is None:
                ended = ended.replace(tzinfo=UTC)
            if self.clock() < ended + self.public_delay:
                return Sight.NOTHING
        return Sight.SHOWN

    def sight_of(self, principal: Principal, hand: views.Hand) -> Sight:
        return self.sight(principal, hand.competition_id, hand.table_id, hand.status != "in_progress", hand.ended_at)

    @staticmethod
    def reads_grounds(principal: Principal) -> bool:
        return principal.role in READS_GROUNDS

    def reads_grounds_at(self, principal: Principal, competition_id: str) -> bool:
        """The officials' words of one competition: for its own officials (and the roles that read by role)."""
        return self.reads_grounds(principal) and self.appointed(principal, competition_id)

    def reads_rejections_at(self, principal: Principal, competition_id: str) -> bool:
        return self.reads_rejections(principal) and self.appointed(principal, competition_id)

    def sees_quoted_cards_at(self, principal: Principal, competition_id: str) -> bool:
        return self.sees_quoted_cards(principal) and self.appointed(principal, competition_id)

    @staticmethod
    def reads_rejections(principal: Principal) -> bool:
        return principal.role in READS_REJECTIONS

    @staticmethod
    def reads_integrity(principal: Principal) -> bool:
        return principal.role in READS_INTEGRITY

    def reads_integrity_case(self, principal: Principal, competition_id: str, reported_to: str | None) -> bool:
        """An integrity case: the integrity team's and the federation's; a case reported to a competition's
        Chief Judge (``reported_to``), also his, while he holds that office there."""
        if self.reads_integrity(principal):
            return True
        return (
            principal.role is Role.CHIEF_JUDGE and reported_to == principal.person
            and self.appointed(principal, competition_id)
        )

    @staticmethod
    def sees_quoted_cards(principal: Principal) -> bool:
        """A text about no one hand (a register, a protest) quotes cards to those who see every live card."""
        return principal.role in LIVE_CARDS

    # --- a hand and what is read of it -----------------------------------------------------------------------

    def hand(self, hand: views.Hand, principal: Principal) -> views.Hand:
        """The hand as ``principal`` may see it."""
        return self.hand_in_sight(hand, self.sight_of(principal, hand))

    @staticmethod
    def hand_in_sight(hand: views.Hand, sight: Sight) -> views.Hand:
        """The hand as a reader with ``sight`` of it sees it: nothing else decides it (the API keeps a hand's
        answer by its row and this sight, api/fast_reads.py)."""
        if sight is Sight.EVERY:
            return hand
        seats = []
        for seat in hand.seats:
            if sight is Sight.SHOWN and seat.shown:
                seats.append(seat)
                continue
            visible = seat.face_up if sight is Sight.SHOWN else ()
            seats.append(seat.model_copy(update={"hole_cards": seal_cards(seat.hole_cards, visible)}))
        return hand.model_copy(update={"seats": seats})

    def history(
        self, entries: list[views.HistoryEntry], hand: views.Hand, principal: Principal
    ) -> list[views.HistoryEntry]:
        sight = self.sight_of(principal, hand)
        if sight is Sight.EVERY:
            return entries
        shown = {seat.seat for seat in hand.seats if seat.shown} if sight is Sight.SHOWN else set()
        public = public_cards(hand, sight)
        return [_seal_entry(entry, sight, shown, public) for entry in entries]

    def showdown(self, showdown: views.Showdown, hand: views.Hand, principal: Principal) -> views.Showdown:
        """Shown hands are public (after the public delay); a hand mucked unshown only to those who see every
        card."""
        sight = self.sight_of(principal, hand)
        if sight is Sight.EVERY:
            return showdown
        public = public_cards(hand, sight)
        mucked = [m.model_copy(update={"cards": None}) for m in showdown.mucked_unshown]
        shown = showdown.shown
        if sight is Sight.NOTHING:
            shown = [s.model_copy(update={"cards": seal_cards(s.cards)}) for s in shown]
        odd = [seal_text(o, public) for o in showdown.odd_chips]
        return showdown.model_copy(update={"mucked_unshown": mucked, "shown": shown, "odd_chips": odd})

    def pots(self, pots: list[views.Pot], hand: views.Hand, principal: Principal) -> list[views.Pot]:
        """The winning hand's words name the shown cards: within the public delay they wait too."""
        sight = self.sight_of(principal, hand)
        if sight is Sight.EVERY:
            return pots
        public = public_cards(hand, sight)
        return [
            p.model_copy(update={
                "winning_hand": "" if sight is Sight.NOTHING else seal_text(p.winning_hand, public),
                "odd_chip": seal_text(p.odd_chip, public),
            })
            for p in pots
        ]

    def rulings(self, rulings: list[views.Ruling], hand: views.Hand, principal: Principal) -> list[views.Ruling]:
        """A hand's rulings: their findings, justifications and suspicions for the officials; cards in them as
        the hand's cards."""
        sight = self.sight_of(principal, hand)
        grounds = self.reads_grounds_at(principal, hand.competition_id)
        if sight is Sight.EVERY and grounds:
            return rulings
        public = public_cards(hand, sight)
        out = []
        for ruling in rulings:
            payload = dict(ruling.payload)
            for key in ("finding", "justification", "suspicion"):
                if key in payload and not grounds:
                    payload[key] = WITHHELD
            if sight is not Sight.EVERY:
                payload = seal_texts(payload, public)
            out.append(ruling.model_copy(update={"payload": payload}))
        return out

    # --- rejections and verdicts ------------------------------------------------------------------------------

    def rejections(
        self, items: list[views.Rejection], competition_id: str, hand_of: Callable[[str, str], views.Hand | None],
        principal: Principal,
    ) -> list[views.Rejection]:
        """Each rejection's reason with the cards it quotes sealed as the hand it is about (``hand_of(table,
        number)``): a reader who sees ``??`` on the hand reads ``??`` in the reason."""
        known: dict[tuple[str, str], views.Hand | None] = {}

        def once(table_id: str, number: str) -> views.Hand | None:
            # a page of refusals is often many of one hand: each hand is read once
            if (table_id, number) not in known:
                known[table_id, number] = hand_of(table_id, number)
            return known[table_id, number]

        return [
            r.model_copy(update={"reason": self.reason(r.reason, competition_id, r.table_id, r.hand, once, principal)})
            for r in items
        ]

    def reason(
        self, reason: str, competition_id: str, table_id: str, number: str,
        hand_of: Callable[[str, str], views.Hand | None], principal: Principal,
    ) -> str:
        """A refusal's words as ``principal`` may read them: about a hand the read models do not know (never
        started, not projected yet) as about a hand being played."""
        hand = hand_of(table_id, number) if table_id and number else None
        if hand is None:
            if (_deals_at(principal, competition_id, table_id) or principal.role in LIVE_CARDS) and self.appointed(
                principal, competition_id
            ):
                return reason
            return seal_text(reason)
        sight = self.sight_of(principal, hand)
        return reason if sight is Sight.EVERY else seal_text(reason, public_cards(hand, sight))

    # --- the federation's views and the protocol ----------------------------------------------------------------

    def federation_view(self, view: M, principal: Principal, competition_id: str) -> M:
        """A federation view (penalty register, protest, ruling) of ``competition_id``: the cards its texts quote
        sealed unless the reader sees every live card there (its grounds were withheld already where the reader
        may not read them)."""
        if self.sees_quoted_cards_at(principal, competition_id):
            return view
        return type(view).model_validate(seal_texts(view.model_dump()))

    def protocol(self, document: Mapping[str, Any], principal: Principal) -> dict[str, Any]:
        """The protocol as ``principal`` may read it, in every format (the HTML and the PDF render this)."""
        out = dict(document)
        competition_id = str(document.get("competition", {}).get("id", ""))
        grounds = self.reads_grounds_at(principal, competition_id)
        if not grounds:
            out["violations"] = [
                {**v, "hand": None, "intentional": None, "description": None} for v in document.get("violations", [])
            ]
            out["protests"] = [
                p if p.get("decision") else {**p, "grounds": None} for p in document.get("protests", [])
            ]
            out["rulings"] = [
                {**r, "finding": WITHHELD, "justification": WITHHELD if r.get("justification") else ""}
                for r in document.get("rulings", [])
            ]
            out["challenges"] = [{**c, "grounds": WITHHELD} for c in document.get("challenges", [])]
        hands = {(str(h["table"]), str(h["number"])): h for h in document.get("hands", [])}

        def sees_hand(table: str, number: str) -> bool:
            h = hands.get((table, number))
            if h is None:
                return (_deals_at(principal, competition_id, table) or principal.role in LIVE_CARDS) and self.appointed(
                    principal, competition_id
                )
            over = h.get("ended_at") is not None
            competition = str(document.get("competition", {}).get("id", ""))
            return self.sight(principal, competition, table, over, h.get("ended_at")) is Sight.EVERY

        if self.reads_rejections_at(principal, competition_id):
            out["rejections"] = [
                r if sees_hand(str(r.get("table_id") or ""), str(r.get("hand_id") or "")) else {**r, "reason": seal_text(str(r["reason"]))}
                for r in document.get("rejections", [])
            ]
        else:
            # what was refused and under which rule is the record's; the refusal's words are the officials'
            out["rejections"] = [{**r, "reason": WITHHELD} for r in document.get("rejections", [])]
        out["hands"] = [
            h if sees_hand(str(h["table"]), str(h["number"])) else {
                **h, "officials_acts": [seal_texts(a) for a in h.get("officials_acts", [])]
            }
            for h in document.get("hands", [])
        ]
        out["misdeals_and_voids"] = [
            a for h in out["hands"] for a in h.get("officials_acts", []) if a.get("type") in _MISDEAL_AND_VOID
        ]
        if not self.sees_quoted_cards_at(principal, competition_id):
            for section in ("violations", "protests", "challenges", "season_disqualifications", "signatures"):
                if section in out:
                    out[section] = seal_texts(out[section])
            out["rulings"] = [
                r if sees_hand(*_named(str(r.get("hand", "")))) else seal_texts(r) for r in out.get("rulings", [])
            ]
        # a snapshot of an older format lacks sections: the reader's copy adds none
        return {k: v for k, v in out.items() if k in document}


def seal_events(events: Sequence[Any], sight: Sight) -> list[Any]:
    """A hand's reported events (the domain's dataclasses, for an export) as a reader with ``sight`` may see
    them: a card he may not see becomes unknown (None, written ``??``)."""
    if sight is Sight.EVERY:
        return list(events)
    shown = {e.seat for e in events if type(e).__name__ == "HandShown"} if sight is Sight.SHOWN else set()
    out = []
    for event in events:
        changes: dict[str, Any] = {}
        for name, whose in CARD_FIELDS.get(type(event).__name__, ()):
            value = getattr(event, name, None)
            if value is None:
                continue
            if whose == "burn":
                visible: Sequence[bool] = ()
            elif whose == "shown" or getattr(event, "seat", None) in shown:
                visible = [True] * len(value) if sight is Sight.SHOWN and isinstance(value, tuple) else (
                    [True] if sight is Sight.SHOWN else ()
                )
            else:
                visible = tuple(getattr(event, "face_up", ()) or ()) if sight is Sight.SHOWN else ()
            if isinstance(value, tuple):
                changes[name] = tuple(c if i < len(visible) and visible[i] else None for i, c in enumerate(value))
            elif not visible:
                changes[name] = None
        out.append(dataclasses.replace(event, **changes) if changes else event)
    return out


def _named(hand: str) -> tuple[str, str]:
    """``"T1/3"`` → ``("T1", "3")``: a hand as the federation's records name it."""
    table, _, number = hand.rpartition("/")
    return table, number


def _deals_at(principal: Principal, competition_id: str, table_id: str) -> bool:
    """The dealer of the table, his token naming its competition and table (a token names both: api/auth.py)."""
    return (
        principal.role is Role.DEALER
        and principal.table is not None
        and principal.table == table_id
        and principal.competition == competition_id
    )


def _seal_entry(entry: views.HistoryEntry, sight: Sight, shown: Collection[int], public: Collection[str]) -> views.HistoryEntry:
    fields = CARD_FIELDS.get(entry.type, ())
    payload: dict[str, Any] = dict(entry.payload)
    face_up = payload.get("face_up") or ()
    for name, whose in fields:
        value = payload.get(name)
        if value is None:
            continue
        if whose == "burn":
            visible: Sequence[bool] = ()
        elif whose == "shown":
            visible = _all(value) if sight is Sight.SHOWN else ()
        elif payload.get("seat") in shown:
            visible = _all(value)
        else:
            visible = face_up if sight is Sight.SHOWN else ()
        payload[name] = seal_cards(value, visible) if isinstance(value, list) else (
            value if visible else SEALED
        )
    if sight is Sight.NOTHING and payload.get("winning_hand"):
        payload["winning_hand"] = ""  # the shown hand in words waits for the public delay too
    payload = seal_texts(payload, public)
    reading = seal_text(entry.reading, public)
    return entry.model_copy(update={"payload": payload, "reading": reading})


def _all(value: Any) -> list[bool]:
    return [True] * len(value) if isinstance(value, list) else [True]

