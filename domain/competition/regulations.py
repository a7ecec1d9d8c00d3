"""The Regulations of one competition: every value the rules leave "per the Regulations" (bfsp 3.1, 3.3, 5.1,
5.4), validated once when they are adopted, so no later act has to doubt them.

:func:`cite` names the rule a competition act is judged by under each rulebook. The federation's text is the
default; where it is silent the TDA's rule is cited as the TDA's (``tda-2022 24``), never as the federation's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from domain.errors import CompetitionError, RuleRef, chips
from domain.ofc.events import OFC
from domain.rulebooks import Rulebook, get_rulebook
from domain.variants import BettingStructure

#: topic → rule by rulebook; "*" is every rulebook without its own entry. "book rule" borrows another book's.
_RULES: dict[str, dict[str, str]] = {
    "min_age": {"*": "bfsp 1.1"},
    "season_disqualification": {"*": "bfsp 7.2.3"},
    "competition_disqualification": {"*": "bfsp 7.2.2"},
    "starting_stack": {"*": "bfsp 5.1"},
    "levels": {
        "bfsp": "bfsp 3.3",
        "tda-2022": "tda-2022 23",
        "tda-2017": "tda-2017 D-22",
        "*": "tda-2022 23",
    },
    "table_size": {
        "bfsp": "bfsp 3.1",
        "tda-2017": "tda-2017 D-11",
        "tda-club": "tda-club 12",
        "*": "tda-2022 RP-9",
    },
    "officials": {"*": "bfsp 2.1.1"},
    "schedule": {"*": "bfsp 2.1.5"},
    "seat_draw": {"bfsp": "bfsp 5.2", "*": "tda-2022 7"},
    "draw_order": {"*": "bfsp 2.3.2"},
    "starting_button": {"*": "bfsp 5.3.1"},
    "re_entry": {"bfsp": "bfsp 3.1", "*": "tda-2022 8"},
    "chip_race": {"tda-2017": "tda-2017 D-23", "tda-club": "tda-club 24", "*": "tda-2022 24"},
    "elimination": {"*": "bfsp 5.10.2"},
    "placings": {"tda-club": "tda-club 28", "*": "bfsp 5.10.2"},
    "hand_for_hand": {"tda-club": "tda-club 28", "*": "tda-2022 RP-8"},
    "winner": {"*": "bfsp 5.10.1"},
    "olympic": {"*": "bfsp 3.2"},
    "prizes": {"*": "bfsp 5.10.2"},
}


def cite(rulebook: Rulebook, topic: str) -> RuleRef:
    """The rule ``rulebook`` judges a competition act about ``topic`` by (``"seat_draw"`` → ``bfsp 5.2``)."""
    if topic == "final_table":
        return rulebook.cite("final_table")
    rules = _RULES[topic]
    book, _, rule = rules.get(rulebook.name, rules["*"]).partition(" ")
    return RuleRef(book, rule)


class Format(StrEnum):
    #: freeze-out: play down to one winner, tables balanced and broken as players leave (bfsp 3.1)
    AMERICAN = "american"
    #: knockout by table: each table plays to one winner, winners restart with equal stacks (bfsp 3.2)
    OLYMPIC = "olympic"


@dataclass(frozen=True, slots=True)
class Level:
    """One level of the schedule: its length and forced bets (bfsp 3.3, 5.4); limits for fixed-limit games."""

    number: int
    minutes: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0

    @property
    def stakes(self) -> str:
        parts = [f"{chips(self.small_blind)}/{chips(self.big_blind)}"] if self.big_blind else []
        if self.small_bet:
            parts.append(f"limits {chips(self.small_bet)}/{chips(self.big_bet)}")
        if self.bring_in:
            parts.append(f"bring-in {chips(self.bring_in)}")
        if self.ante:
            parts.append(f"ante {chips(self.ante)}")
        return ", ".join(parts)

    def forced_bets(self) -> tuple[int, ...]:
        return (self.small_blind, self.big_blind, self.ante, self.bring_in, self.small_bet, self.big_bet)


@dataclass(frozen=True, slots=True)
class Break:
    """A break after a level (bfsp 2.1.5 lets the Chief Judge add or move them)."""

    after_level: int
    minutes: int


@dataclass(frozen=True, slots=True)
class ReEntry:
    """Re-entries the regulations allow (bfsp 3.1): how many entries per person, until which level, and the
    chips each entry gets (the same as the starting stack, bfsp 5.1)."""

    max_entries: int
    until_level: int
    stack: int


@dataclass(frozen=True, slots=True)
class Prize:
    place: int
    amount: int


@dataclass(frozen=True, slots=True)
class Regulations:
    """What RegulationsAdopted records. Amounts are chips; prizes are in the currency's smallest unit."""

    title: str
    format: Format
    variant: str
    betting: BettingStructure
    starting_stack: int
    levels: tuple[Level, ...]
    max_seats: int
    starts_on: date
    rulebook: str = "bfsp"
    rulebook_version: str = ""
    breaks: tuple[Break, ...] = ()
    #: the final table's size; ``None`` takes the rulebook's for ``max_seats`` (bfsp 3.1, TDA 2022 RP-9)
    final_table: int | None = None
    #: chip denominations in play at the start, smallest first (the chip race removes them, TDA 2022 24)
    denominations: tuple[int, ...] = (25, 100, 500, 1000, 5000)
    re_entry: ReEntry | None = None
    #: chips of one add-on, the same for everyone who takes it (bfsp 5.1); 0: no add-on
    add_on: int = 0
    prizes: tuple[Prize, ...] = ()
    #: tax withheld from every prize, in percent (the federation's FAQ: 13 %, bounties included)
    withholding_percent: int = 13
    min_age: int = 18
    #: OFC (bfsp 8): the rounds each table plays, whose points decide the places; 0 for the other variants
    rounds: int = 0

    @property
    def book(self) -> Rulebook:
        return get_rulebook(self.rulebook)

    @property
    def final_table_size(self) -> int:
        return (
            self.final_table if self.final_table is not None else self.book.final_table_size(self.max_seats)
        )

    def level(self, number: int) -> Level:
        return self.levels[number - 1]

    def seats_at(self, players_left: int) -> int:
        """Seats per table with ``players_left`` in the event: a 10-max event plays the pre-final and final
        tables 9-max where the rulebook says so (bfsp 3.1)."""
        if self.book.last_two_tables_nine_max and self.max_seats == 10 and players_left <= 18:
            return 9
        return self.max_seats

    def prize(self, place: int) -> int:
        return next((p.amount for p in self.prizes if p.place == place), 0)


