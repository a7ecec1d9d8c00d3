"""PokerStars text hand histories (cash and tournament; hold'em and Omaha) read into a hand's events.

A hand begins ``PokerStars Hand #…: Hold'em No Limit ($0.05/$0.10 USD) - 2020/01/01 …``; the table line names
the button; the seat lines before ``*** HOLE CARDS ***`` say who is dealt in (``is sitting out`` is not);
posts, ``Dealt to``, the players' acts, the streets' boards and the shows follow, and ``*** SUMMARY ***`` ends
what is read. Money becomes chips in cents (``$0.05`` → 5); tournament chips stay chips.

What the site says happened is what the events say, and nothing the engine computes is copied from the text:
the uncalled bet returned, the pots and who collected them are the engine's to derive. They are kept on the
hand (``collected``, ``returned``, ``rake``) so a reader can compare the site's account with the engine's.
Hole cards the text does not show are dealt as unknown cards; a ``shows`` line tables them.

Seats are the table's seat numbers and the players are listed from the seat left of the button, as PHH does,
so the same hand from either source starts the same. Every line that cannot be read is a
:class:`PokerStarsError` naming the file, the line and the field, and the other hands of the file are still
read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from domain.cards import CardParseError, MaybeCard, parse_card
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.variants import VARIANTS, BettingStructure

__all__ = ["PokerStarsError", "PokerStarsHand", "is_pokerstars", "load_file", "loads"]

#: PokerStars' game names → our variant codes
GAMES = {
    "Hold'em No Limit": "NT",
    "Hold'em Pot Limit": "PT",
    "Hold'em Limit": "FT",
    "Omaha No Limit": "NO",
    "Omaha Pot Limit": "PO",
    "Omaha Hi/Lo Pot Limit": "PO/8",
    "Omaha Hi/Lo Limit": "FO/8",
}
_START = re.compile(r"^PokerStars (?:Zoom )?(?:Hand|Game) #(\d+):")
_GAME = re.compile("(" + "|".join(re.escape(g) for g in sorted(GAMES, key=len, reverse=True)) + r")\b")
_STAKES = re.compile(r"\(([$€£]?[\d.,]+)/([$€£]?[\d.,]+)(?: [A-Z]{3})?\)")
_TABLE = re.compile(r"^Table '(?P<name>[^']*)' (?:\d+-max )?(?:\(Play Money\) )?Seat #(?P<button>\d+) is the button")
_SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[$€£]?[\d.,]+) in chips(?:,[^)]*)?\)(?P<out> is sitting out)?")
_POST = re.compile(
    r"^(?P<name>.+?): posts (?P<what>small blind|big blind|the ante|small & big blinds) (?P<amount>[$€£]?[\d.,]+)"
    r"(?P<all_in> and is all-in)?"
)
_ACT = re.compile(
    r"^(?P<name>.+?): (?P<verb>folds|checks|calls|bets|raises)(?: (?P<amount>[$€£]?[\d.,]+))?(?: to (?P<to>[$€£]?[\d.,]+))?"
)
_DEALT = re.compile(r"^Dealt to (?P<name>.+?) \[(?P<cards>[^\]]+)\]")
_STREET = re.compile(r"^\*\*\* (?P<street>FLOP|TURN|RIVER) \*\*\* (?:\[[^\]]*\] )?\[(?P<cards>[^\]]+)\]$")
_SHOWS = re.compile(r"^(?P<name>.+?): shows \[(?P<cards>[^\]]+)\]")
_MUCKS = re.compile(r"^(?P<name>.+?): mucks hand")
_RETURNED = re.compile(r"^Uncalled bet \((?P<amount>[$€£]?[\d.,]+)\) returned to (?P<name>.+)$")
_COLLECTED = re.compile(r"^(?P<name>.+?) collected (?P<amount>[$€£]?[\d.,]+) from (?:main |side )?pot")
_RAKE = re.compile(r"\| Rake (?P<amount>[$€£]?[\d.,]+)")
#: table chatter and seat changes that are no act of the hand
_NOISE = re.compile(
    r": (?:doesn't show hand|sits out|is sitting out|is disconnected|is connected|has timed out|said, |leaves the table"
    r"|joins the table|is away|has returned|will be allowed to play after the button)|^\S.* (?:joins|leaves) the table"
)
_POSTS = {"small blind": ForcedBetKind.SMALL_BLIND, "big blind": ForcedBetKind.BIG_BLIND, "the ante": ForcedBetKind.ANTE}
_VERBS = {"folds": ActionKind.FOLD, "checks": ActionKind.CHECK, "calls": ActionKind.CALL, "bets": ActionKind.BET,
          "raises": ActionKind.RAISE}


class PokerStarsError(ValueError):
    """A PokerStars hand we cannot read: ``file``, ``line`` and ``field`` say where, ``reason`` what."""

    def __init__(self, reason: str, file: str, line: int | None, field: str, hand: int | None = None) -> None:
        self.reason = reason
        self.file = file
        self.line = line
        self.field = field
        self.hand = hand
        where = file + (f":{line}" if line is not None else "")
        super().__init__(f"{where}: {field}: {reason}")


@dataclass(frozen=True, slots=True)
class PokerStarsHand:
    """One hand: its events (chips; ``scale`` chips per unit of money) and the site's own account of the end
    (seat → chips collected, seat → uncalled bet returned, the rake), kept to compare with the engine's."""

    file: str
    index: int
    line: int
    scale: int
    events: tuple[ReportedEvent, ...]
    collected: dict[int, int]
    returned: dict[int, int]
    rake: int


