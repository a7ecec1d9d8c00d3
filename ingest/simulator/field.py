"""The seeded field: a cash-game club of 100+ players of varied styles, with rings of colluders in it, played
session by session through the rules engine, and its ground truth.

A seed decides everything. Each session, players turn up by their own activity; friends (clubs) and ring
partners who are both there ask to sit at one table, everyone else is seated at random. A ring colludes in
some sessions and not others, and in some hands of those; its one behaviour (soft play, chip dumping, team
play) changes a partner's decision only where a partner shares the pot, and every changed decision is
counted. ``write_field`` writes the hands as PHH (one ``.phhs`` per table and session, players named, with
``_session`` and ``_table``) and the truth as ``truth.json``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from domain.cards import Card, standard_deck
from domain.hand.events import HandStarted, ReportedEvent, SeatEntry, Stakes
from domain.rulebooks import Rulebook, get_rulebook
from ingest.phh_write import write_hand
from ingest.simulator.field_bots import STYLES, Behaviour, Style
from ingest.simulator.field_hand import Collusion, play_field_hand

SMALL_BLIND, BIG_BLIND = 50, 100
TABLE_SIZE = 6
#: the rings of a field: behaviour and size; 11 colluding pairs in all
RINGS = (
    (Behaviour.SOFT_PLAY, 3),
    (Behaviour.SOFT_PLAY, 2),
    (Behaviour.SOFT_PLAY, 2),
    (Behaviour.CHIP_DUMPING, 2),
    (Behaviour.CHIP_DUMPING, 2),
    (Behaviour.TEAM_PLAY, 3),
    (Behaviour.TEAM_PLAY, 2),
)
CLUBS, CLUB_SIZE = 8, 3


@dataclass(frozen=True, slots=True)
class FieldPlayer:
    name: str
    style: Style
    activity: float


@dataclass(frozen=True, slots=True)
class Ring:
    members: tuple[str, ...]
    behaviour: Behaviour
    #: share of the sessions the ring colludes in, and of the hands of those
    session_rate: float
    hand_rate: float


@dataclass(frozen=True, slots=True)
class FieldHand:
    session: str
    table: str
    events: tuple[ReportedEvent, ...]
    final_stacks: dict[int, int]


@dataclass(slots=True)
class Field:
    seed: int
    players: list[FieldPlayer]
    clubs: list[tuple[str, ...]]
    rings: list[Ring]
    hands: list[FieldHand] = field(default_factory=list)
    #: unordered pair (names sorted) → decisions the collusion changed
    changed: Counter[tuple[str, str]] = field(default_factory=Counter)

    def truth(self) -> dict[str, object]:
        return {
            "seed": self.seed,
            "hands": len(self.hands),
            "players": {p.name: p.style.name for p in self.players},
            "clubs": [list(c) for c in self.clubs],
            "rings": [
                {"members": list(r.members), "behaviour": r.behaviour.value, "session_rate": r.session_rate,
                 "hand_rate": r.hand_rate}
                for r in self.rings
            ],
            "changed_decisions": [[a, b, n] for (a, b), n in sorted(self.changed.items())],
        }


def generate_field(seed: int, players: int = 120, hands: int = 40_000, hands_per_session: int = 40) -> Field:
    """A field of ``players`` players and about ``hands`` hands (whole table sessions)."""
    needed = CLUBS * CLUB_SIZE + sum(size for _, size in RINGS) + TABLE_SIZE
    if players < needed:
        raise ValueError(f"players: a field needs at least {needed} players (its clubs, rings and a table more)")
    rng = random.Random(seed)
    field_ = _people(rng, players)
    field_.seed = seed
    rulebook = get_rulebook("bfsp")
    deck = list(standard_deck())
    session = 0
    while len(field_.hands) < hands:
        session += 1
        _play_session(field_, session, hands_per_session, rulebook, deck, rng)
    return field_


def _people(rng: random.Random, count: int) -> Field:
    styles, weights = zip(*STYLES, strict=True)
    players = [
        FieldPlayer(f"P{i:03d}", rng.choices(styles, weights)[0].jittered(rng), rng.uniform(0.3, 0.85))
        for i in range(1, count + 1)
    ]
    order = list(range(count))
    rng.shuffle(order)
    clubs, rings = [], []
    for _ in range(CLUBS):
        members = [order.pop() for _ in range(CLUB_SIZE)]
        for m in members:  # friends who sit together are regulars
            players[m] = FieldPlayer(players[m].name, players[m].style, rng.uniform(0.65, 0.9))
        clubs.append(tuple(players[m].name for m in members))
    for behaviour, size in RINGS:
        members = [order.pop() for _ in range(size)]
        rings.append(Ring(tuple(players[m].name for m in members), behaviour, rng.uniform(0.5, 1.0),
                          rng.uniform(0.6, 1.0)))
    return Field(0, players, clubs, rings)


def _seating(present: list[str], groups: list[tuple[str, ...]], rng: random.Random) -> list[list[str]]:
    """Tables of six: groups with two or more there ask to sit together (and mostly do), the rest at random."""
    tables: list[list[str]] = [[] for _ in range(len(present) // TABLE_SIZE)]
    if not tables:
        return []
    here = set(present)
    seated: set[str] = set()
    for group in groups:
        there = [m for m in group if m in here and m not in seated]
        if len(there) >= 2 and rng.random() < 0.85:
            room = [t for t in tables if len(t) + len(there) <= TABLE_SIZE]
            if room:
                rng.choice(room).extend(there)
                seated.update(there)
    rest = [p for p in present if p not in seated]
    rng.shuffle(rest)
    for table in tables:
        while len(table) < TABLE_SIZE and rest:
            table.append(rest.pop())
    return tables


def _play_session(
    field_: Field, session: int, hands: int, rulebook: Rulebook, deck: list[Card], rng: random.Random
) -> None:
    by_name = {p.name: p for p in field_.players}
    present = [p.name for p in field_.players if rng.random() < p.activity]
    rng.shuffle(present)
    groups = [r.members for r in field_.rings] + list(field_.clubs)
    rng.shuffle(groups)
    active_rings = [r for r in field_.rings if rng.random() < r.session_rate]
    session_id = f"S{session:03d}"
    for number, names in enumerate(_seating(present, groups, rng), start=1):
        table_id = f"{session_id}-T{number:02d}"
        stacks = {n: rng.randint(60, 150) * BIG_BLIND for n in names}
        for hand_number in range(1, hands + 1):
            hand_rng = random.Random(f"{field_.seed}:{table_id}:{hand_number}:{rng.random()}")
            button = (hand_number - 1) % len(names) + 1
            seats = tuple(SeatEntry(s, n, stacks[n]) for s, n in enumerate(names, start=1))
            sb, bb = button % len(names) + 1, (button + 1) % len(names) + 1
            started = HandStarted(table_id, hand_number, "NT", seats, button,
                                  Stakes(blinds=((sb, SMALL_BLIND), (bb, BIG_BLIND)), min_bet=BIG_BLIND),
                                  burns_recorded=False)
            collusion = _collusion(names, active_rings, hand_rng)
            styles = {s: by_name[n].style for s, n in enumerate(names, start=1)}
            played = play_field_hand(started, rulebook, deck, styles, collusion, hand_rng)
            field_.hands.append(FieldHand(session_id, table_id, tuple(played.events), played.final_stacks))
            for (a, b), n in played.changed.items():
                first, second = sorted((names[a - 1], names[b - 1]))
                field_.changed[(first, second)] += n


def _collusion(names: list[str], rings: list[Ring], rng: random.Random) -> dict[int, Collusion]:
    seat_of = {n: s for s, n in enumerate(names, start=1)}
    result = {}
    for ring in rings:
        seats = [seat_of[m] for m in ring.members if m in seat_of]
        if len(seats) < 2 or rng.random() >= ring.hand_rate:
            continue
        for index, seat in enumerate(seats):
            role = ("dumper" if index == 0 else "receiver") if ring.behaviour is Behaviour.CHIP_DUMPING else ""
            result[seat] = Collusion(ring.behaviour, frozenset(seats) - {seat}, role)
    return result


def field_files(field_: Field) -> Iterator[tuple[str, str]]:
    """(file name, PHH text): one ``.phhs`` per table and session, hands ``[1]``, ``[2]``, …"""
    by_table: dict[str, list[FieldHand]] = {}
    for hand in field_.hands:
        by_table.setdefault(hand.table, []).append(hand)
    for table, hands in by_table.items():
        parts = []
        for number, hand in enumerate(hands, start=1):
            text = write_hand(hand.events, hand.final_stacks)
            parts.append(f"[{number}]\n{text}_session = \"{hand.session}\"\n_table = \"{hand.table}\"\n")
        yield f"{table}.phhs", "\n".join(parts)


def write_field(field_: Field, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in field_files(field_):
        (folder / name).write_text(text)
    (folder / "truth.json").write_text(json.dumps(field_.truth(), indent=1))