def verify_first_adoption(competition_id: str, adopted_before: object | None) -> None:
    """A competition adopts its Regulations once: ``adopted_before`` is what the store already holds as the
    competition (None: nothing); after that the Chief Judge changes the schedule."""
    if adopted_before is not None:
        raise CompetitionError(
            f"competition {competition_id} has adopted its Regulations already; the Chief Judge changes the "
            "schedule, nobody adopts them twice",
            RuleRef("bfsp", "2.1.1"),
        )


def verify_regulations(regulations: Regulations) -> None:
    """Refuse regulations a competition cannot be run by, naming the field and the rule."""
    book = regulations.book
    if regulations.variant == OFC:
        _verify_ofc(regulations, book)
    else:
        _verify_table_size(regulations, book)
    _verify_stacks(regulations, book)
    verify_schedule(regulations.levels, regulations.breaks, book)
    _verify_prizes(regulations, book)
    if regulations.min_age < book.min_age:
        raise CompetitionError(
            f"min_age: the regulations cannot admit players younger than {book.min_age}, and they say "
            f"{regulations.min_age}",
            cite(book, "min_age"),
        )


def _verify_ofc(regulations: Regulations, book: Rulebook) -> None:
    """An OFC competition (bfsp 8): tables of 2 or 3, and the rounds each table plays, whose points place them.
    Its starting stack and levels stand in the Regulations as for any competition; no round uses chips."""
    if not 2 <= regulations.max_seats <= 3:
        raise CompetitionError(
            f"max_seats: OFC is played 2 or 3 to a table, and the regulations say {regulations.max_seats}",
            book.cite("ofc_players"),
        )
    if regulations.rounds < 1:
        raise CompetitionError(
            f"rounds: an OFC competition plays a number of rounds whose points decide the places, not "
            f"{regulations.rounds}",
            book.cite("ofc_scoring"),
        )
    if regulations.format is Format.OLYMPIC:
        # bfsp 3.2 is a knockout of stacks: each table plays down to the one player who wins all its chips, and
        # the winners restart with equal stacks. An OFC round (bfsp 8) stakes no chips and eliminates nobody; its
        # winner is the one with the most points, so no table of it ever plays down to one winner.
        raise CompetitionError(
            "format: the Olympic format plays each table down to the one player who wins all its chips (bfsp 3.2); "
            "OFC stakes no chips and places by points (bfsp 8), so an OFC competition is played in the American "
            "format",
            cite(book, "olympic"),
        )


