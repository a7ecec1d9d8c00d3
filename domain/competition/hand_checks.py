"""A competition's hand checked against the competition: who the floor seats at the table, where it puts the
button, the forced bets of the level in force, the raise cap, and the chips the competition's hands left each
player.

A hand's start (``HandStarted``) names its table as the floor numbers it (``"3"``, or ``"T3"`` as the simulator
writes it). :func:`verify_hand_start` refuses, with the rule, a start that

* deals in anybody the floor does not seat at that table and seat, leaves out a player seated there, deals an
  empty seat or a player waiting between the button and the small blind (bfsp 5.2; TDA 2022 8, 10);
* puts the button anywhere but where the floor moves it (bfsp 5.3.1 first hand, 5.3.2 one seat a hand, and the
  same seat again after a misdeal or a voided hand, bfsp 6.3);
* is at a table the floor has halted or broken (TDA 2022 10, 11-D);
* starts during a scheduled break or while the Chief Judge has stopped the level clock (bfsp 2.1.5), or is another
  game than the Regulations', or posts forced bets other than the level in force by the clock when it started
  (bfsp 3.3, 5.4; TDA 2022 23, TV-102), or
  says the limit raise cap is lifted when the event is not down to two players, or the reverse (TDA 2022 48,
  TV-45);
* gives a player a stack other than the one the competition's hands left him (:class:`ChipCount`): chips come
  into play with an entry and move only through the hands — as the officials' rulings amend a hand's outcome —,
  a chip race and an Olympic stage's reset (bfsp 5.1).

The floor itself is not changed here: the caller records the floor's ``TableHandStarted`` once the hand's own
start is accepted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from domain.competition.aggregate import Competition
from domain.competition.events import (
    ChipRaceConducted,
    ParticipantRegistered,
    PlayerEliminated,
    SeatDrawConducted,
    StacksReset,
    TableHandEnded,
)
from domain.competition.regulations import Level, cite
from domain.competition.seating import Positions
from domain.errors import CompetitionError, RuleRef, chips
from domain.hand.events import HandStarted, Stakes
from domain.officials.appointments import verify_appointed
from domain.roles import Role
from domain.variants import VARIANTS, BettingStructure

_TABLE = re.compile(r"T?([0-9]+)")
#: chips come into play with an entry and leave it only through the hands (bfsp 5.1: the equal start)
CHIPS_RULE = RuleRef("bfsp", "5.1")


def table_number(table_id: str) -> int | None:
    """The floor's number of a hand's table (``"3"`` or ``"T3"``), or None for a name the floor does not use."""
    found = _TABLE.fullmatch(table_id)
    return int(found.group(1)) if found else None


def hand_name(table_id: str, hand_number: int | str) -> str:
    """How the competition's records name a hand: ``"<table>/<number>"``, the table as its start names it.

    The floor's record of a hand, a challenge, a ruling and the chips a hand left a player all name it so, and
    the names must agree for a ruling to find the hand it amends."""
    return f"{table_id}/{hand_number}"


@dataclass
class ChipCount:
    """The chips each player still in a competition has, as its stream tells them.

    Followed event by event (:meth:`follow`) along the Competition's stream: an entry brings the starting stack
    (the seat draw, a late registration), a chip race leaves each player his ``stack_after``, an Olympic stage
    resets the stacks, and a hand's end, recorded on the floor as ``TableHandEnded``, carries in its meta the
    chips the hand left each player it dealt in (``{"hand": "T1/5", "stacks": {...}, "misdealt": false}``).

    Those are the engine's stacks. A ruling that re-awards a pot of the hand is kept in the hand's own review,
    not on this stream: :meth:`amend` moves the chips it moves, when it is issued (and, counting again from the
    stored streams, when its time comes: :meth:`due`).
    """

    starting_stack: int
    #: the version of the Competition's stream followed so far
    version: int = 0
    stacks: dict[str, int] = field(default_factory=dict)
    #: player → what left him his chips (his entry, a hand, a chip race, a stage's reset) and when
    source: dict[str, str] = field(default_factory=dict)
    since: dict[str, datetime] = field(default_factory=dict)
    #: table → its last hand was misdealt or voided, so the next one keeps the button (bfsp 6.3)
    misdealt: dict[int, bool] = field(default_factory=dict)
    #: rulings found while counting again from the stored streams, in time order, each moved when the count
    #: reaches its time: (issued at, hand, ruling, player → chips moved)
    awaiting: list[tuple[datetime, str, str, dict[str, int]]] = field(default_factory=list)

    def follow(self, version: int, recorded: Any, meta: Mapping[str, Any], at: datetime) -> None:
        """The Competition's event number ``version`` (decoded), the meta it was stored with and its time."""
        self.version = version
        self.settle(at)
        if isinstance(recorded, SeatDrawConducted):
            for seat in recorded.assignments:
                if seat.participant not in self.stacks:
                    self._set(seat.participant, self.starting_stack, "his entry", at)
        elif isinstance(recorded, ParticipantRegistered) and recorded.seat is not None:
            self._set(recorded.participant, self.starting_stack, "his entry", at)
        elif isinstance(recorded, ChipRaceConducted):
            for result in recorded.results:
                self._set(result.participant, result.stack_after, f"the chip race at table {recorded.table}", at)
        elif isinstance(recorded, StacksReset):
            for participant in recorded.participants:
                self._set(participant, recorded.stack, f"the reset of stage {recorded.stage}", at)
        elif isinstance(recorded, PlayerEliminated):
            self.stacks.pop(recorded.participant, None)
        elif isinstance(recorded, TableHandEnded) and "stacks" in meta:
            stacks = {str(p): int(chips) for p, chips in dict(meta["stacks"]).items()}
            self.hand_ended(str(meta.get("hand", "")), recorded.table, stacks, bool(meta.get("misdealt")), at)

    def hand_ended(self, hand: str, table: int, stacks: Mapping[str, int], misdealt: bool, at: datetime) -> None:
        """Hand ``hand`` at ``table`` ended at ``at`` leaving these stacks (a misdeal or a void: those it started
        with)."""
        for participant, stack in stacks.items():
            self._set(participant, stack, f"hand {hand}", at)
        self.misdealt[table] = misdealt

    def amend(self, hand: str, ruling: str, moved: Mapping[str, int], at: datetime, in_play: Set[str]) -> None:
        """Ruling ``ruling`` on ``hand``, issued at ``at``, gives each player in ``moved`` that many chips (takes
        them back when negative) against what the hand left him.

        Chips move between hands only (bfsp 5.1): a player in ``in_play`` (dealt into a hand still being played)
        has his chips on the table, and the ruling waits for that hand to end; nor can it take back more chips
        than the player has left."""
        self.verify_amendment(hand, ruling, moved, in_play)
        for participant, change in moved.items():
            self._set(participant, self.stacks[participant] + change, f"ruling {ruling} on hand {hand}", at)

    def verify_amendment(self, hand: str, ruling: str, moved: Mapping[str, int], in_play: Set[str]) -> None:
        """Refuse what :meth:`amend` refuses, changing nothing."""
        for participant, change in sorted(moved.items()):
            known = self.stacks.get(participant)
            if known is None:
                raise CompetitionError(f"{participant} has no chips in play for ruling {ruling} to move", CHIPS_RULE)
            if participant in in_play:
                raise CompetitionError(
                    f"{participant}'s chips are in play in a hand not yet finished: ruling {ruling} on hand {hand} "
                    "moves them once it ends",
                    CHIPS_RULE,
                )
            if known + change < 0:
                raise CompetitionError(
                    f"ruling {ruling} on hand {hand} takes {chips(-change)} back from {participant}, who has "
                    f"{chips(known)} left",
                    CHIPS_RULE,
                )

    def due(self, hand: str, ruling: str, moved: Mapping[str, int], at: datetime) -> None:
        """Ruling ``ruling`` on ``hand``, accepted at ``at``, found again: it moves its chips when the count
        reaches ``at`` (:meth:`settle`), as it did when it was issued."""
        self.awaiting.append((at, hand, ruling, dict(moved)))
        self.awaiting.sort(key=lambda due: due[0])

    def settle(self, until: datetime | None = None) -> None:
        """Move the chips of the rulings awaiting up to ``until`` (all of them with None)."""
        while self.awaiting and (until is None or self.awaiting[0][0] <= until):
            at, hand, ruling, moved = self.awaiting.pop(0)
            for participant, change in moved.items():
                if participant in self.stacks:
                    self._set(participant, self.stacks[participant] + change, f"ruling {ruling} on hand {hand}", at)

    def _set(self, participant: str, stack: int, source: str, at: datetime) -> None:
        self.stacks[participant] = stack
        self.source[participant] = source
        self.since[participant] = at

    def whence(self, participant: str) -> str:
        return self.source.get(participant, "his entry")


