"""``simulate``: a seeded competition played table by table, round by round, to its log records.

A seed decides everything: the players, the seat draw, the bots' temperaments, every shuffle and every
choice. Each hand draws from its own ``random.Random`` seeded by the competition's seed, table and hand
number, so a hand is reproducible on its own and the same seed gives byte-identical records.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.hand.events import DerivedEvent, HandStarted, PotAwarded, ReportedEvent
from domain.roles import Role
from domain.rulebooks import get_rulebook
from domain.variants import VARIANTS, Variant
from ingest.envelope import RecordedBy
from ingest.simulator.bots import Temperament
from ingest.simulator.competition import Player, SeatDrawn, draw_seats, level, register, table_ids
from ingest.simulator.hand import PlayedHand, play_hand
from ingest.simulator.mistakes import Mistake
from ingest.simulator.records import STEP, simulated_records
from ingest.simulator.shoe import Shoe, board_can_play, deck_of, playing_board
from ingest.simulator.table import Table
from ingest.simulator.tally import Tally

SIMULATOR = RecordedBy(person="simulator", role=Role.SIMULATOR)
START = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)
#: the shuffle, the cut and pushing the pot between two hands
BETWEEN_HANDS = timedelta(seconds=40)


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    table_id: str
    hand_number: int
    round: int
    started_at: datetime
    played: PlayedHand
    board_plays: bool

    @property
    def started(self) -> HandStarted:
        return self.played.started

    @property
    def events(self) -> tuple[ReportedEvent, ...]:
        return self.played.events

    @property
    def derived(self) -> tuple[DerivedEvent, ...]:
        return self.played.derived

    @property
    def pots(self) -> tuple[PotAwarded, ...]:
        return self.played.pots

    @property
    def mistakes(self) -> tuple[Mistake, ...]:
        return self.played.mistakes


@dataclass(frozen=True, slots=True)
class Elimination:
    """A player who lost his last chip: where, in which hand, and with how many chips he began it (two busted
    in one hand place by the larger starting stack)."""

    player: Player
    table_id: str
    seat: int
    hand_number: int
    round: int
    stack_at_start: int


@dataclass(frozen=True, slots=True)
class Simulation:
    seed: int
    competition_id: str
    variant: str
    rulebook: str
    starting_stack: int
    players: tuple[Player, ...]
    draw: tuple[SeatDrawn, ...]
    hands: tuple[SimulatedHand, ...]
    eliminated: tuple[Elimination, ...]
    #: chips by person id after the last hand, for the players still seated
    chip_counts: dict[str, int]
    #: who records each table's events
    recorders: dict[str, RecordedBy]

    def records(self) -> Iterator[tuple[bytes, bytes]]:
        """The log records, hand by hand in the order they were played, mistakes just before their legal act."""
        for hand in self.hands:
            recorder = self.recorders[hand.table_id]
            yield from simulated_records(hand.played, self.competition_id, recorder, hand.started_at)

    def summary(self) -> dict[str, Any]:
        tally = Tally()
        for hand in self.hands:
            tally.add(hand.played)
        return {
            "competition": self.competition_id,
            "seed": self.seed,
            "variant": self.variant,
            "rulebook": self.rulebook,
            "players": len(self.players),
            "tables": len({d.table_id for d in self.draw}),
            **tally.as_dict(),
            "eliminated": len(self.eliminated),
            "remaining": len(self.chip_counts),
            "chips": sum(self.chip_counts.values()),
        }


def simulate(
    seed: int,
    tables: int = 3,
    seats: int = 9,
    hands_per_table: int = 20,
    variant: str = "NT",
    rulebook: str = "bfsp",
    mistakes: float = 0.0,
    *,
    players: int | None = None,
    starting_stack: int = 5000,
    hands_per_level: int = 6,
    board_plays: float = 0.1,
    competition_id: str | None = None,
    recorded_by: RecordedBy = SIMULATOR,
    dealers: bool = False,
    started_at: datetime = START,
) -> Simulation:
    """A competition of ``players`` (default: every seat filled) at ``tables`` tables of ``seats`` seats,
    each table playing ``hands_per_table`` hands (fewer once it is down to one player).

    ``mistakes`` is the chance, at each player's turn, that an illegal act is reported first; ``board_plays``
    the chance that a hold'em hand's board is a broadway straight every hand ties with (split pots). The
    events are recorded by ``recorded_by``, or with ``dealers`` by one dealer per table.
    """
    game = flop_game(variant)
    book = get_rulebook(rulebook)
    if not 0.0 <= mistakes <= 1.0 or not 0.0 <= board_plays <= 1.0:
        raise ValueError("mistakes and board_plays are chances between 0 and 1")
    if tables < 1 or not 2 <= seats <= 10 or hands_per_table < 0 or starting_stack < 1 or hands_per_level < 1:
        raise ValueError(
            "a competition needs at least one table of 2 to 10 seats and a positive starting stack"
        )
    rng = random.Random(seed)
    registered = register(tables * seats if players is None else players, rng)
    drawn = draw_seats(registered, tables, seats, rng)
    playing = [_table(table_id, drawn, starting_stack, rng) for table_id in table_ids(tables)]
    clocks = {t.table_id: started_at + timedelta(seconds=20 * n) for n, t in enumerate(playing)}
    hands: list[SimulatedHand] = []
    eliminated: list[Elimination] = []
    for round_number in range(1, hands_per_table + 1):
        at_level = level((round_number - 1) // hands_per_level + 1)
        for table in playing:
            if not table.playing:
                continue
            number = table.hands_played + 1
            hand_rng = random.Random(f"{seed}/{table.table_id}/{number}")
            started = table.next_hand(number, game, book.name, at_level)
            plays = board_can_play(game) and hand_rng.random() < board_plays
            shoe = Shoe(deck_of(game), hand_rng, playing_board(hand_rng) if plays else ())
            played = play_hand(started, book, shoe, table.temperaments, hand_rng, mistakes)
            at = clocks[table.table_id]
            hands.append(SimulatedHand(table.table_id, number, round_number, at, played, plays))
            clocks[table.table_id] = at + STEP * len(played.events) + BETWEEN_HANDS
            began = {e.seat: e.stack for e in started.seats}
            for seat, player in table.settle(played.final_stacks):
                eliminated.append(
                    Elimination(player, table.table_id, seat, number, round_number, began[seat])
                )
    counts = {t.seats[s].person_id: t.stacks[s] for t in playing for s in t.seats}
    competition = competition_id or f"sim-{seed}"
    recorders = {
        t.table_id: RecordedBy(person=f"dealer-{competition}-{t.table_id}", role=Role.DEALER) if dealers
        else recorded_by
        for t in playing
    }  # fmt: skip
    return Simulation(
        seed, competition, game.code, book.name, starting_stack, registered, drawn,
        tuple(hands), tuple(eliminated), counts, recorders,
    )  # fmt: skip


def _table(table_id: str, drawn: tuple[SeatDrawn, ...], stack: int, rng: random.Random) -> Table:
    here = sorted((d for d in drawn if d.table_id == table_id), key=lambda d: d.seat)
    return Table(
        table_id,
        seats={d.seat: d.player for d in here},
        stacks={d.seat: stack for d in here},
        temperaments={d.seat: Temperament.drawn(rng) for d in here},
    )


def flop_game(code: str) -> Variant:
    game = VARIANTS.get(code)
    if game is None:
        raise ValueError(f"no game is called {code!r}; the engine knows {', '.join(sorted(VARIANTS))}")
    if not game.uses_button or any(street.draw for street in game.streets) or game.low is not None:
        raise ValueError(f"the simulator plays flop games with a high hand only, not {game.name}")
    return game
