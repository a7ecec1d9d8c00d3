"""``simulate_competition``: a whole competition, American or Olympic, from its Regulations to its winner.

The federation adopts the Regulations and appoints the Chief Judge; he appoints the Secretary, the judges and a
dealer per table; the Secretary registers the players and conducts the seat draw (its seed's hash recorded
first). Then the tables play round by round: every table one hand, each started by its dealer on the button
the floor gives, dealt in as the floor says (the hand is reported; the referee's desk records the floor's
``TableHandStarted`` and ``TableHandEnded`` from it); the busted are eliminated by their table's judge, one
record per starting stack, the smaller first (equal stacks share their places). Before each table deals, the floor does what the rules demand, in this order:
the final-table draw once the players left fit it, a table broken by its two-step draw once the others can
seat its players, then the moves (a player off a closed seat, the next big blind of the fullest table to the
seat the rules give), then the halts; a table the rules keep from dealing waits for the others. Levels follow
the clock, with a break after the fourth where the smallest chips are raced off; two players from the bubble
play goes hand-for-hand. An Olympic competition plays each table down to its winner and seats the winners
anew, stacks reset.

Now and then a judge records a violation and the penalty the ladder gives; a missed-round penalty is served
hand by hand (dealt in, forced bets posted, hand killed). Once per competition a judge issues a finding of fact
on a hand and a player in it protests to the Chief Judge, who decides; and once the Chief Judge penalises a
player who protests in writing to the federation, through the Chief Judge, who forwards the protest with a
snapshot of the protocol; the federation decides it after the competition.

A seed decides everything, so the same seed gives the same records.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from domain.cards import standard_deck
from domain.competition.aggregate import Competition, Recorder
from domain.competition.balancing import fullest
from domain.competition.draw import commitment, draw
from domain.competition.events import PlayerEliminated, RaceEntry
from domain.competition.floor import Floor
from domain.competition.floor_events import TableBreakCommitted
from domain.competition.hand_checks import hand_name
from domain.competition.placings import Bust
from domain.competition.regulations import Format, Level
from domain.competition.seating import Positions
from domain.discipline import PenaltyKind
from domain.discipline.events import PenaltyImposed
from domain.discipline.ladder import violation as ladder_violation
from domain.hand.events import HandEnded, HandStarted, PenaltyHandKilled, SeatEntry, Stakes
from domain.protests.events import ProtestDecision, ProtestTier
from domain.roles import Role
from domain.rulebooks import get_rulebook
from domain.variants import BettingStructure, Variant
from ingest.simulator.book import Book, contested_finding, contested_penalty
from ingest.simulator.bots import Temperament
from ingest.simulator.competition import register
from ingest.simulator.federation import Cast, Official, regulations
from ingest.simulator.hand import play_hand
from ingest.simulator.outcome import CompetitionSimulation, PenaltyRecord, Placing, ProtestRecord
from ingest.simulator.records import STEP
from ingest.simulator.run import BETWEEN_HANDS, SimulatedHand, flop_game
from ingest.simulator.shoe import Shoe, deck_of

START = datetime(2026, 3, 14, 11, 0, tzinfo=UTC)
#: the violations a judge records in a simulation: each one's ladder starts with a warning or missed rounds
VIOLATIONS = {
    "7.1.2": "kept his cards after announcing a fold",
    "7.1.6": "named his hand aloud while two players were still betting",
    "7.1.7": "took over two minutes to act without calling for time",
    "7.1.9": "threw his cards onto his neighbour's",
    "7.1.12": "left the table with his hand still live",
    "7.1.13": "answered his phone at the table",
}
#: the share of the field still playing when a judge's finding is protested, and when the Chief Judge's
#: penalty is (early enough that every competition has both before its winner)
FINDING_WHEN_LEFT = 0.9
CHIEF_JUDGE_PENALTY_WHEN_LEFT = 0.7
#: a round of hands more than this many, and the simulation is broken, not the competition long
MOST_ROUNDS = 5000


def simulate_competition(
    seed: int,
    players: int = 45,
    format: str | Format = Format.AMERICAN,
    table_size: int = 9,
    *,
    variant: str = "NT",
    rulebook: str = "bfsp",
    starting_stack: int = 5000,
    level_minutes: int = 20,
    penalties: float = 0.01,
    protests: bool = True,
    competition_id: str | None = None,
    started_at: datetime = START,
) -> CompetitionSimulation:
    """A whole competition of ``players`` at tables of ``table_size``, played to its winner.

    ``penalties`` is the chance, at each hand, that a judge records a violation there; ``protests`` adds the
    judge's finding protested to the Chief Judge and the Chief Judge's penalty protested to the federation.
    """
    try:
        kind = Format(format)
    except ValueError:
        raise ValueError(f"a competition is american or olympic, not {format!r}") from None
    if players < 2 or not 2 <= table_size <= 10 or not 0.0 <= penalties <= 1.0:
        raise ValueError(
            "a competition needs two players at least, tables of 2 to 10 seats, and a chance 0..1"
        )
    game = flop_game(variant)
    book = get_rulebook(rulebook)
    if book.dead_button:
        raise ValueError(
            f"{book.name} keeps a dead button, which the engine cannot deal from an empty seat; the simulator "
            "plays competitions under a moving button (bfsp 5.3.2)"
        )
    sizes = sorted(dict(book.final_table_sizes))
    if not sizes[0] <= table_size <= sizes[-1]:
        raise ValueError(f"tables seat {sizes[0]} to {sizes[-1]} players under {book.name}, not {table_size}")
    run = _Run(seed, kind, players, table_size, game, rulebook, starting_stack, level_minutes, penalties,
               protests, competition_id or f"sim-{kind.value}-{seed}", started_at)  # fmt: skip
    run.play()
    return run.result()


@dataclass
class _Serving:
    penalty: int
    rule: str


class _Run:
    """One competition being played: the books, the chips, the clock."""

    def __init__(
        self,
        seed: int,
        kind: Format,
        players: int,
        table_size: int,
        game: Variant,
        rulebook: str,
        starting_stack: int,
        level_minutes: int,
        penalties: float,
        protests: bool,
        competition_id: str,
        started_at: datetime,
    ) -> None:
        self.seed, self.kind, self.game = seed, kind, game
        self.rng = random.Random(f"{seed}/competition")
        self.cid = competition_id
        self.rulebook = get_rulebook(rulebook)
        self.penalty_rate, self.with_protests = penalties, protests
        tables = -(-players // table_size)
        self.cast = Cast.of(competition_id, tables)
        regs = regulations(
            players, kind, table_size, starting_stack, level_minutes, game.code, self.rulebook.name,
            started_at.date(),
        )  # fmt: skip
        self.now = started_at - timedelta(hours=2)
        self.book = Book(competition_id, regs, self.cast.federation, self._tick())
        self.entrants = register(players, self.rng)
        self.stacks: dict[str, int] = {}
        self.temperaments: dict[str, Temperament] = {}
        self.hands_at: dict[int, int] = {}
        self.rounds = 0
        self.serving: dict[str, _Serving] = {}
        self.penalties: list[PenaltyRecord] = []
        self.protests: list[ProtestRecord] = []
        self.placings: list[Placing] = []
        self.to_forward: str | None = None
        self.federation_protest: str | None = None
        self.finding_protest: str | None = None
        self.had_hand_for_hand = False
        self.started_at = started_at

    # --- the clock ----------------------------------------------------------------------------------------

    def _tick(self, seconds: int = 5) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now

    @property
    def competition(self) -> Competition:
        return self.book.competition

    # --- before play --------------------------------------------------------------------------------------

    def play(self) -> None:
        self._staff()
        self._register()
        self.now = max(self.now, self.started_at - timedelta(minutes=15))
        self._seat_draw()
        self._start_level()
        for _ in range(MOST_ROUNDS):
            if self.competition.winner is not None:
                break
            self._between_rounds()
            if self.competition.winner is not None:
                break
            self._round()
        else:
            raise RuntimeError(f"{self.cid} found no winner in {MOST_ROUNDS} rounds")
        self._after_the_end()

    def _staff(self) -> None:
        cast, book = self.cast, self.book
        chief = cast.chief_judge
        book.act(
            "OfficialAppointed", cast.federation, self._tick(), Competition.appoint, chief.person, chief.role
        )
        for official in (cast.secretary, *cast.judges):
            book.act(
                "OfficialAppointed", chief, self._tick(), Competition.appoint, official.person, official.role
            )
        # each dealer is assigned the tables he deals at: he reports there and nowhere else (bfsp 2.1.1, 2.4.1)
        for dealer in cast.dealers:
            book.act(
                "OfficialAppointed", chief, self._tick(), _appoint_dealer, dealer.person, cast.tables_of(dealer)
            )

    def _register(self) -> None:
        secretary = self.cast.secretary
        for n, player in enumerate(self.entrants):
            born = date(1970 + n % 30, 1 + n % 12, 1 + n % 28)
            self.book.act(
                "ParticipantRegistered",
                secretary,
                self._tick(),
                Competition.register,
                player.person_id,
                player.name,
                born,
            )
            self.temperaments[player.person_id] = Temperament.drawn(self.rng)

    def _seat_draw(self) -> None:
        """The seat draw (or an Olympic stage's): the seed's hash first, then the seed and the seats it gives."""
        cast, book = self.cast, self.book
        seed = f"{self.cid} draw {self.rng.getrandbits(64):016x}"
        book.act("SeatDrawCommitted", cast.secretary, self._tick(), Competition.commit_draw, commitment(seed))
        players = (
            tuple(self.competition.table_winners.values())
            if self.competition.stage
            else self.competition.remaining
        )
        seats = draw(seed, players, self.competition.regulations.max_seats)
        book.act(
            "SeatDrawConducted",
            cast.secretary,
            self._tick(),
            Competition.conduct_draw,
            seed,
            seats,
            cast.chief_judge.person,
        )
        stack = self.competition.regulations.starting_stack
        self.stacks.update({a.participant: stack for a in seats})

    def _start_level(self) -> None:
        """A judge announces the level the clock has in force (level 1 starts the clock)."""
        self.book.act("LevelStarted", self.cast.judges[0], self._tick(), Competition.start_level)

    # --- between rounds -----------------------------------------------------------------------------------

    def _between_rounds(self) -> None:
        if self.kind is Format.AMERICAN:
            self._floor_work()
            self._hand_for_hand()
        elif self._stage_over():
            self._seat_draw()
        if self.to_forward is not None:
            self._forward()
        if self.competition.hand_for_hand is None:
            self._levels()

    def _levels(self) -> None:
        """What the clock has brought since the last round (bfsp 3.3, 2.1.5): a scheduled break is announced, the
        chips are coloured up, play waits for its end; a new level is announced."""
        c, chief = self.competition, self.cast.chief_judge
        phase = c.phase_at(self.now)
        assert phase is not None, "level 1 started the clock"
        if phase.on_break is not None:
            if c.on_break is None:
                self.book.act("BreakStarted", chief, self._tick(), Competition.start_break, phase.on_break.minutes)
                self._colour_up()
            assert phase.ends is not None, "a break ends"
            self.now = max(self.now, phase.ends)
            self.book.act("BreakEnded", chief, self._tick(), Competition.end_break)
            phase = c.phase_at(self.now)
            assert phase is not None
        if all(s.level.number != phase.level.number for s in c.level_starts):
            self._start_level()

    def _colour_up(self) -> None:
        """At a break, the smallest chips nothing at the next level is owed in are coloured up, table by table,
        by a chip race dealt by each table's dealer (TDA 2022 24)."""
        c = self.competition
        level = c.current_level
        assert level is not None
        denominations = list(c.regulations.denominations)
        raced = {removed for _, removed in c.races}
        coming = c.levels[level.number] if level.number < len(c.levels) else level
        for removed, larger in zip(denominations, denominations[1:], strict=False):
            if removed in raced:
                continue
            if any(amount % larger for amount in coming.forced_bets()):
                return
            tables: dict[int, list[tuple[int, str]]] = {}
            for participant, (table, seat) in c.seats.items():
                if participant not in c.eliminated:
                    tables.setdefault(table, []).append((seat, participant))
            for table, seated in sorted(tables.items()):
                self._chip_race(table, sorted(seated), removed, larger)
            return

    def _chip_race(self, table: int, seated: list[tuple[int, str]], removed: int, larger: int) -> None:
        entries = []
        for seat, participant in seated:
            odd = self.stacks[participant] % larger // removed
            entries.append(RaceEntry(seat, participant, odd, self.stacks[participant] - odd * removed))
        deck = [str(card) for card in standard_deck()]
        self.rng.shuffle(deck)
        dealt = (
            () if self.rulebook.chip_race_rounds_up else tuple(deck[: sum(e.removed_chips for e in entries)])
        )
        conducted = self.book.act(
            "ChipRaceConducted", self.cast.dealer(table), self._tick(), Competition.conduct_chip_race,
            table, removed, entries, dealt,
        )  # fmt: skip
        for result in conducted.results:
            self.stacks[result.participant] = result.stack_after

    def _floor_work(self, not_before: datetime | None = None) -> bool:
        """What the floor owes before the next hands: final table, a break, the balancing moves, the halts;
        whether it did anything. Its acts are timed at ``not_before`` or later: after the hands they follow."""
        chief, book = self.cast.chief_judge, self.book
        acted = False
        while True:
            c = self.competition
            floor = c.floor
            assert floor is not None, "an American competition's tables are on its floor"
            if c.winner is not None:
                return acted
            final_due = not c.final_table and len(floor.tables) > 1 and c.players_left <= c.regulations.final_table_size
            broken = None if final_due else floor.table_to_break()
            move = None if final_due or broken is not None else floor.next_balancing_move(chief.person)
            halts = () if final_due or broken is not None or move is not None else floor.halts_due(chief.person)
            if not (final_due or broken is not None or move is not None or halts):
                return acted
            if not acted and not_before is not None:
                self.now = max(self.now, not_before)
            acted = True
            if final_due:
                self._final_table_draw()
            elif broken is not None:
                seed = f"{self.cid} break T{broken} {self.rng.getrandbits(64):016x}"
                committed = TableBreakCommitted(broken, commitment(seed))
                book.act(
                    "TableBreakCommitted", chief, self._tick(), Competition.commit_table_break, committed
                )
                drawn = floor.break_table(broken, seed, chief.person)
                book.act("TableBroken", chief, self._tick(), Competition.break_table, drawn)
            elif move is not None:
                book.act("PlayerMoved", chief, self._tick(), Competition.move_player, move)
            else:
                book.act("TableHalted", chief, self._tick(), Competition.halt_table, halts[0])

    def _final_table_draw(self) -> None:
        cast, book = self.cast, self.book
        seed = f"{self.cid} final table {self.rng.getrandbits(64):016x}"
        book.act(
            "FinalTableDrawCommitted",
            cast.secretary,
            self._tick(),
            Competition.commit_final_table_draw,
            commitment(seed),
        )
        seats = draw(seed, self.competition.remaining, self.competition.regulations.final_table_size)
        book.act(
            "FinalTableDrawConducted",
            cast.secretary,
            self._tick(),
            Competition.conduct_final_table_draw,
            seed,
            seats,
            cast.chief_judge.person,
        )

    def _hand_for_hand(self) -> None:
        """Hand-for-hand from two players before the bubble until it bursts (TDA 2022 RP-8), at several tables."""
        c, chief = self.competition, self.cast.chief_judge
        paid = len(c.regulations.prizes)
        if c.hand_for_hand is not None:
            if c.players_left <= paid:
                self.book.act("HandForHandEnded", chief, self._tick(), Competition.end_hand_for_hand)
            return
        if self._bubble_near():
            announced = self._tick()
            phase = c.phase_at(announced)
            while phase is not None and phase.on_break is not None:
                self._levels()  # a break the clock has brought is taken first: hand-for-hand starts in a level
                announced = self._tick()
                phase = c.phase_at(announced)
            assert phase is not None
            left = int(phase.left.total_seconds())
            self.book.act("HandForHandStarted", chief, announced, Competition.start_hand_for_hand, left)
            self.had_hand_for_hand = True

    def _bubble_near(self) -> bool:
        """Two players or fewer from the money, at several tables, and no hand-for-hand yet (TDA 2022 RP-8)."""
        c = self.competition
        paid = len(c.regulations.prizes)
        return (
            c.hand_for_hand is None
            and paid < c.players_left <= paid + 2
            and len(self._floor().tables) > 1
            and not self.had_hand_for_hand
        )

    def _stage_over(self) -> bool:
        c = self.competition
        return c.stage is not None and c.stage.tables > 1 and len(c.table_winners) == c.stage.tables

    # --- a round of hands ---------------------------------------------------------------------------------

    def _round(self) -> None:
        c = self.competition
        self.rounds += 1
        if c.hand_for_hand is not None:
            chief = self.cast.chief_judge
            self.book.act("HandForHandHandStarted", chief, self._tick(), Competition.start_hand_for_hand_hand)
        start, ends, played = self.now, [self.now], set[int]()
        while self.competition.winner is None:
            # the tables play side by side; a table's hand starts a little after the one before it
            self.now = start + timedelta(seconds=10 * len(played))
            if self.kind is Format.AMERICAN:
                # balance before the fullest table deals again (bfsp 3.1); the floor acts once the hands dealt
                # so far this round have ended (a seat is left when its hand is over, and the tables' counts are
                # those the hands left), and the hands still to deal start after it
                if self._floor_work(not_before=max(ends)):
                    start = self.now - timedelta(seconds=10 * len(played))
                if played and self._bubble_near():
                    break  # the bubble is near mid-round: the next round is played hand-for-hand
            waiting = [t for t in self._ready() if t not in played]
            if not waiting or not self._clock_deals():
                break
            played.add(waiting[0])
            ends.append(self._hand(waiting[0]))
        if not played and self.competition.winner is None and self._clock_deals():
            raise RuntimeError(f"no table of {self.cid} can play: {self._floor().counts()}")
        self.now = max(ends) + BETWEEN_HANDS

    def _clock_deals(self) -> bool:
        """Whether a hand may start now by the level clock: not on a scheduled break (bfsp 3.3, 2.1.5)."""
        phase = self.competition.phase_at(self.now)
        return phase is not None and phase.on_break is None and not phase.paused

    def _ready(self) -> list[int]:
        """The tables that may deal: two players at least, not halted, not a fullest table owing a player to a
        short one that has no seat for him yet, and none with a player on a seat closed for the last two tables
        (bfsp 3.1): they wait for another table's button to move on and free a seat the rules allow."""
        floor = self._floor()
        waiting = set()
        if not floor.olympic and len(floor.tables) > 1 and not floor.is_balanced():
            waiting = {t.number for t in fullest(floor.tables)}
        waiting |= {t.number for t in floor.tables if any(seat > floor.seat_limit for seat in t.occupied)}
        return [
            t.number for t in floor.tables if len(t.seats) >= 2 and not t.halted and t.number not in waiting
        ]

    def _floor(self) -> Floor:
        floor = self.competition.floor
        assert floor is not None, "the seat draw opened the floor"
        return floor

    def _hand(self, table: int) -> datetime:
        """One hand at ``table``, and what follows it: eliminations, penalties served, the odd violation."""
        c, dealer = self.competition, self.cast.dealer(table)
        floor = self._floor()
        positions = floor.next_positions(table)
        assert positions is not None
        dealt = [(seat, p) for seat, p in floor.table(table).seats if p in set(floor.dealt_in(table))]
        number = self.hands_at.get(table, 0) + 1
        self.hands_at[table] = number
        table_id, started_at = f"T{table}", self._tick(0)
        self.book.follow(dealer, started_at, Competition.start_table_hand, table, positions.button)
        level = c.level_at(started_at)  # the level in force by the clock when the hand starts (TDA 2022 23)
        assert level is not None
        started = _hand_started(
            table_id, number, self.game, self.rulebook.name, level, positions, dealt, self.stacks,
            c.raise_cap_lifted,
        )
        hand_rng = random.Random(f"{self.seed}/{table_id}/{number}")
        killed = {
            seat: PenaltyHandKilled(seat, self.serving[p].rule, f"penalty-{self.serving[p].penalty}")
            for seat, p in dealt
            if p in self.serving
        }
        temperaments = {seat: self.temperaments[p] for seat, p in dealt}
        shoe = Shoe(deck_of(self.game), hand_rng)
        played = play_hand(started, self.rulebook, shoe, temperaments, hand_rng, killed=killed)
        self.book.entries.append(
            SimulatedHand(table_id, number, self.rounds, started_at, played, False)
        )
        self.now = started_at + STEP * len(played.events)
        self.book.follow(dealer, self._tick(), Competition.end_table_hand, table)
        began = {e.seat: e.stack for e in started.seats}
        by_seat = dict(dealt)
        for seat, chips in played.final_stacks.items():
            self.stacks[by_seat[seat]] = chips
        hand = hand_name(table_id, number)
        self._served(
            hand, dealer, {e.seat for e in played.events if isinstance(e, PenaltyHandKilled)}, by_seat
        )
        busts = [
            Bust(by_seat[s], table, began[s])
            for s, chips in sorted(played.final_stacks.items())
            if chips == 0
        ]
        if busts:
            self._eliminate(hand, busts, table)
        self._officials_at(table, hand, dealt, played)
        return self.now

    def _eliminate(self, hand: str, busts: list[Bust], table: int) -> None:
        before = len(self.competition.eliminated)
        self.book.eliminate(hand, busts, self.cast.judge(table), self._tick())
        for e in list(self.competition.eliminated.values())[before:]:
            assert isinstance(e, PlayerEliminated)
            self.placings.append(Placing(e.participant, e.place, hand))
            self.serving.pop(e.participant, None)
            del self.stacks[e.participant]

    def _served(self, hand: str, dealer: Official, killed: set[int], by_seat: dict[int, str]) -> None:
        for seat in sorted(killed):
            participant = by_seat[seat]
            self.book.serve(participant, hand, dealer, self._tick())
            if self.book.serving(participant) is None:
                del self.serving[participant]

    # --- the officials' acts at a table -------------------------------------------------------------------

    def _officials_at(self, table: int, hand: str, dealt: list[tuple[int, str]], played: Any) -> None:
        c = self.competition
        # a penalty is served at a table still playing (missed rounds count its players, bfsp 7.1.2)
        still = [p for p, (t, _) in c.seats.items() if t == table and p not in c.eliminated]
        alive = [p for _, p in dealt if p in still and p not in self.serving]
        if len(still) < 2 or not alive:
            return
        left = self.competition.players_left / len(self.entrants)
        if self.with_protests and self.finding_protest is None and left <= FINDING_WHEN_LEFT:
            self._finding(table, hand, dealt, played)
        elif self.with_protests and self.federation_protest is None and left <= CHIEF_JUDGE_PENALTY_WHEN_LEFT:
            self._chief_judges_penalty(hand, self.rng.choice(alive))
        elif self.rng.random() < self.penalty_rate:
            code = self.rng.choice(sorted(VIOLATIONS))
            self._penalise(self.rng.choice(alive), code, hand, self.cast.judge(table))

    def _penalise(
        self, participant: str, code: str, hand: str, official: Official
    ) -> tuple[int, PenaltyImposed]:
        book = self.book
        number = book.violation(participant, code, hand, VIOLATIONS[code], official, self._tick())
        occurrence = book.cases[participant].violations[number - 1].occurrence
        sanction = next(
            s for s in ladder_violation(code).sanctions(occurrence, False)
            if s.kind in (PenaltyKind.WARNING, PenaltyKind.MISSED_ROUNDS)
        )  # fmt: skip
        imposed = book.penalty(
            participant, number, sanction.kind, sanction.least_rounds, official, self._tick()
        )
        self.penalties.append(
            PenaltyRecord(
                participant, code, imposed.kind, imposed.rounds, official.role, official.person, hand
            )
        )
        penalty = len(book.cases[participant].penalties)
        if imposed.kind is PenaltyKind.MISSED_ROUNDS:
            self.serving[participant] = _Serving(penalty, f"bfsp {code}")
        return penalty, imposed

    def _finding(self, table: int, hand: str, dealt: list[tuple[int, str]], played: Any) -> None:
        """A judge's finding on the hand just played; a player who lost chips in it protests to the Chief Judge."""
        ended = next(e for e in played.derived if isinstance(e, HandEnded))
        began = {e.seat: e.stack for e in played.started.seats}
        losers = [p for s, p in dealt if dict(ended.final_stacks).get(s, 0) < began[s]]
        if not losers:
            return
        judge, chief = self.cast.judge(table), self.cast.chief_judge
        table_id, number = hand.split("/")
        ruling = self.book.finding(
            table_id, int(number), played.pots, ended,
            "the last bet was called before the all-in was announced: the action stands as dealt", judge, self._tick(),
        )  # fmt: skip
        filer = self.rng.choice(losers)
        name = self.book.file(
            ProtestTier.CHIEF_JUDGE, filer, self._person(filer), contested_finding(ruling),
            "the call came after the all-in was announced", self._tick(),
        )  # fmt: skip
        self.book.decide(
            name,
            ProtestDecision.DISMISSED,
            "the dealer and the judge saw the call first",
            chief,
            self._tick(),
        )
        self.protests.append(
            ProtestRecord(name, ProtestTier.CHIEF_JUDGE, filer, ruling.ruling, ProtestDecision.DISMISSED)
        )
        self.finding_protest = name

    def _chief_judges_penalty(self, hand: str, participant: str) -> None:
        """The Chief Judge penalises; the participant protests in writing, through him, to the federation."""
        penalty, _ = self._penalise(participant, "7.1.6", hand, self.cast.chief_judge)
        name = self.book.file(
            ProtestTier.FEDERATION, participant, self._person(participant), contested_penalty(penalty, participant),
            "I named no hand: I said I was thinking about it", self._tick(),
        )  # fmt: skip
        self.federation_protest = name
        self.to_forward = name

    def _forward(self) -> None:
        assert self.to_forward is not None
        at = self._tick()
        self.book.forward(self.to_forward, *self.book.snapshot(at), self.cast.chief_judge, at)
        self.to_forward = None

    def _after_the_end(self) -> None:
        """The federation decides the protest it was sent, days after the competition, and tells the filer."""
        name = self.federation_protest
        if name is None:
            return
        if self.to_forward is not None:
            self._forward()
        self.now += timedelta(days=5)
        self.book.decide(
            name, ProtestDecision.DISMISSED, "the judge's report and the table's video agree with the Chief Judge",
            self.cast.federation, self._tick(),
        )  # fmt: skip
        filing = self.book.protests[name].filing
        self.protests.append(ProtestRecord(name, ProtestTier.FEDERATION, filing.filer, filing.contested.reference,
                                           ProtestDecision.DISMISSED))  # fmt: skip

    def _person(self, participant: str) -> str:
        person: str = self.competition.entries[participant].person
        return person

    def result(self) -> CompetitionSimulation:
        c = self.competition
        assert c.winner is not None
        dealers = {f"T{t}": self.cast.dealer(t) for t in range(1, len(self.cast.dealers) + 1)}
        return CompetitionSimulation(
            self.seed, self.cid, self.kind, len(self.entrants), self.book.entries,
            tuple(sorted(self.placings, key=lambda p: p.place)), c.winner, tuple(self.penalties),
            tuple(sorted(self.protests, key=lambda p: p.protest)), dealers, self.rulebook.name, self.book,
        )  # fmt: skip


def _hand_started(
    table_id: str,
    number: int,
    game: Variant,
    rulebook: str,
    level: Level,
    positions: Positions,
    dealt: list[tuple[int, str]],
    stacks: dict[str, int],
    raise_cap_lifted: bool,
) -> HandStarted:
    """The hand's start as the floor seats it: the button and blinds where the floor says, antes from all."""
    seats = [seat for seat, _ in dealt]
    limit = game.betting is BettingStructure.FIXED_LIMIT
    stakes = Stakes(
        antes=tuple((s, level.ante) for s in seats) if level.ante else (),
        blinds=((positions.small_blind, level.small_blind), (positions.big_blind, level.big_blind)),
        small_bet=level.big_blind if limit else 0,
        big_bet=2 * level.big_blind if limit else 0,
        min_bet=level.big_blind,
    )
    entries = tuple(SeatEntry(seat, p, stacks[p]) for seat, p in dealt)
    return HandStarted(
        table_id, number, game.code, entries, positions.button, stakes, rulebook, level.number, True,
        raise_cap_lifted,
    )


def _appoint_dealer(
    competition: Competition, person: str, tables: tuple[int, ...], at: datetime, by: Recorder
) -> None:
    competition.appoint(person, Role.DEALER, at, by, tables=tables)