def verify_hand_start(
    competition: Competition,
    started: HandStarted,
    at: datetime,
    count: ChipCount,
    person: str,
    role: Role,
    started_at: datetime | None = None,
) -> int:
    """Refuse ``started`` (a hand of ``competition`` started at ``at``, recorded by ``person`` as ``role``) where
    it disagrees with the competition; the floor's number of its table when it agrees.

    ``started_at`` is the hand's recorded start, which the referee accepts only within the skew it allows off the
    service's clock (DESIGN decision 9): the level clock judges the hand at it (``at`` where None)."""
    c = competition
    _verify_office(c, person, role)
    if c.is_over:
        raise CompetitionError(
            f"{c.competition_id} is over" + (f": {c.winner} won it" if c.winner else ""), cite(c.rulebook, "winner")
        )
    number = table_number(started.table_id)
    if number is None:
        raise CompetitionError(
            f"{c.competition_id} plays at numbered tables; there is no table {started.table_id}",
            cite(c.rulebook, "seat_draw"),
        )
    if not c.drawn:
        raise CompetitionError(
            f"no hand of {c.competition_id} is dealt before the seat draw", cite(c.rulebook, "seat_draw")
        )
    if started.variant != c.regulations.variant:
        raise CompetitionError(
            f"{c.competition_id} plays {c.regulations.variant} by its Regulations, not {started.variant}",
            cite(c.rulebook, "levels"),
        )
    level = _level(c, started, started_at or at)
    _verify_forced_bets(c, started, level, _verify_seating(c, started, number, count), started_at or at)
    if _is_limit(started) and started.raise_cap_lifted != c.raise_cap_lifted:
        raise CompetitionError(
            f"{c.players_left} players are left in the event: the limit raise cap is "
            + ("lifted" if c.raise_cap_lifted else "in force, lifted only when two are left"),
            c.rulebook.cite("raise_cap"),
        )
    _verify_stacks(started, count)
    return number