def is_pokerstars(text: str) -> bool:
    """Whether a file's text starts as a PokerStars hand history does (a byte-order mark allowed)."""
    first = text.lstrip("\ufeff \t\r\n").split("\n", 1)[0]
    return bool(_START.match(first))


def loads(text: str, file: str = "<string>") -> Iterator[PokerStarsHand | PokerStarsError]:
    """Every hand in the text, in order; a hand that cannot be read is its error and the next is still read."""
    lines = text.lstrip("\ufeff").splitlines()
    starts = [i for i, line in enumerate(lines) if _START.match(line.strip())]
    if not starts:
        yield PokerStarsError("no 'PokerStars Hand #' line: not a PokerStars hand history", file, 1, "header")
        return
    for index, begin in enumerate(starts, start=1):
        end = starts[index] if index < len(starts) else len(lines)
        try:
            yield _Hand(file, index, begin + 1, [line.strip() for line in lines[begin:end]]).read()
        except PokerStarsError as error:
            yield PokerStarsError(error.reason, error.file, error.line, error.field, index)


def load_file(path: Path) -> Iterator[PokerStarsHand | PokerStarsError]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        yield PokerStarsError(f"cannot read: {error}", str(path), None, "file")
        return
    yield from loads(text, str(path))


@dataclass(frozen=True, slots=True)
class _Post:
    kind: ForcedBetKind
    seat: int
    amount: int
    all_in: bool


@dataclass
class _Betting:
    """Each seat's chips behind and its commitment on the street, to turn "bets $x" into a street total."""

    stacks: dict[int, int]
    committed: dict[int, int] = field(default_factory=dict)

    def put(self, seat: int, amount: int, live: bool = True) -> None:
        self.stacks[seat] -= amount
        if live:
            self.committed[seat] = self.committed.get(seat, 0) + amount


