"""The integrity read model: counters per player and per pair, added to hand by hand.

One pass over a :class:`HandRecord` updates, for each player, PokerTracker 4's counts (docs/INTEGRITY.md)
and his decisions by situation and known hand strength; for each pair dealt in together, the hands they
shared, the decisions one made while the other was in the pot, the chips that flowed between them, their
luck at all-ins, and the few hands that say most about them (the evidence). Nothing is kept per hand, so
memory grows with the players and pairs seen, not the hands.

A situation (a *cell*) is the street, the price faced (none, small, medium, large), whether the pot is
multiway, and the strength bucket of the actor's own cards (domain/integrity/strength.py); where one opponent
is counted, also how strong *his* cards were (the audit log knows every hand dealt). An act is of one of
three classes: fold, passive (check or call), aggressive (bet or raise).
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from domain.evaluation.high import Category
from domain.hand.events import ActionKind
from domain.integrity.record import HandRecord
from domain.integrity.strength import board_category, describe, postflop_bucket, preflop_bucket
from projections.integrity.equity import equities

FOLD, PASSIVE, AGGRESSIVE = 0, 1, 2
STREETS, PRICES, WAYS, BUCKETS, STANDINGS, CLASSES = 4, 4, 2, 5, 3, 3
CELLS = STREETS * PRICES * WAYS * BUCKETS
#: a pair's code adds what the other player held, known from the deal: weak (nothing, a weak pair or a
#: draw), good (top pair), strong (two pair or better); the player's own code uses the middle one
CODES = CELLS * STANDINGS * CLASSES
_STANDING = (0, 0, 1, 2, 2)
#: added to a pair's code when the other player made the bet the actor faces
BETTOR = CODES
#: evidence kept per pair and kind of signal
EVIDENCE = 6
_SOFT, _DUMP, _TEAM = ("soft0", "soft1"), ("dump0", "dump1"), ("team0", "team1")
#: a large loss from the pair's first player to the second ("flow0"), or the other way ("flow1")
_FLOW = {True: "flow0", False: "flow1"}
STREET_NAMES = ("before the flop", "on the flop", "on the turn", "on the river")

#: PokerTracker 4 counts per player, in this order in PlayerCounts.counts
COUNTS = (
    "hands", "vpip_opportunities", "vpip", "pfr", "three_bet_opportunities", "three_bets",
    "fold_to_three_bet_opportunities", "folds_to_three_bet", "cbet_opportunities", "cbets",
    "fold_to_cbet_opportunities", "folds_to_cbet", "postflop_bets_raises", "postflop_calls",
    "postflop_folds", "postflop_checks", "saw_flop", "went_to_showdown", "won_at_showdown", "all_in_hands",
)
_AT = {name: i for i, name in enumerate(COUNTS)}


def cell_of(street: int, price: int, multiway: int, bucket: int) -> int:
    return ((street * PRICES + price) * WAYS + multiway) * BUCKETS + bucket


def price_of(to_call: int, pot: int) -> int:
    """0 nothing to call; 1 up to a fifth of the pot after the call; 2 up to a third; 3 more."""
    if to_call <= 0:
        return 0
    share = to_call / (pot + to_call)
    return 1 if share <= 0.2 else 2 if share <= 1 / 3 else 3


@dataclass(slots=True)
class PlayerCounts:
    counts: list[int] = field(default_factory=lambda: [0] * len(COUNTS))
    #: net chips won, and in big blinds with its sum of squares (for the interval)
    net: int = 0
    net_bb: float = 0.0
    net_bb_sq: float = 0.0
    #: the same with every all-in's result replaced by its expectation
    adjusted_bb: float = 0.0
    adjusted_bb_sq: float = 0.0
    #: decisions by code (cell × the opponent's strength × class), once per opponent in the pot (+BETTOR where that opponent made the bet): the sum of the
    #: player's side of every pair, the baseline a pair is compared with
    opposed: defaultdict[int, int] = field(default_factory=lambda: defaultdict(int))


@dataclass(slots=True)
class PairCounts:
    """Two players, ``a`` < ``b`` by name. Directed figures are kept both ways: ``[0]`` a→b, ``[1]`` b→a."""

    hands: int = 0
    #: pots both put chips in
    pots: int = 0
    #: chips from a to b (net, negative: b to a), gross, and the sum of squares of each hand's flow
    flow: float = 0.0
    gross: float = 0.0
    flow_sq: float = 0.0
    #: all-in pots both contested: a's result above its expectation, and the variance of that result
    luck: float = 0.0
    luck_var: float = 0.0
    all_ins: int = 0
    #: decisions of a while b was in the pot (index 0) and of b while a was (index 1), by code (+BETTOR)
    decisions: tuple[defaultdict[int, int], defaultdict[int, int]] = field(
        default_factory=lambda: (defaultdict(int), defaultdict(int))
    )
    #: per kind of signal, the hands that say most: a min-heap of (weight, hand id, reason)
    evidence: dict[str, list[tuple[float, str, str]]] = field(default_factory=dict)

    def note(self, kind: str, weight: float, hand_id: str, reason: Callable[[], str]) -> None:
        """Keeps the hand if it is among the pair's heaviest of its kind; the reason is worded only then."""
        heap = self.evidence.setdefault(kind, [])
        if len(heap) < EVIDENCE:
            heapq.heappush(heap, (weight, hand_id, reason()))
        elif (weight, hand_id) > heap[0][:2]:
            heapq.heapreplace(heap, (weight, hand_id, reason()))