def _verify_seating(c: Competition, started: HandStarted, number: int, count: ChipCount) -> Positions | None:
    """Who is dealt in and where the button is, as the floor has them (an American competition's tables, or the
    Olympic stage's); the hand's positions."""
    assert c.floor is not None, "the seat draw opened the floor"
    seats = tuple((entry.seat, entry.player) for entry in started.seats)
    if number not in {table.number for table in c.floor.tables}:
        raise CompetitionError(
            f"table {number} is not in play: it was broken or never drawn, and its players sit elsewhere",
            cite(c.rulebook, "olympic") if c.floor.olympic else c.rulebook.cite("table_break"),
        )
    after = c.floor.hand_started(number, started.button, count.misdealt.get(number, False), seats)
    return after.table(number).last_hand


def _verify_office(c: Competition, person: str, role: Role) -> None:
    """The table's hands are recorded by the competition's own officials: the floor records each one too (the
    one rule of appointments, :mod:`domain.officials.appointments`; the referee's desk asks it of every record,
    and its dealer's table too)."""
    verify_appointed(c.officials, c.competition_id, person, role, doing="record HandStarted")


def _is_limit(started: HandStarted) -> bool:
    """A fixed-limit game, where the raise cap is the hand's to know (a variant the engine does not know is the
    hand's own start to refuse)."""
    variant = VARIANTS.get(started.variant)
    return variant is not None and variant.betting is BettingStructure.FIXED_LIMIT