class _Hand:
    """The lines of one hand, read in one pass."""

    def __init__(self, file: str, index: int, first_line: int, lines: list[str]) -> None:
        self.file = file
        self.index = index
        self.first_line = first_line
        self.lines = lines
        self.at = 0  # the line being read, an index into ``lines``

    def fail(self, field: str, reason: str) -> PokerStarsError:
        return PokerStarsError(reason, self.file, self.first_line + self.at, field)

    def amount(self, text: str, field: str) -> int:
        try:
            value = Decimal(text.lstrip("$€£").replace(",", "")) * self.scale
        except InvalidOperation:
            raise self.fail(field, f"{text!r} is not an amount") from None
        if value != value.to_integral_value():
            raise self.fail(field, f"{text} is not a whole number of chips")
        return int(value)

    def cards(self, text: str, field: str) -> tuple[MaybeCard, ...]:
        try:
            return tuple(parse_card(card) for card in text.split())
        except CardParseError as error:
            raise self.fail(field, str(error)) from None

    # --- the header and the seats ---

    def read(self) -> PokerStarsHand:
        number, variant, low, high = self.header()
        name, button = self.table()
        seats = self.seats(button)
        names = {entry.player: entry.seat for entry in seats}
        self.names = names
        self.betting = _Betting({e.seat: e.stack for e in seats})
        posts = self.posts()
        stakes = self.stakes(variant, low, high, posts)
        start = HandStarted(
            table_id=name, hand_number=number, variant=variant, seats=seats, button=button, stakes=stakes,
            burns_recorded=False,  # online histories record no burn cards
        )
        events: list[ReportedEvent] = [start, *(ForcedBetPosted(p.seat, p.kind, p.amount) for p in posts)]
        events += self.play(variant, seats)
        return PokerStarsHand(self.file, self.index, self.first_line, self.scale, tuple(events),
                              self.collected, self.returned, self.rake)

    def header(self) -> tuple[int, str, str, str]:
        line = self.lines[0]
        start = _START.match(line)
        assert start is not None, "loads() splits the text at these lines"
        number = int(start.group(1))
        game = _GAME.search(line)
        if game is None:
            raise self.fail("game", f"not a game we read ({', '.join(GAMES)}): {line!r}")
        stakes = _STAKES.search(line, game.end())
        if stakes is None:
            raise self.fail("stakes", f"no (small/big) stakes after the game: {line!r}")
        low, high = stakes.groups()
        self.scale = 100 if low[0] in "$€£" else 1
        return number, GAMES[game.group(1)], low, high

    def table(self) -> tuple[str, int]:
        self.at = 1
        match = _TABLE.match(self.lines[1]) if len(self.lines) > 1 else None
        if match is None:
            raise self.fail("table", "expected \"Table '…' 6-max Seat #N is the button\"")
        return match["name"], int(match["button"])

    def seats(self, button: int) -> tuple[SeatEntry, ...]:
        entries = []
        self.at = 2
        while self.at < len(self.lines) and self.lines[self.at].startswith("Seat "):
            match = _SEAT.match(self.lines[self.at])
            if match is None:
                raise self.fail("seat", f"expected 'Seat N: name ($x in chips)', not {self.lines[self.at]!r}")
            if not match["out"]:
                entries.append(SeatEntry(int(match["seat"]), match["name"], self.amount(match["stack"], "seat")))
            self.at += 1
        if len(entries) < 2:
            raise self.fail("seat", f"{len(entries)} players dealt in; a hand needs two")
        # PHH's order: from the first seat left of the button, the button last
        entries.sort(key=lambda e: (e.seat <= button, e.seat))
        return tuple(entries)

    def seat_of(self, name: str, field: str) -> int:
        if name not in self.names:
            raise self.fail(field, f"{name!r} is not dealt in at this hand")
        return self.names[name]

    # --- forced bets ---

    def posts(self) -> list[_Post]:
        posts: list[_Post] = []
        while self.at < len(self.lines) and not self.lines[self.at].startswith("*** HOLE CARDS ***"):
            line = self.lines[self.at]
            match = _POST.match(line)
            if match is not None:
                if match["what"] == "small & big blinds":
                    raise self.fail("post", "a returning player's small and big blinds together are not read")
                kind = _POSTS[match["what"]]
                seat = self.seat_of(match["name"], "post")
                if any(post.kind is kind and kind is not ForcedBetKind.ANTE for post in posts):
                    raise self.fail("post", f"a second {match['what']} (a returning player's post) is not read")
                amount = self.amount(match["amount"], "post")
                self.betting.put(seat, amount, live=kind is not ForcedBetKind.ANTE)
                posts.append(_Post(kind, seat, amount, match["all_in"] is not None))
            elif not _NOISE.search(line) and line:
                raise self.fail("post", f"expected a post or '*** HOLE CARDS ***', not {line!r}")
            self.at += 1
        if self.at == len(self.lines):
            raise self.fail("hole cards", "no '*** HOLE CARDS ***' line")
        # the engine takes the antes first, from the seat left of the button as the players are listed (so the
        # hand starts as it would from PHH), then the blinds in the order they are posted
        order = list(self.names.values())
        antes = sorted((p for p in posts if p.kind is ForcedBetKind.ANTE), key=lambda p: order.index(p.seat))
        return antes + [p for p in posts if p.kind is not ForcedBetKind.ANTE]

    def stakes(self, variant: str, low: str, high: str, posts: list[_Post]) -> Stakes:
        at, self.at = self.at, 0  # the stakes are on the first line
        small, big = self.amount(low, "stakes"), self.amount(high, "stakes")
        self.at = at
        limit = VARIANTS[variant].betting is BettingStructure.FIXED_LIMIT
        # a post cut short by the stack owed the table's amount: limit games are named by their bet sizes and
        # their blinds are half of them; an ante is what the others posted
        nominal = {
            ForcedBetKind.SMALL_BLIND: small // 2 if limit else small,
            ForcedBetKind.BIG_BLIND: small if limit else big,
            ForcedBetKind.ANTE: max((p.amount for p in posts if p.kind is ForcedBetKind.ANTE), default=0),
        }

        def owed(post: _Post) -> int:
            return nominal[post.kind] if post.all_in else post.amount

        return Stakes(
            antes=tuple((p.seat, owed(p)) for p in posts if p.kind is ForcedBetKind.ANTE),
            blinds=tuple((p.seat, owed(p)) for p in posts if p.kind is not ForcedBetKind.ANTE),
            small_bet=small if limit else 0,
            big_bet=big if limit else 0,
            min_bet=0 if limit else big,
        )

    # --- the deal, the betting, the boards and the shows ---

    def play(self, variant: str, seats: tuple[SeatEntry, ...]) -> list[ReportedEvent]:
        self.at += 1  # past *** HOLE CARDS ***
        self.collected: dict[int, int] = {}
        self.returned: dict[int, int] = {}
        self.rake = 0
        hole = VARIANTS[variant].hand_size
        known: dict[int, tuple[MaybeCard, ...]] = {}
        while self.at < len(self.lines) and (match := _DEALT.match(self.lines[self.at])):
            known[self.seat_of(match["name"], "dealt")] = self.cards(match["cards"], "dealt")
            self.at += 1
        events: list[ReportedEvent] = [
            HoleCardsDealt(e.seat, known.get(e.seat, (None,) * hole), (False,) * hole) for e in seats
        ]
        while self.at < len(self.lines) and not self.lines[self.at].startswith("*** SUMMARY ***"):
            event = self.line(self.lines[self.at])
            if event is not None:
                events.append(event)
            self.at += 1
        if self.at < len(self.lines) - 1 and (rake := _RAKE.search(self.lines[self.at + 1])):
            self.rake = self.amount(rake["amount"], "rake")
        return events

    def line(self, line: str) -> ReportedEvent | None:
        if not line or line.startswith("*** SHOW DOWN ***") or _NOISE.search(line):
            return None
        if match := _STREET.match(line):
            self.betting.committed.clear()
            return BoardDealt(self.cards(match["cards"], "board"))
        if line.startswith("*** "):
            raise self.fail("street", f"{line!r} is not a street we read (FLOP, TURN, RIVER, SHOW DOWN)")
        if match := _SHOWS.match(line):
            return HandShown(self.seat_of(match["name"], "show"), self.cards(match["cards"], "show"))
        if match := _MUCKS.match(line):
            return HandMucked(self.seat_of(match["name"], "muck"))
        if match := _RETURNED.match(line):
            seat = self.seat_of(match["name"], "uncalled bet")
            self.returned[seat] = self.amount(match["amount"], "uncalled bet")
            return None
        if match := _COLLECTED.match(line):
            seat = self.seat_of(match["name"], "collected")
            self.collected[seat] = self.collected.get(seat, 0) + self.amount(match["amount"], "collected")
            return None
        if match := _ACT.match(line):
            return self.act(match)
        raise self.fail("action", f"not a line of a PokerStars hand we read: {line!r}")

    def act(self, match: re.Match[str]) -> PlayerActed:
        seat = self.seat_of(match["name"], "action")
        kind = _VERBS[match["verb"]]
        if kind in (ActionKind.FOLD, ActionKind.CHECK):
            return PlayerActed(seat, kind)
        if match["amount"] is None:
            raise self.fail("action", f"{match['verb']} without an amount")
        put = self.amount(match["amount"], "action")
        if kind is ActionKind.RAISE:
            if match["to"] is None:
                raise self.fail("action", "raises without 'to $y'")
            total = self.amount(match["to"], "action")
            self.betting.put(seat, total - self.betting.committed.get(seat, 0))
            return PlayerActed(seat, kind, total)
        self.betting.put(seat, put)
        return PlayerActed(seat, kind, self.betting.committed[seat] if kind is ActionKind.BET else None)
