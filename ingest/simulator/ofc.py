"""The simulator's Open-Face Chinese tables (``pokeraudit simulate --variant OFC``): bots that set legal cards,
foul now and then, reach fantasy, and a round now and then whose fantasy deal is miscounted (a redeal).

A bot sets each card where it pairs what the row already holds, keeps high cards low on the board (bottom, then
middle) and small ones on top, and takes a queen or better to the top when it would pair there (chasing
fantasy); a little noise makes it misjudge, so some hands foul. A player in fantasy tries a few hundred
settings of his 14 cards and keeps the best that does not foul. Each round is judged by the rules engine while it
is played (:class:`domain.ofc.game.OfcGame`): the simulator never reports an act the engine would refuse.

Players are the table's seats for the whole event; the button moves one seat each round (bfsp 8, set-up), and
who plays in fantasy follows from the round before (:func:`domain.ofc.game.verify_fantasy`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from itertools import permutations
from typing import Any
from uuid import uuid5

from domain.cards import Card, standard_deck
from domain.competition.draw import commitment as draw_commitment
from domain.competition.draw import draw as seat_draw
from domain.competition.draw import starting_buttons
from domain.competition.events import (
    OfficialAppointed,
    ParticipantRegistered,
    RegulationsAdopted,
    SeatDrawCommitted,
    SeatDrawConducted,
)
from domain.competition.regulations import Format, Level, Prize, Regulations
from domain.ofc.events import (
    OFC,
    OfcCardsDealt,
    OfcCardsSet,
    OfcPlayer,
    OfcReported,
    OfcRoundRedealt,
    OfcRoundScored,
    OfcRoundStarted,
)
from domain.ofc.game import OfcGame, Seat, positions
from domain.ofc.rows import HAND_SIZE, ROW_SIZE, Row, foul_of, repeats_fantasy, royalty, top_enters_fantasy
from domain.roles import Role
from domain.rulebooks import FantasyOrder, Rulebook, get_rulebook
from domain.variants import BettingStructure
from ingest.envelope import RecordedBy, encode, make_envelope
from ingest.publish import EVENT_NAMESPACE
from ingest.simulator.competition import Player, register, table_ids

SIMULATOR = RecordedBy(person="simulator", role=Role.SIMULATOR)
START = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)
STEP = timedelta(seconds=5)
BETWEEN_ROUNDS = timedelta(seconds=60)
FANTASY_TRIES = 300
QUEEN = 12


@dataclass(frozen=True, slots=True)
class PlayedRound:
    started: OfcRoundStarted
    events: tuple[OfcReported, ...]  # the start first
    redeals: tuple[OfcRoundRedealt, ...]
    scored: OfcRoundScored


def _place_score(
    rows: dict[Row, list[Card]], row: Row, card: Card, street: int, rng: random.Random, noise: float
) -> float:
    held = rows[row]
    score = 0.0
    if any(c.rank == card.rank for c in held):
        score += 6.0 if row is not Row.TOP else (12.0 if card.rank >= QUEEN else 3.0)
    high = (card.rank - 2) / 12  # 0 (deuce) .. 1 (ace)
    score += {Row.BOTTOM: 2.0 * high, Row.MIDDLE: 1.2 * high, Row.TOP: 1.5 * (1 - high)}[row]
    if row is Row.TOP and card.rank >= QUEEN and not held:
        score += 2.5  # a lone queen or better on top hopes for its pair: fantasy
    if sum(1 for c in held if c.suit is card.suit) == len(held) and held and row is not Row.TOP:
        score += 1.0  # keeps a flush draw
    rows[row].append(card)
    made = {r: _made(rows[r]) for r in Row}
    room = {r: ROW_SIZE[r] - len(rows[r]) for r in Row}
    rows[row].pop()
    for upper, lower in ((Row.TOP, Row.MIDDLE), (Row.MIDDLE, Row.BOTTOM)):
        if made[upper] > made[lower]:
            # a row above outgrows the one below: the way to a foul, unless the lower row has room to catch up
            score -= 9.0 if room[lower] < 3 else 2.5
    score += rng.random() * noise
    return score


def _made(cards: Sequence[Card]) -> tuple[int, int]:
    """What a partial row has made so far: its biggest group, then that group's rank (pairs count, kickers not)."""
    counts: dict[int, int] = {}
    for card in cards:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    if not counts:
        return (0, 0)
    return max((n, rank) for rank, n in counts.items() if n > 1) if max(counts.values()) > 1 else (1, 0)