@dataclass(slots=True)
class Counters:
    players: dict[str, PlayerCounts] = field(default_factory=dict)
    pairs: dict[tuple[str, str], PairCounts] = field(default_factory=dict)
    #: session → table → players seen there (the seating)
    seating: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    hands: int = 0

    def player(self, name: str) -> PlayerCounts:
        found = self.players.get(name)
        if found is None:
            found = self.players[name] = PlayerCounts()
        return found

    def pair(self, a: str, b: str) -> tuple[PairCounts, int]:
        """The pair's counts and the direction (0 when ``a`` is the pair's first player)."""
        key, direction = ((a, b), 0) if a < b else ((b, a), 1)
        found = self.pairs.get(key)
        if found is None:
            found = self.pairs[key] = PairCounts()
        return found, direction

    def add(self, hand: HandRecord) -> None:
        _Walk(self, hand).run()
        self.hands += 1

    def merge(self, other: Counters) -> None:
        """Adds another set of counters (from hands this one has not seen): fields read in parallel."""
        for name, theirs in other.players.items():
            mine = self.player(name)
            mine.counts = [x + y for x, y in zip(mine.counts, theirs.counts, strict=True)]
            mine.net += theirs.net
            mine.net_bb += theirs.net_bb
            mine.net_bb_sq += theirs.net_bb_sq
            mine.adjusted_bb += theirs.adjusted_bb
            mine.adjusted_bb_sq += theirs.adjusted_bb_sq
            for code, n in theirs.opposed.items():
                mine.opposed[code] += n
        for (a, b), pair in other.pairs.items():
            own, _ = self.pair(a, b)
            own.hands += pair.hands
            own.pots += pair.pots
            own.flow += pair.flow
            own.gross += pair.gross
            own.flow_sq += pair.flow_sq
            own.luck += pair.luck
            own.luck_var += pair.luck_var
            own.all_ins += pair.all_ins
            for side in (0, 1):
                for code, n in pair.decisions[side].items():
                    own.decisions[side][code] += n
            for kind, heap in pair.evidence.items():
                for weight, hand_id, reason in heap:
                    own.note(kind, weight, hand_id, partial(str, reason))
        for session, tables in other.seating.items():
            for table, names in tables.items():
                self.seating.setdefault(session, {}).setdefault(table, set()).update(names)
        self.hands += other.hands