def _level(c: Competition, started: HandStarted, at: datetime) -> Level:
    """The level in force by the clock when the hand started (bfsp 3.3; TDA 2022 23): none on a scheduled break
    or while the Chief Judge has stopped the clock (bfsp 2.1.5)."""
    rule = cite(c.rulebook, "levels")
    phase = c.phase_at(at)
    if phase is None:
        raise CompetitionError(
            f"no level of {c.competition_id} has started: no hand is dealt before level 1 starts the clock", rule
        )
    name = hand_name(started.table_id, started.hand_number)
    if phase.on_break is not None:
        raise CompetitionError(
            f"hand {name} starts at {at:%H:%M:%S}, during {phase.describe()}: no hand is dealt on a break",
            rule,
        )
    if phase.paused:
        raise CompetitionError(
            f"hand {name} starts at {at:%H:%M:%S}, while the Chief Judge has stopped the level clock "
            f"({phase.stopped}): no hand is dealt until it runs again",
            cite(c.rulebook, "schedule"),
        )
    if started.level is not None:
        c.verify_hand_level(at, started.level, substantial_action=False)
    return phase.level


def _in_force(c: Competition, level: Level, at: datetime) -> str:
    """``"level 14 (1,000/2,000; in force by the clock at 14:45:00, since 14:40:00)"``."""
    phase = c.phase_at(at)
    since = f", since {phase.began:%H:%M:%S}" if phase is not None else ""
    return f"level {level.number} ({level.stakes}; in force by the clock at {at:%H:%M:%S}{since})"


def _verify_forced_bets(
    c: Competition, started: HandStarted, level: Level, positions: Positions | None, at: datetime
) -> None:
    stakes = started.stakes
    rule = cite(c.rulebook, "levels")
    name = hand_name(started.table_id, started.hand_number)
    in_force = _in_force(c, level, at)
    if positions is not None and (level.small_blind or level.big_blind):
        due = {positions.small_blind: level.small_blind, positions.big_blind: level.big_blind}
        if dict(stakes.blinds) != due or len(stakes.blinds) != len(due):
            raise CompetitionError(
                f"hand {name} posts blinds {_amounts(stakes.blinds)}; {in_force} puts "
                f"{chips(level.small_blind)} on seat {positions.small_blind} (the small blind) and "
                f"{chips(level.big_blind)} on seat {positions.big_blind} (the big blind)",
                rule if set(dict(stakes.blinds)) == set(due) else c.rulebook.cite("forced_bet"),
            )
    antes = {entry.seat: level.ante for entry in started.seats} if level.ante else {}
    if dict(stakes.antes) != antes or len(stakes.antes) != len(antes):
        owed = f"an ante of {chips(level.ante)} from every seat dealt in" if level.ante else "no ante"
        raise CompetitionError(f"hand {name} posts antes {_amounts(stakes.antes)}; {in_force} has {owed}", rule)
    _verify_limits(level, stakes, name, rule, in_force)


def _verify_limits(level: Level, stakes: Stakes, name: str, rule: RuleRef, in_force: str) -> None:
    if level.bring_in and stakes.bring_in != level.bring_in:
        raise CompetitionError(
            f"hand {name} has a bring-in of {chips(stakes.bring_in)}; {in_force} has "
            f"{chips(level.bring_in)}",
            rule,
        )
    if level.small_bet and (stakes.small_bet, stakes.big_bet) != (level.small_bet, level.big_bet):
        raise CompetitionError(
            f"hand {name} plays limits {chips(stakes.small_bet)}/{chips(stakes.big_bet)}; {in_force} has "
            f"{chips(level.small_bet)}/{chips(level.big_bet)}",
            rule,
        )


def _verify_stacks(started: HandStarted, count: ChipCount) -> None:
    for entry in started.seats:
        known = count.stacks.get(entry.player)
        if known is None:
            raise CompetitionError(f"{entry.player} has no chips in play", CHIPS_RULE)
        if entry.stack != known:
            raise CompetitionError(
                f"{entry.player} sits down to hand {hand_name(started.table_id, started.hand_number)} with {chips(entry.stack)}; "
                f"{count.whence(entry.player)} left him {chips(known)}: chips come into play with an entry and "
                "move only through the hands",
                CHIPS_RULE,
            )


def _amounts(pairs: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{chips(amount)} on seat {seat}" for seat, amount in pairs) or "none"