def _setting(
    seat: Seat, cards: Sequence[Card], discards: int, rng: random.Random, noise: float
) -> OfcCardsSet:
    """A legal setting of ``cards``: each card kept to its best-scoring open row, the discard the card whose
    absence scores best."""
    options: list[tuple[Card, ...]] = [()] if not discards else [(card,) for card in cards]
    if seat.placed + len(cards) - discards == HAND_SIZE:
        return _last_setting(seat, cards, options, rng, noise)
    best: tuple[float, OfcCardsSet] | None = None
    for dropped in options:
        rows = {row: list(held) for row, held in seat.rows.items()}
        kept = [c for c in cards if c not in dropped]
        rng.shuffle(kept)
        total = 0.0
        for card in kept:
            open_rows = [row for row in Row if len(rows[row]) < ROW_SIZE[row]]
            scored = {row: _place_score(rows, row, card, seat.sets, rng, noise) for row in open_rows}
            row = max(open_rows, key=scored.__getitem__)
            total += scored[row]
            rows[row].append(card)
        added = {row: tuple(rows[row][len(seat.rows[row]) :]) for row in Row}
        setting = OfcCardsSet(seat.seat, added[Row.BOTTOM], added[Row.MIDDLE], added[Row.TOP], tuple(dropped))
        if best is None or total > best[0]:
            best = (total, setting)
    assert best is not None
    return best[1]


def _last_setting(
    seat: Seat, cards: Sequence[Card], options: list[tuple[Card, ...]], rng: random.Random, noise: float
) -> OfcCardsSet:
    """The setting that completes the hand: every way of filling the open places, valued by the finished hand
    (no foul first, then royalties and fantasy), with the bot's noise."""
    best: tuple[float, OfcCardsSet] | None = None
    holes = [row for row in Row for _ in range(ROW_SIZE[row] - len(seat.rows[row]))]
    for dropped in options:
        kept = [c for c in cards if c not in dropped]
        for order in dict.fromkeys(
            permutations(holes, len(kept))
        ):  # in a fixed order: the same seed, the same play
            rows = {row: list(held) for row, held in seat.rows.items()}
            for card, row in zip(kept, order, strict=True):
                rows[row].append(card)
            value = _finished_value(rows) + rng.random() * noise * 3
            if best is None or value > best[0]:
                added = {row: tuple(rows[row][len(seat.rows[row]) :]) for row in Row}
                best = (
                    value,
                    OfcCardsSet(seat.seat, added[Row.BOTTOM], added[Row.MIDDLE], added[Row.TOP], dropped),
                )
    assert best is not None
    return best[1]


def _finished_value(rows: dict[Row, list[Card]]) -> float:
    bottom, middle, top = rows[Row.BOTTOM], rows[Row.MIDDLE], rows[Row.TOP]
    if foul_of(bottom, middle, top) is not None:
        return -20.0
    value = float(royalty(Row.BOTTOM, bottom) + royalty(Row.MIDDLE, middle) + royalty(Row.TOP, top))
    return value + (10.0 if top_enters_fantasy(top) else 0.0)


def _fantasy_setting(seat: Seat, cards: Sequence[Card], rng: random.Random) -> OfcCardsSet:
    """The best of a few hundred random settings of a fantasy deal: no foul first, then royalties."""
    best: tuple[float, OfcCardsSet] | None = None
    ordered = sorted(cards, key=lambda c: c.rank, reverse=True)
    candidates = [ordered] + [rng.sample(list(cards), len(cards)) for _ in range(FANTASY_TRIES)]
    for deal in candidates:
        bottom, middle, top, dropped = (
            tuple(deal[:5]),
            tuple(deal[5:10]),
            tuple(deal[10:13]),
            tuple(deal[13:]),
        )
        fouled = foul_of(bottom, middle, top) is not None
        rows = {Row.BOTTOM: list(bottom), Row.MIDDLE: list(middle), Row.TOP: list(top)}
        value = _finished_value(rows) + (repeats_fantasy(bottom, top) * 10.0 if not fouled else 0.0)
        if best is None or value > best[0]:
            best = (value, OfcCardsSet(seat.seat, bottom, middle, top, dropped))
    assert best is not None
    return best[1]