class _Walk:
    """One hand, act by act, with the betting state each decision was made in."""

    def __init__(self, counters: Counters, hand: HandRecord) -> None:
        self.c = counters
        self.hand = hand
        n = len(hand.players)
        self.n = n
        self.flags = [[0] * len(COUNTS) for _ in range(n)]
        self.in_hand = [True] * n
        self.street_bet = list(hand.blinds)
        self.contributed = list(hand.posted)
        self.buckets: dict[tuple[int, int], int] = {}
        self.boards: dict[int, Category] = {}
        #: (pair, direction) for each player and opponent, looked up once per hand
        self.pairs: list[list[tuple[PairCounts, int] | None]] = [[None] * n for _ in range(n)]
        self.opposed = [counters.player(name).opposed for name in hand.players]

    def pair(self, i: int, j: int) -> tuple[PairCounts, int]:
        found = self.pairs[i][j]
        if found is None:
            names = self.hand.players
            found = self.pairs[i][j] = self.c.pair(names[i], names[j])
        return found

    def bucket(self, player: int, street: int) -> int:
        """The strength of the player's cards on this street, -1 when the record does not know them."""
        key = (player, street)
        found = self.buckets.get(key)
        if found is None:
            hole = self.hand.hole[player]
            if len(hole) != 2:
                found = -1
            elif street == 0:
                found = preflop_bucket(hole)
            else:
                board = self.hand.board_on(street)
                on_board = self.boards.get(street)
                if on_board is None:
                    on_board = self.boards[street] = board_category(board)
                found = postflop_bucket(hole, board, on_board)
            self.buckets[key] = found
        return found

    def run(self) -> None:
        hand, n, flags = self.hand, self.n, self.flags
        names = hand.players
        street, level, raises = 0, max(hand.blinds, default=0), 0
        last_aggressor = first_raiser = preflop_aggressor = -1
        cbet_made = False
        pot = sum(hand.posted)
        for player in range(n):
            flags[player][_AT["hands"]] = 1
        for act in hand.acts:
            if act.street != street:
                street, level, raises, last_aggressor = act.street, 0, 0, -1
                self.street_bet = [0] * n
                if street == 1:
                    for player in range(n):
                        if self.in_hand[player]:
                            flags[player][_AT["saw_flop"]] = 1
            i = act.player
            to_call = max(0, min(level - self.street_bet[i], hand.stacks[i] - self.contributed[i]))
            if act.kind is ActionKind.FOLD:
                klass = FOLD
            elif act.kind in (ActionKind.CALL, ActionKind.CHECK):
                klass = PASSIVE
            else:
                klass = AGGRESSIVE
            opponents = [j for j in range(n) if self.in_hand[j] and j != i]
            f = flags[i]
            if street == 0:
                self._preflop(f, i, klass, to_call, raises, first_raiser)
            else:
                if street == 1:
                    if i == preflop_aggressor and raises == 0 and not f[_AT["cbet_opportunities"]]:
                        f[_AT["cbet_opportunities"]] = 1
                        if klass == AGGRESSIVE:
                            f[_AT["cbets"]] = 1
                            cbet_made = True
                    elif cbet_made and raises == 1 and last_aggressor == preflop_aggressor and to_call > 0 \
                            and not f[_AT["fold_to_cbet_opportunities"]]:
                        f[_AT["fold_to_cbet_opportunities"]] = 1
                        f[_AT["folds_to_cbet"]] = int(klass == FOLD)
                name = ("postflop_folds", "postflop_checks" if to_call == 0 else "postflop_calls",
                        "postflop_bets_raises")[klass]
                f[_AT[name]] += 1
            bucket = self.bucket(i, street)
            if bucket >= 0 and opponents:
                self._decision(i, street, price_of(to_call, pot), len(opponents) > 1, bucket, klass, opponents,
                               last_aggressor, to_call, act.to)
            if klass == FOLD:
                self.in_hand[i] = False
            elif klass == PASSIVE:
                self.street_bet[i] += to_call
                self.contributed[i] += to_call
                pot += to_call
            else:
                paid = act.to - self.street_bet[i]
                self.street_bet[i] = act.to
                self.contributed[i] += paid
                pot += paid
                level = max(level, act.to)
                raises += 1
                last_aggressor = i
                if street == 0:
                    preflop_aggressor = i
                    if first_raiser < 0:
                        first_raiser = i
        self._finish(names, flags)

    def _preflop(self, f: list[int], i: int, klass: int, to_call: int, raises: int, first_raiser: int) -> None:
        if not f[_AT["vpip_opportunities"]]:
            f[_AT["vpip_opportunities"]] = 1
        if klass == AGGRESSIVE or (klass == PASSIVE and to_call > 0):
            f[_AT["vpip"]] = 1
        if klass == AGGRESSIVE:
            f[_AT["pfr"]] = 1
        if raises == 1 and first_raiser != i and not f[_AT["three_bet_opportunities"]]:
            f[_AT["three_bet_opportunities"]] = 1
            f[_AT["three_bets"]] = int(klass == AGGRESSIVE)
        if raises == 2 and first_raiser == i and not f[_AT["fold_to_three_bet_opportunities"]]:
            f[_AT["fold_to_three_bet_opportunities"]] = 1
            f[_AT["folds_to_three_bet"]] = int(klass == FOLD)

    def _decision(
        self, i: int, street: int, price: int, multiway: bool, bucket: int, klass: int, opponents: list[int],
        bettor: int, to_call: int, to: int,
    ) -> None:
        cell = cell_of(street, price, int(multiway), bucket) * STANDINGS
        opposed = self.opposed[i]
        for j in opponents:
            his = self.bucket(j, street)
            if his < 0:
                continue
            code = (cell + _STANDING[his]) * CLASSES + klass
            pair, direction = self.pair(i, j)
            counts = pair.decisions[direction]
            counts[code] += 1
            opposed[code] += 1
            if j == bettor:
                counts[code + BETTOR] += 1
                opposed[code + BETTOR] += 1
            focus = not multiway or j == bettor
            if focus and bucket >= 3 and klass != AGGRESSIVE:
                pair.note(_SOFT[direction], bucket + street / 4 + (klass == FOLD), self.hand.hand_id,
                          partial(self._soft_words, i, j, street, klass, to_call, bettor))
            if not multiway and bucket <= 1 and klass == AGGRESSIVE and street > 0:
                pair.note(_DUMP[direction], to / max(self.hand.big_blind, 1), self.hand.hand_id,
                          partial(self._dump_words, i, j, street, to))
            if multiway and klass == AGGRESSIVE and bucket <= 1:
                strong = self.bucket(j, street)
                if strong >= 3:
                    names = self.hand.players
                    third = ", ".join(names[k] for k in opponents if k != j)
                    pair.note(_TEAM[direction], strong + street / 4, self.hand.hand_id,
                              partial(self._team_words, i, j, street, third))

    def _dump_words(self, i: int, j: int, street: int, to: int) -> str:
        names = self.hand.players
        return f"{names[i]} bet {to:,} with {self._hand_words(i, street)} into {names[j]} heads-up " \
               f"{STREET_NAMES[street]}"

    def _team_words(self, i: int, j: int, street: int, third: str) -> str:
        names = self.hand.players
        return f"{names[i]} raised with {self._hand_words(i, street)} {STREET_NAMES[street]} while " \
               f"{names[j]} held {self._hand_words(j, street)} against {third}"

    def _soft_words(self, i: int, j: int, street: int, klass: int, to_call: int, bettor: int) -> str:
        names = self.hand.players
        cards = self._hand_words(i, street)
        where = STREET_NAMES[street]
        if klass == FOLD:
            return f"{names[i]} folded {cards} to {names[j]}'s bet {where}"
        if to_call:
            return f"{names[i]} only called {names[j]}'s bet with {cards} {where}"
        return f"{names[i]} checked {cards} with {names[j]} in the pot {where}" if j != bettor else \
            f"{names[i]} checked {cards} to {names[j]} {where}"

    def _hand_words(self, player: int, street: int) -> str:
        return describe(self.hand.hole[player], self.hand.board_on(street))

    def _finish(self, names: tuple[str, ...], flags: list[list[int]]) -> None:
        hand, n = self.hand, self.n
        contributed = self.contributed
        called = sorted(contributed, reverse=True)
        cap = called[1] if n > 1 else 0
        capped = [min(c, cap) for c in contributed]
        expected = self._all_in_expectation(capped)
        bb = max(hand.big_blind, 1)
        for i in range(n):
            f = flags[i]
            if hand.showdown[i]:
                f[_AT["went_to_showdown"]] = 1
                if hand.net[i] + capped[i] > 0:
                    f[_AT["won_at_showdown"]] = 1
            if expected is not None and i in expected:
                f[_AT["all_in_hands"]] = 1
            p = self.c.player(names[i])
            p.counts = [x + y for x, y in zip(p.counts, f, strict=True)]
            result = hand.net[i] / bb
            adjusted = (expected[i] if expected is not None and i in expected else hand.net[i]) / bb
            p.net += hand.net[i]
            p.net_bb += result
            p.net_bb_sq += result * result
            p.adjusted_bb += adjusted
            p.adjusted_bb_sq += adjusted * adjusted
        self._pairs(names, capped, expected)
        if hand.session or hand.table:
            self.c.seating.setdefault(hand.session, {}).setdefault(hand.table, set()).update(names)

    def _all_in_expectation(self, capped: list[int]) -> dict[int, float] | None:
        """Each all-in contestant's expected net, when the hand was all in before the river with every
        contestant's cards known: per pot (the main pot and each side pot, by the levels of what the
        contestants put in), his equity against the others eligible for it × the pot, less what he put in."""
        hand = self.hand
        left = [i for i in range(self.n) if hand.showdown[i]]
        if len(left) < 2 or not hand.acts or len(hand.board) < 5:
            return None
        street = hand.acts[-1].street
        if street >= 3 or not any(self.contributed[i] >= hand.stacks[i] for i in left):
            return None
        if any(len(hand.hole[i]) != 2 for i in left):
            return None
        board = hand.board_on(street)
        expected = {i: -float(capped[i]) for i in left}
        below = 0
        for level in sorted({capped[i] for i in left}):
            pot = sum(min(max(c - below, 0), level - below) for c in capped)
            eligible = [i for i in left if capped[i] >= level]
            if len(eligible) == 1:
                expected[eligible[0]] += pot
            elif pot:
                dead = [c for i in left if i not in eligible for c in hand.hole[i]]
                shares = equities([hand.hole[i] for i in eligible], board, hand.hand_id, dead)
                for i, share in zip(eligible, shares, strict=True):
                    expected[i] += share * pot
            below = level
        return expected

    def _pairs(self, names: tuple[str, ...], capped: list[int], expected: dict[int, float] | None) -> None:
        hand, n = self.hand, self.n
        won = sum(x for x in hand.net if x > 0)
        for i in range(n):
            for j in range(i + 1, n):
                pair, direction = self.pair(i, j)
                pair.hands += 1
                if capped[i] and capped[j] and (capped[i] > hand.posted[i] or capped[j] > hand.posted[j]):
                    pair.pots += 1
                # chips i lost that j won, less chips j lost that i won, shared among the winners
                flow = 0.0
                if won:
                    if hand.net[i] < 0 < hand.net[j]:
                        flow = -hand.net[i] * hand.net[j] / won
                    elif hand.net[j] < 0 < hand.net[i]:
                        flow = -(-hand.net[j] * hand.net[i] / won)
                if flow:
                    signed = flow if direction == 0 else -flow
                    pair.flow += signed
                    pair.gross += abs(flow)
                    pair.flow_sq += flow * flow
                    if abs(flow) >= 20 * hand.big_blind:
                        giver, taker = (names[i], names[j]) if flow > 0 else (names[j], names[i])
                        pair.note(_FLOW[(flow > 0) == (direction == 0)], abs(flow) / max(hand.big_blind, 1), hand.hand_id,
                                  partial(str, f"{giver} lost {abs(flow):,.0f} to {taker}"))
                if expected is not None and i in expected and j in expected:
                    luck = (hand.net[i] - expected[i]) - (hand.net[j] - expected[j])
                    signed = luck if direction == 0 else -luck
                    pot = sum(capped)
                    pair.luck += signed / 2
                    pair.luck_var += (pot / 2) ** 2 / 4
                    pair.all_ins += 1