def _verify_table_size(regulations: Regulations, book: Rulebook) -> None:
    sizes = sorted(dict(book.final_table_sizes))
    if regulations.max_seats not in sizes:
        raise CompetitionError(
            f"max_seats: a table seats {sizes[0]} to {sizes[-1]} players under {book.name}, and the regulations "
            f"say {regulations.max_seats}",
            cite(book, "table_size"),
        )
    largest = book.final_table_size(regulations.max_seats)
    if not 2 <= regulations.final_table_size <= largest:
        raise CompetitionError(
            f"final_table: the final table of an event played {regulations.max_seats} to a table seats 2 to "
            f"{largest} under {book.name}, and the regulations say {regulations.final_table_size}",
            cite(book, "final_table"),
        )


def _verify_stacks(regulations: Regulations, book: Rulebook) -> None:
    if regulations.starting_stack <= 0:
        raise CompetitionError(
            f"starting_stack: every participant starts with the same positive number of chips, not "
            f"{chips(regulations.starting_stack)}",
            cite(book, "starting_stack"),
        )
    smallest = min(regulations.denominations, default=0)
    if smallest <= 0 or regulations.starting_stack % smallest or regulations.add_on % smallest:
        raise CompetitionError(
            f"denominations: a starting stack of {chips(regulations.starting_stack)} and an add-on of "
            f"{chips(regulations.add_on)} must be paid out in chips of {smallest or 'no'} denomination",
            cite(book, "starting_stack"),
        )
    re_entry = regulations.re_entry
    if re_entry is not None and re_entry.stack != regulations.starting_stack:
        raise CompetitionError(
            f"re_entry: every entry starts with the same chips; a re-entry of {chips(re_entry.stack)} against a "
            f"starting stack of {chips(regulations.starting_stack)} is not an equal start",
            cite(book, "starting_stack"),
        )
    if re_entry is not None and (
        re_entry.max_entries < 2 or not 1 <= re_entry.until_level <= len(regulations.levels)
    ):
        raise CompetitionError(
            f"re_entry: {re_entry.max_entries} entries in all until level {re_entry.until_level} is not a re-entry "
            f"a schedule of {len(regulations.levels)} levels allows",
            cite(book, "re_entry"),
        )


def verify_schedule(levels: tuple[Level, ...], breaks: tuple[Break, ...], book: Rulebook) -> None:
    """Levels 1, 2, 3 … with no gap, each as long as the regulations say and never lower than the one before;
    breaks after levels that exist (bfsp 3.3, 2.1.5)."""
    if not levels:
        raise CompetitionError("levels: the schedule has no level", cite(book, "levels"))
    for expected, level in enumerate(levels, start=1):
        if level.number != expected:
            raise CompetitionError(
                f"levels: the schedule goes from level {expected - 1} to level {level.number}; "
                f"level {expected} is missing",
                cite(book, "levels"),
            )
        if level.minutes <= 0:
            raise CompetitionError(
                f"levels: level {level.number} lasts {level.minutes} minutes", cite(book, "levels")
            )
        if level.big_blind and level.small_blind > level.big_blind:
            raise CompetitionError(
                f"levels: level {level.number}'s small blind ({chips(level.small_blind)}) is larger than its "
                f"big blind ({chips(level.big_blind)})",
                cite(book, "levels"),
            )
    for before, after in zip(levels, levels[1:], strict=False):
        if any(b > a for b, a in zip(before.forced_bets(), after.forced_bets(), strict=True)):
            raise CompetitionError(
                f"levels: forced bets rise from level to level; level {after.number} ({after.stakes}) is lower "
                f"than level {before.number} ({before.stakes})",
                cite(book, "levels"),
            )
    for pause in breaks:
        if not 1 <= pause.after_level <= len(levels) or pause.minutes <= 0:
            raise CompetitionError(
                f"breaks: a break of {pause.minutes} minutes after level {pause.after_level} does not fit a "
                f"schedule of {len(levels)} levels",
                cite(book, "levels"),
            )


def _verify_prizes(regulations: Regulations, book: Rulebook) -> None:
    places = [p.place for p in regulations.prizes]
    if places != list(range(1, len(places) + 1)):
        raise CompetitionError(
            f"prizes: the paid places must run 1, 2, 3 … without a gap, and they are {places}",
            cite(book, "prizes"),
        )
    amounts = [p.amount for p in regulations.prizes]
    if any(a < 0 for a in amounts) or amounts != sorted(amounts, reverse=True):
        raise CompetitionError(
            "prizes: a higher place never pays less than a lower one", cite(book, "prizes")
        )
    if not 0 <= regulations.withholding_percent < 100:
        raise CompetitionError(
            f"withholding_percent: {regulations.withholding_percent} % is not a share of a prize",
            cite(book, "prizes"),
        )