@dataclass
class _Dealer:
    rng: random.Random
    deck: list[Card] = field(default_factory=list)

    def shuffle(self) -> None:
        self.deck = list(standard_deck())
        self.rng.shuffle(self.deck)

    def take(self, n: int) -> tuple[Card, ...]:
        cards, self.deck = tuple(self.deck[:n]), self.deck[n:]
        return cards


def play_round(
    started: OfcRoundStarted,
    rulebook: Rulebook,
    rng: random.Random,
    *,
    noise: float = 1.0,
    miscount: float = 0.0,
) -> PlayedRound:
    """One round played by bots, every act judged by the engine as it is reported.

    ``noise`` makes the bots misjudge (fouls); ``miscount`` is the chance a fantasy deal is miscounted once
    (bfsp 8: a redeal).
    """
    game = OfcGame(started, rulebook)
    events: list[OfcReported] = [started]
    redeals: list[OfcRoundRedealt] = []
    dealer = _Dealer(rng)

    def report(event: OfcReported) -> None:
        derived = game.apply(event)
        events.append(event)
        redeals.extend(d for d in derived if isinstance(d, OfcRoundRedealt))

    miscounted = False

    def fantasy_turns() -> bool:
        """The players in fantasy, in order; True when a miscounted deal brought a redeal."""
        nonlocal miscounted
        for seat in game.in_fantasy:
            if not miscounted and rng.random() < miscount:
                miscounted = True
                report(OfcCardsDealt(seat.seat, dealer.take(rulebook.ofc_fantasy_cards - 1)))
                return True
            cards = dealer.take(rulebook.ofc_fantasy_cards)
            report(OfcCardsDealt(seat.seat, cards))
            report(_fantasy_setting(seat, cards, rng))
        return False

    def normal_turns() -> bool:
        normal = game.normal
        dealt = {s.seat: dealer.take(5) for s in normal}
        for s in normal:
            report(OfcCardsDealt(s.seat, dealt[s.seat]))
        for s in normal:
            report(_setting(s, dealt[s.seat], 0, rng, noise))
        while not all(s.complete for s in normal):
            for s in normal:
                cards = dealer.take(3)
                report(OfcCardsDealt(s.seat, cards))
                report(_setting(s, cards, 1, rng, noise))
        return False

    first_fantasy = rulebook.ofc_fantasy_order is FantasyOrder.FANTASY_FIRST
    phases = (fantasy_turns, normal_turns) if first_fantasy else (normal_turns, fantasy_turns)
    while True:
        dealer.shuffle()  # a fresh deck for the round, and again for a redeal
        if not any(phase() for phase in phases):
            break
    assert game.scored is not None and all(s.placed == HAND_SIZE for s in game.order)
    return PlayedRound(started, tuple(events), tuple(redeals), game.scored)


def next_fantasy(
    previous: OfcRoundScored | None, rng: random.Random, repeat_chance: float = 0.9
) -> tuple[str, ...]:
    """Who plays the next round in fantasy: every fresh entry, and most of those who may repeat (it is optional)."""
    if previous is None:
        return ()
    return tuple(
        h.player
        for h in previous.hands
        if h.earns_fantasy or (h.may_repeat_fantasy and rng.random() < repeat_chance)
    )


@dataclass(frozen=True, slots=True)
class OfcTableRound:
    table_id: str
    started_at: datetime
    played: PlayedRound


@dataclass(frozen=True, slots=True)
class OfcSimulation:
    seed: int
    competition_id: str
    rulebook: str
    players: tuple[Player, ...]
    rounds: tuple[OfcTableRound, ...]
    recorded_by: RecordedBy = SIMULATOR
    variant: str = OFC
    #: an OFC competition's own acts before its rounds (Regulations, officials, registration, the seat draw),
    #: each with who records it and when; empty for plain OFC tables
    federation: tuple[tuple[Any, RecordedBy, datetime], ...] = ()
    #: who records each table's rounds (an OFC competition: its dealer); else ``recorded_by``
    dealers: tuple[tuple[str, RecordedBy], ...] = ()

    def records(self) -> Iterator[tuple[bytes, bytes]]:
        key = self.competition_id.encode()
        for n, (event, by, when) in enumerate(self.federation):
            envelope = make_envelope(
                event,
                event_id=uuid5(EVENT_NAMESPACE, f"{self.competition_id}/federation/{n}"),
                competition_id=self.competition_id,
                seq=0,
                recorded_by=by,
                occurred_at=when,
                rulebook=self.rulebook,
            )
            yield key, encode(envelope)
        dealers = dict(self.dealers)
        for table_round in self.rounds:
            started = table_round.played.started
            for seq, event in enumerate(table_round.played.events):
                envelope = make_envelope(
                    event,
                    event_id=uuid5(
                        EVENT_NAMESPACE,
                        f"{self.competition_id}/{started.table_id}/ofc-{started.round_number}/{seq}",
                    ),
                    competition_id=self.competition_id,
                    table_id=started.table_id,
                    hand_id=str(started.round_number),
                    seq=seq,
                    recorded_by=dealers.get(started.table_id, self.recorded_by),
                    occurred_at=table_round.started_at + STEP * seq,
                    rulebook=started.rulebook,
                )
                yield key, encode(envelope)

    def points(self) -> dict[str, int]:
        """Each player's points over the event (by name)."""
        total: dict[str, int] = {}
        for table_round in self.rounds:
            for hand in table_round.played.scored.hands:
                total[hand.player] = total.get(hand.player, 0) + hand.points
        return total

    def summary(self) -> dict[str, Any]:
        hands = [h for r in self.rounds for h in r.played.scored.hands]
        return {
            "competition": self.competition_id,
            "seed": self.seed,
            "variant": self.variant,
            "rulebook": self.rulebook,
            "players": len(self.players),
            "tables": len({r.table_id for r in self.rounds}),
            "rounds": len(self.rounds),
            "events": sum(len(r.played.events) for r in self.rounds),
            "fouls": sum(h.fouled for h in hands),
            "fantasies": sum(h.fantasy for h in hands),
            "redeals": sum(len(r.played.redeals) for r in self.rounds),
            "points": self.points(),
        }


def simulate_ofc(
    seed: int,
    tables: int = 1,
    seats: int = 3,
    rounds: int = 10,
    rulebook: str = "bfsp",
    *,
    competition_id: str | None = None,
    noise: float = 1.0,
    miscount: float = 0.05,
    started_at: datetime = START,
) -> OfcSimulation:
    """``tables`` OFC tables of ``seats`` players (2 or 3) playing ``rounds`` rounds each."""
    if tables < 1 or not 2 <= seats <= 3 or rounds < 0:
        raise ValueError("OFC is played at tables of 2 to 3 players (bfsp 8), at least one table")
    book = get_rulebook(rulebook)
    rng = random.Random(seed)
    players = register(tables * seats, rng)
    played: list[OfcTableRound] = []
    for t, table_id in enumerate(table_ids(tables)):
        at = started_at + timedelta(seconds=20 * t)
        here = players[t * seats : (t + 1) * seats]
        seated = tuple(OfcPlayer(n, p.name) for n, p in enumerate(here, start=1))
        previous: OfcRoundScored | None = None
        for number in range(1, rounds + 1):
            round_rng = random.Random(f"{seed}/{table_id}/ofc/{number}")
            button = positions(0, [p.seat for p in seated])[(number - 1) % seats]
            started = OfcRoundStarted(
                table_id, number, button, seated, next_fantasy(previous, round_rng), book.name
            )
            result = play_round(started, book, round_rng, noise=noise, miscount=miscount)
            played.append(OfcTableRound(table_id, at, result))
            at += STEP * len(result.events) + BETWEEN_ROUNDS
            previous = result.scored
    return OfcSimulation(seed, competition_id or f"sim-ofc-{seed}", book.name, players, tuple(played))


def simulate_ofc_competition(
    seed: int,
    players: int = 6,
    seats: int = 3,
    rounds: int = 4,
    rulebook: str = "bfsp",
    *,
    competition_id: str | None = None,
    noise: float = 1.0,
    miscount: float = 0.05,
    started_at: datetime = START,
) -> OfcSimulation:
    """An OFC competition run by the Competition (bfsp 8): the federation adopts its Regulations (``seats`` to a
    table, ``rounds`` rounds), the Chief Judge appoints a secretary and a dealer per table, the secretary
    registers ``players`` and conducts the committed seat draw, and each drawn table plays its rounds from the
    draw's starting button (the highest seat taken), the button moving one seat each round. The places go by
    points once every table has played its rounds."""
    if not 2 <= seats <= 3 or players < 2 or rounds < 1:
        raise ValueError("an OFC competition seats 2 to 3 to a table (bfsp 8), two players at least, one round")
    book = get_rulebook(rulebook)
    rng = random.Random(seed)
    registered = register(players, rng)
    competition = competition_id or f"sim-ofc-cup-{seed}"
    chief = RecordedBy(person=f"cj-{competition}", role=Role.CHIEF_JUDGE)
    secretary = RecordedBy(person=f"sec-{competition}", role=Role.SECRETARY)
    federation_body = RecordedBy(person="bfsp-board", role=Role.FEDERATION)
    regulations = Regulations(
        title=f"OFC Cup {seed}",
        format=Format.AMERICAN,
        variant=OFC,
        betting=BettingStructure.NO_LIMIT,
        starting_stack=1000,
        levels=(Level(1, 60, 25, 50),),
        max_seats=seats,
        starts_on=started_at.date(),
        rulebook=book.name,
        prizes=(Prize(1, 3000), Prize(2, 2000), Prize(3, 1000)),
        rounds=rounds,
    )
    seed_text = f"{competition} seat draw"
    assignments = seat_draw(seed_text, [p.person_id for p in registered], seats)
    table_numbers = sorted({a.table for a in assignments})
    dealers = {t: RecordedBy(person=f"dealer-{competition}-T{t}", role=Role.DEALER) for t in table_numbers}
    minute = timedelta(minutes=1)
    acts: list[tuple[Any, RecordedBy, datetime]] = [
        (RegulationsAdopted(competition, regulations), federation_body, started_at - 60 * minute),
        (OfficialAppointed(chief.person, Role.CHIEF_JUDGE), federation_body, started_at - 59 * minute),
        (OfficialAppointed(secretary.person, Role.SECRETARY), chief, started_at - 58 * minute),
        *((OfficialAppointed(d.person, Role.DEALER), chief, started_at - 58 * minute) for d in dealers.values()),
        *(
            (ParticipantRegistered(p.person_id, p.person_id, date(1990, 1, 1)), secretary, started_at - 50 * minute)
            for p in registered
        ),
        (SeatDrawCommitted(draw_commitment(seed_text)), secretary, started_at - 30 * minute),
        (
            SeatDrawConducted(seed_text, assignments, starting_buttons(assignments), chief.person),
            secretary,
            started_at - 20 * minute,
        ),
    ]
    played: list[OfcTableRound] = []
    for t in table_numbers:
        table_id = f"T{t}"
        at = started_at + timedelta(seconds=20 * t)
        seated = tuple(OfcPlayer(a.seat, a.participant) for a in assignments if a.table == t)
        taken = sorted(p.seat for p in seated)
        button = taken[-1]
        previous: OfcRoundScored | None = None
        for number in range(1, rounds + 1):
            round_rng = random.Random(f"{seed}/{table_id}/ofc/{number}")
            started = OfcRoundStarted(
                table_id, number, button, seated, next_fantasy(previous, round_rng), book.name
            )
            result = play_round(started, book, round_rng, noise=noise, miscount=miscount)
            played.append(OfcTableRound(table_id, at, result))
            at += STEP * len(result.events) + BETWEEN_ROUNDS
            previous = result.scored
            button = next((s for s in taken if s > button), taken[0])
    return OfcSimulation(
        seed,
        competition,
        book.name,
        registered,
        tuple(played),
        federation=tuple(acts),
        dealers=tuple((f"T{t}", d) for t, d in dealers.items()),
    )
