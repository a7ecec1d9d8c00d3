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
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from domain.hand.events import ActionKind
from domain.integrity.record import HandRecord
from domain.integrity.strength import buckets_of, card_code, card_codes, describe_codes
from projections.integrity.equity import equities_of

# the constants are Final: compiled (deploy/native.py), a Final int is a constant in the code, any other module
# name a dictionary lookup at every use
FOLD: Final = 0
PASSIVE: Final = 1
AGGRESSIVE: Final = 2
STREETS: Final = 4
PRICES: Final = 4
WAYS: Final = 2
BUCKETS: Final = 5
STANDINGS: Final = 3
CLASSES: Final = 3
CELLS: Final = STREETS * PRICES * WAYS * BUCKETS
#: a pair's code adds what the other player held, known from the deal: weak (nothing, a weak pair or a
#: draw), good (top pair), strong (two pair or better); the player's own code uses the middle one
CODES: Final = CELLS * STANDINGS * CLASSES
_STANDING: Final = (0, 0, 1, 2, 2)
#: added to a pair's code when the other player made the bet the actor faces
BETTOR: Final = CODES
#: evidence kept per pair and kind of signal
EVIDENCE: Final = 6
_SOFT: Final = ("soft0", "soft1")
_DUMP: Final = ("dump0", "dump1")
_TEAM: Final = ("team0", "team1")
#: a large loss from the pair's first player to the second ("flow0"), or the other way ("flow1")
_FLOW: Final = ("flow1", "flow0")
STREET_NAMES: Final = ("before the flop", "on the flop", "on the turn", "on the river")

#: PokerTracker 4 counts per player, in this order in PlayerCounts.counts
COUNTS: Final = (
    "hands", "vpip_opportunities", "vpip", "pfr", "three_bet_opportunities", "three_bets",
    "fold_to_three_bet_opportunities", "folds_to_three_bet", "cbet_opportunities", "cbets",
    "fold_to_cbet_opportunities", "folds_to_cbet", "postflop_bets_raises", "postflop_calls",
    "postflop_folds", "postflop_checks", "saw_flop", "went_to_showdown", "won_at_showdown", "all_in_hands",
)
_AT: Final = {name: i for i, name in enumerate(COUNTS)}


def cell_of(street: int, price: int, multiway: int, bucket: int) -> int:
    return ((street * PRICES + price) * WAYS + multiway) * BUCKETS + bucket


def price_of(to_call: int, pot: int) -> int:
    """0 nothing to call; 1 up to a fifth of the pot after the call; 2 up to a third; 3 more."""
    if to_call <= 0:
        return 0
    share = to_call / (pot + to_call)
    return 1 if share <= 0.2 else 2 if share <= 1 / 3 else 3


#: how many counts a player has
_COUNTED: Final = len(COUNTS)


# The two kinds of counts are dataclasses with their own ``__init__`` (init=False): compiled, the ``__init__`` a
# dataclass writes stays interpreted (with a call per default factory), and counting a new seating makes a
# dozen of them, which cost several µs each
@dataclass(slots=True, init=False)
class PlayerCounts:
    counts: list[int]
    #: net chips won, and in big blinds with its sum of squares (for the interval)
    net: int
    net_bb: float
    net_bb_sq: float
    #: the same with every all-in's result replaced by its expectation
    adjusted_bb: float
    adjusted_bb_sq: float
    #: decisions by code (cell × the opponent's strength × class), once per opponent in the pot (+BETTOR where that opponent made the bet): the sum of the
    #: player's side of every pair, the baseline a pair is compared with. A code never counted is absent (read
    #: with ``.get(code, 0)``): a plain dict of ints, which the garbage collector does not track (a
    #: ``defaultdict`` it tracks and walks entry by entry at every full collection, and its missing keys cost a
    #: method call each)
    opposed: dict[int, int]

    def __init__(
        self, counts: list[int] | None = None, net: int = 0, net_bb: float = 0.0, net_bb_sq: float = 0.0,
        adjusted_bb: float = 0.0, adjusted_bb_sq: float = 0.0, opposed: dict[int, int] | None = None,
    ) -> None:
        self.counts = [0] * _COUNTED if counts is None else counts
        self.net = net
        self.net_bb = net_bb
        self.net_bb_sq = net_bb_sq
        self.adjusted_bb = adjusted_bb
        self.adjusted_bb_sq = adjusted_bb_sq
        self.opposed = {} if opposed is None else opposed


@dataclass(slots=True, init=False)
class PairCounts:
    """Two players, ``a`` < ``b`` by name. Directed figures are kept both ways: ``[0]`` a→b, ``[1]`` b→a."""

    hands: int
    #: pots both put chips in
    pots: int
    #: chips from a to b (net, negative: b to a), gross, and the sum of squares of each hand's flow
    flow: float
    gross: float
    flow_sq: float
    #: all-in pots both contested: a's result above its expectation, and the variance of that result
    luck: float
    luck_var: float
    all_ins: int
    #: decisions of a while b was in the pot (index 0) and of b while a was (index 1), by code (+BETTOR); plain
    #: dicts of ints, as ``PlayerCounts.opposed``
    decisions: tuple[dict[int, int], dict[int, int]]
    #: per kind of signal, the hands that say most: a min-heap of (weight, hand id, reason)
    evidence: dict[str, list[tuple[float, str, str]]]

    def __init__(
        self, hands: int = 0, pots: int = 0, flow: float = 0.0, gross: float = 0.0, flow_sq: float = 0.0,
        luck: float = 0.0, luck_var: float = 0.0, all_ins: int = 0,
        decisions: tuple[dict[int, int], dict[int, int]] | None = None,
        evidence: dict[str, list[tuple[float, str, str]]] | None = None,
    ) -> None:
        self.hands = hands
        self.pots = pots
        self.flow = flow
        self.gross = gross
        self.flow_sq = flow_sq
        self.luck = luck
        self.luck_var = luck_var
        self.all_ins = all_ins
        self.decisions = ({}, {}) if decisions is None else decisions
        self.evidence = {} if evidence is None else evidence

    def note(self, kind: str, weight: float, hand_id: str, reason: Callable[[], str]) -> None:
        """Keeps the hand if it is among the pair's heaviest of its kind; the reason is worded only then."""
        if self.wants(kind, weight, hand_id):
            self.keep(kind, weight, hand_id, reason())

    def wants(self, kind: str, weight: float, hand_id: str) -> bool:
        """Whether the hand is among the pair's heaviest of its kind so far (:meth:`note` would keep it)."""
        heap = self.evidence.get(kind)
        if heap is None or len(heap) < EVIDENCE:
            return True
        lightest = heap[0]
        # (weight, hand_id) > lightest[:2], without a tuple made for each hand offered
        return weight > lightest[0] or (weight == lightest[0] and hand_id > lightest[1])

    def keep(self, kind: str, weight: float, hand_id: str, reason: str) -> None:
        """:meth:`note` with the reason worded (the walk asks :meth:`wants` first)."""
        heap = self.evidence.setdefault(kind, [])
        if len(heap) < EVIDENCE:
            heapq.heappush(heap, (weight, hand_id, reason))
        elif self.wants(kind, weight, hand_id):
            heapq.heapreplace(heap, (weight, hand_id, reason))


@dataclass(slots=True)
class Counters:
    players: dict[str, PlayerCounts] = field(default_factory=dict)
    pairs: dict[tuple[str, str], PairCounts] = field(default_factory=dict)
    #: session → table → players seen there (the seating)
    seating: dict[str, dict[str, set[str]]] = field(default_factory=dict)
    hands: int = 0
    #: players in a hand's order → their seating's counters and pairs' (a :class:`_Table`, by the players in
    #: name order) and each hand position's place in it, looked up once for the many hands a table deals with
    #: the same players (a cache of the dictionaries above, dropped when it grows large)
    tables: dict[tuple[str, ...], tuple[_Table, list[int]]] = field(default_factory=dict, repr=False, compare=False)

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

    def table(self, players: tuple[str, ...]) -> tuple[_Table, list[int]]:
        """The seating's table and each hand position's place in it (``place[i]``: player ``i``'s index among
        the players in name order). The button moves every hand, so one seating is met in as many orders as it
        has players: they share one table (one set of lists, not one per order: fewer objects for the garbage
        collector to walk, and a new order costs a sort, not a lookup of every pair)."""
        found = self.tables.get(players)
        if found is None:
            if len(self.tables) >= _TABLES_KEPT:
                self.tables.clear()
            n = len(players)
            # a stable sort: the same name twice keeps its order (the pair's direction as Counters.pair gives it)
            order = sorted(range(n), key=players.__getitem__)
            place = [0] * n
            for k in range(n):
                place[order[k]] = k
            names = tuple([players[k] for k in order])
            seated = self.tables.get(names)
            if seated is None:
                seated = self.tables[names] = (_Table(self, players, place), list(range(n)))
            found = self.tables[players] = (seated[0], place)
        return found

    def add(self, hand: HandRecord) -> None:
        _Walk(self, hand).run()
        self.hands += 1

    def merge(self, other: Counters) -> None:
        """Adds another set of counters (from hands this one has not seen): fields read in parallel. A player or
        pair only ``other`` has is taken over, not copied (most pairs of a field split by files are met in one
        share only), so ``other`` is not to be used afterwards."""
        for name, theirs in other.players.items():
            mine = self.players.get(name)
            if mine is None:
                self.players[name] = theirs
                continue
            mine.counts = [x + y for x, y in zip(mine.counts, theirs.counts, strict=True)]
            mine.net += theirs.net
            mine.net_bb += theirs.net_bb
            mine.net_bb_sq += theirs.net_bb_sq
            mine.adjusted_bb += theirs.adjusted_bb
            mine.adjusted_bb_sq += theirs.adjusted_bb_sq
            opposed = mine.opposed
            for code, n in theirs.opposed.items():
                opposed[code] = opposed.get(code, 0) + n
        for key, pair in other.pairs.items():
            own = self.pairs.get(key)
            if own is None:
                self.pairs[key] = pair
                continue
            own.hands += pair.hands
            own.pots += pair.pots
            own.flow += pair.flow
            own.gross += pair.gross
            own.flow_sq += pair.flow_sq
            own.luck += pair.luck
            own.luck_var += pair.luck_var
            own.all_ins += pair.all_ins
            for side in (0, 1):
                decisions = own.decisions[side]
                for code, n in pair.decisions[side].items():
                    decisions[code] = decisions.get(code, 0) + n
            for kind, heap in pair.evidence.items():
                for weight, hand_id, reason in heap:
                    own.note(kind, weight, hand_id, partial(str, reason))
        for session, tables in other.seating.items():
            for table, names in tables.items():
                self.seating.setdefault(session, {}).setdefault(table, set()).update(names)
        self.hands += other.hands


#: the counts' positions in PlayerCounts.counts, for the walk
_HANDS: Final = _AT["hands"]
_VPIP_CHANCES: Final = _AT["vpip_opportunities"]
_VPIP: Final = _AT["vpip"]
_PFR: Final = _AT["pfr"]
_3BET_CHANCES: Final = _AT["three_bet_opportunities"]
_3BETS: Final = _AT["three_bets"]
_F3BET_CHANCES: Final = _AT["fold_to_three_bet_opportunities"]
_F3BETS: Final = _AT["folds_to_three_bet"]
_CBET_CHANCES: Final = _AT["cbet_opportunities"]
_CBETS: Final = _AT["cbets"]
_FCBET_CHANCES: Final = _AT["fold_to_cbet_opportunities"]
_FCBETS: Final = _AT["folds_to_cbet"]
_POSTFLOP_FOLDS: Final = _AT["postflop_folds"]
_POSTFLOP_CHECKS: Final = _AT["postflop_checks"]
_POSTFLOP_CALLS: Final = _AT["postflop_calls"]
_POSTFLOP_BETS: Final = _AT["postflop_bets_raises"]
_SAW_FLOP: Final = _AT["saw_flop"]
_SHOWDOWN: Final = _AT["went_to_showdown"]
_WON_SHOWDOWN: Final = _AT["won_at_showdown"]
_ALL_IN: Final = _AT["all_in_hands"]
_FOLD_KIND: Final = ActionKind.FOLD
_CHECK_KIND: Final = ActionKind.CHECK
_CALL_KIND: Final = ActionKind.CALL


def class_of(kind: ActionKind) -> int:
    """An act's class by its kind: fold, passive (check, call), aggressive (bet, raise, complete). By identity:
    looking an enum up in a dict hashes it in Python, once an act."""
    if kind is _FOLD_KIND:
        return FOLD
    if kind is _CALL_KIND or kind is _CHECK_KIND:
        return PASSIVE
    return AGGRESSIVE


#: what a player's pair with himself would be: never counted in (a player is not his own opponent), it keeps
#: the walk's table of pairs square
_NO_PAIR: Final = PairCounts()
#: the opponent's strength bucket → his standing (a list: read in the walk's innermost loop)
_STANDING_OF: Final = list(_STANDING)
#: the board's cards seen on each street
_BOARD_ON: Final = (0, 3, 4, 5)
#: a street's buckets not yet asked for (one shared empty list, not four new ones a hand; never written to)
_NOT_YET: Final[list[int]] = []


#: every code (with +BETTOR) as an int object made once, typed Any so that the compiled walk passes it to the
#: dictionaries as it is: an int code is boxed anew for each dictionary call (two a count, each an allocation
#: above 256), an object from this list is not
_KEYS: Final[list[Any]] = list(range(2 * CODES))


#: a seating's counts list while a walk has it (``_Table.spare``; never written to)
_LENT: Final[list[int]] = []


#: seatings whose lookups are kept: a few in turn when a field is read file by file, up to a rotation of six per
#: table when a page interleaves a competition's tables (each seating holds about 4 kB)
_TABLES_KEPT: Final = 1024


class _Table:
    """A seating's counters and its pairs', by the players' places in name order (a hand maps its positions to
    them); what concerns places ``i`` and ``j`` is at ``i * n + j`` (flat lists: a seating is kept while its
    table deals, and the fewer objects it holds, the less the garbage collector walks)."""

    __slots__ = ("n", "counts", "opposed", "pair_at", "direction_at", "decisions", "spare")

    def __init__(self, counters: Counters, names: tuple[str, ...], place: list[int]) -> None:
        """``names`` in the order of the hand that first met the seating (its players and pairs are made in
        that order, as ever), ``place`` their places in name order."""
        n = len(names)
        self.n = n
        #: the hand's counts of each player (``_Walk.flags``), all zero between hands: lent to one walk at a time
        #: and given back zeroed (a walk that raised keeps it, and the next makes a new one)
        self.spare: list[int] = [0] * (n * _COUNTED)
        found = [counters.player(name) for name in names]
        self.counts: list[PlayerCounts] = list(found)
        for k in range(n):
            self.counts[place[k]] = found[k]
        self.opposed: list[dict[int, int]] = [p.opposed for p in self.counts]
        #: the pair of i and j, and its direction (0 when i is the pair's first player)
        self.pair_at: list[PairCounts] = [_NO_PAIR] * (n * n)
        self.direction_at: list[int] = [0] * (n * n)
        #: the decisions of i with j in the pot
        self.decisions: list[dict[int, int]] = [_NO_PAIR.decisions[0]] * (n * n)
        for i in range(n):
            for j in range(i + 1, n):
                pair, direction = counters.pair(names[i], names[j])
                at, back = place[i] * n + place[j], place[j] * n + place[i]
                self.pair_at[at] = self.pair_at[back] = pair
                self.direction_at[at], self.direction_at[back] = direction, 1 - direction
                self.decisions[at] = pair.decisions[direction]
                self.decisions[back] = pair.decisions[1 - direction]


class _Walk:
    """One hand, act by act, with the betting state each decision was made in.

    Everything a hand looks up more than once is taken once: the players' counters, the pairs' counters and
    their direction, the cards as ints (domain/integrity/strength.py's ``card_code``), each street's strength
    buckets of the players still in (``buckets_of``, the board worked out once for all of them)."""

    def __init__(self, counters: Counters, hand: HandRecord) -> None:
        self.c = counters
        self.hand = hand
        n = len(hand.players)
        self.n = n
        self.in_hand = [True] * n
        self.street_bet: list[int] = list(hand.blinds)
        self.contributed: list[int] = list(hand.posted)
        #: each player's two cards as codes (-1, -1: not known) and the board's
        holes = [-1] * (2 * n)
        for k, hole in enumerate(hand.hole):
            if len(hole) == 2:
                holes[2 * k], holes[2 * k + 1] = card_code(hole[0]), card_code(hole[1])
        self.holes = holes
        #: player × 4 + street → his hand in words, for the evidence (a hand offered to several pairs)
        self.words: dict[int, str] = {}
        self.board = card_codes(hand.board)
        #: street → each player's bucket on it (-1: cards not known, or folded before it); [] not yet asked
        self.strengths: list[list[int]] = [_NOT_YET] * 4
        table, place = counters.table(hand.players)
        self.table = table
        #: the hand's counts of each player, player × _COUNTED + count (one list, the seating's, borrowed: the
        #: fewer objects a hand makes, the less the allocator and the garbage collector do)
        flags = table.spare
        if flags:
            table.spare = _LENT
        else:
            flags = [0] * (n * _COUNTED)
        self.flags = flags
        #: hand position → place in the seating's table
        self.place = place
        self.counts, self.opposed = table.counts, table.opposed
        self.pair_at, self.direction_at = table.pair_at, table.direction_at
        self.decisions = table.decisions

    def pair(self, i: int, j: int) -> tuple[PairCounts, int]:
        at = self.place[i] * self.n + self.place[j]
        return self.pair_at[at], self.direction_at[at]

    def strength(self, street: int) -> list[int]:
        found = self.strengths[street]
        if not found:
            holes, in_hand = self.holes, self.in_hand
            held = [-1] * len(holes)
            for k in range(self.n):
                if in_hand[k]:
                    held[2 * k] = holes[2 * k]
                    held[2 * k + 1] = holes[2 * k + 1]
            found = self.strengths[street] = buckets_of(held, self.board[: _BOARD_ON[street]])
        return found

    def bucket(self, player: int, street: int) -> int:
        """The strength of the player's cards on this street, -1 when the record does not know them."""
        return self.strength(street)[player]

    def run(self) -> None:
        hand, n, flags = self.hand, self.n, self.flags
        names = hand.players
        in_hand, contributed, stacks = self.in_hand, self.contributed, hand.stacks
        street_bet = self.street_bet
        opposed_of, decisions_of, place = self.opposed, self.decisions, self.place
        blinds = hand.blinds
        street, level, raises = 0, max(blinds) if blinds else 0, 0
        last_aggressor = first_raiser = preflop_aggressor = -1
        cbet_made = False
        pot = 0
        for posted in hand.posted:
            pot += posted
        strength: list[int] = []
        #: the players still in, in order (each decision counts once per opponent among them)
        live = list(range(n))
        for player in range(n):
            flags[player * _COUNTED + _HANDS] = 1
        for act in hand.acts:
            act_street, i, kind, to = act.street, act.player, act.kind, act.to
            if act_street != street:
                street, level, raises, last_aggressor = act_street, 0, 0, -1
                street_bet = self.street_bet = [0] * n
                strength = []
                if street == 1:
                    for player in range(n):
                        if in_hand[player]:
                            flags[player * _COUNTED + _SAW_FLOP] = 1
            to_call = level - street_bet[i]
            left = stacks[i] - contributed[i]
            if left < to_call:
                to_call = left
            if to_call < 0:
                to_call = 0
            klass = class_of(kind)
            f = i * _COUNTED
            if street == 0:
                if not flags[f + _VPIP_CHANCES]:
                    flags[f + _VPIP_CHANCES] = 1
                if klass == AGGRESSIVE:
                    flags[f + _VPIP] = flags[f + _PFR] = 1
                elif klass == PASSIVE and to_call > 0:
                    flags[f + _VPIP] = 1
                if raises == 1 and first_raiser != i and not flags[f + _3BET_CHANCES]:
                    flags[f + _3BET_CHANCES] = 1
                    flags[f + _3BETS] = 1 if klass == AGGRESSIVE else 0
                if raises == 2 and first_raiser == i and not flags[f + _F3BET_CHANCES]:
                    flags[f + _F3BET_CHANCES] = 1
                    flags[f + _F3BETS] = 1 if klass == FOLD else 0
            else:
                if street == 1:
                    if i == preflop_aggressor and raises == 0 and not flags[f + _CBET_CHANCES]:
                        flags[f + _CBET_CHANCES] = 1
                        if klass == AGGRESSIVE:
                            flags[f + _CBETS] = 1
                            cbet_made = True
                    elif cbet_made and raises == 1 and last_aggressor == preflop_aggressor and to_call > 0 \
                            and not flags[f + _FCBET_CHANCES]:
                        flags[f + _FCBET_CHANCES] = 1
                        flags[f + _FCBETS] = 1 if klass == FOLD else 0
                if klass == FOLD:
                    flags[f + _POSTFLOP_FOLDS] += 1
                elif klass == AGGRESSIVE:
                    flags[f + _POSTFLOP_BETS] += 1
                elif to_call == 0:
                    flags[f + _POSTFLOP_CHECKS] += 1
                else:
                    flags[f + _POSTFLOP_CALLS] += 1
            if not strength:
                strength = self.strength(street)
            bucket = strength[i]
            # the decision, once per opponent still in (the walk's innermost loop, written out here: a call per
            # decision and per price cost a fifth of the counting)
            opponents = len(live) - (1 if in_hand[i] else 0)
            if bucket >= 0 and opponents:
                multiway = 1 if opponents > 1 else 0
                if to_call <= 0:
                    price = 0
                else:
                    share = to_call / (pot + to_call)
                    price = 1 if share <= 0.2 else 2 if share <= 1 / 3 else 3
                # cell_of(street, price, multiway, bucket) × the opponent's standings × the classes, + the class
                base = (((street * PRICES + price) * WAYS + multiway) * BUCKETS + bucket) * (STANDINGS * CLASSES) \
                    + klass
                mine = place[i]
                row = mine * n
                # the player's own sum (``opposed``) takes one addition per code, not one per opponent: the
                # opponents counted by standing (most share one), the codes added in the order they first came
                # (two bits each in ``order``, the first highest: 0–2 a standing, 3 the bettor's code), so a code
                # new to the player is inserted where counting opponent by opponent would have put it
                by0 = by1 = by2 = order = codes = 0
                bettor_code = -1
                for j in live:
                    if j == i:
                        continue
                    his = strength[j]
                    if his < 0:
                        continue
                    standing = _STANDING_OF[his]
                    code = base + standing * CLASSES
                    key = _KEYS[code]
                    counts = decisions_of[row + place[j]]
                    counts[key] = counts.get(key, 0) + 1
                    if standing == 0:
                        if not by0:
                            order, codes = order << 2, codes + 1
                        by0 += 1
                    elif standing == 1:
                        if not by1:
                            order, codes = order << 2 | 1, codes + 1
                        by1 += 1
                    else:
                        if not by2:
                            order, codes = order << 2 | 2, codes + 1
                        by2 += 1
                    if j == last_aggressor:
                        bettor_code = code + BETTOR
                        key = _KEYS[bettor_code]
                        counts[key] = counts.get(key, 0) + 1
                        order, codes = order << 2 | 3, codes + 1
                opposed = opposed_of[mine]
                for k in range(codes - 1, -1, -1):
                    which = order >> (2 * k) & 3
                    if which == 0:
                        key = _KEYS[base]
                        opposed[key] = opposed.get(key, 0) + by0
                    elif which == 1:
                        key = _KEYS[base + CLASSES]
                        opposed[key] = opposed.get(key, 0) + by1
                    elif which == 2:
                        key = _KEYS[base + 2 * CLASSES]
                        opposed[key] = opposed.get(key, 0) + by2
                    else:
                        key = _KEYS[bettor_code]
                        opposed[key] = opposed.get(key, 0) + 1
                # the hands worth keeping as evidence are rare: the words are made only for those a pair keeps
                if klass == AGGRESSIVE:
                    if bucket <= 1 and (street > 0 or multiway):
                        self._evidence(i, street, multiway == 1, bucket, klass, live, last_aggressor, to_call, to,
                                       strength)
                elif bucket >= 3:
                    self._evidence(i, street, multiway == 1, bucket, klass, live, last_aggressor, to_call, to,
                                   strength)
            if klass == FOLD:
                if in_hand[i]:
                    live.remove(i)
                in_hand[i] = False
            elif klass == PASSIVE:
                street_bet[i] += to_call
                contributed[i] += to_call
                pot += to_call
            else:
                paid = to - street_bet[i]
                street_bet[i] = to
                contributed[i] += paid
                pot += paid
                if to > level:
                    level = to
                raises += 1
                last_aggressor = i
                if street == 0:
                    preflop_aggressor = i
                    if first_raiser < 0:
                        first_raiser = i
        self._finish(names, flags)

    def _evidence(
        self, i: int, street: int, multiway: bool, bucket: int, klass: int, live: list[int], bettor: int,
        to_call: int, to: int, strength: list[int],
    ) -> None:
        """Offers the decision to the pairs of the actor and each opponent still in as evidence: soft play (a
        strong hand not bet), chip dumping (a weak hand bet heads-up after the flop), team play (a weak hand
        raised in a multiway pot while the partner holds a strong one)."""
        soft = bucket >= 3 and klass != AGGRESSIVE
        dump = not multiway and bucket <= 1 and klass == AGGRESSIVE and street > 0
        team = multiway and klass == AGGRESSIVE and bucket <= 1
        hand_id = self.hand.hand_id
        opponents = [j for j in live if j != i]
        pair_at, direction_at, place = self.pair_at, self.direction_at, self.place
        row = place[i] * self.n
        for j in opponents:
            his = strength[j]
            if his < 0:
                continue
            at = row + place[j]
            pair, direction = pair_at[at], direction_at[at]
            # each reason is worded only for a hand the pair keeps
            if soft and (not multiway or j == bettor):
                kind, weight = _SOFT[direction], bucket + street / 4 + (1 if klass == FOLD else 0)
                if pair.wants(kind, weight, hand_id):
                    pair.keep(kind, weight, hand_id, self._soft_words(i, j, street, klass, to_call, bettor))
            if dump:
                kind, weight = _DUMP[direction], to / max(self.hand.big_blind, 1)
                if pair.wants(kind, weight, hand_id):
                    pair.keep(kind, weight, hand_id, self._dump_words(i, j, street, to))
            if team and his >= 3:
                kind, weight = _TEAM[direction], his + street / 4
                if pair.wants(kind, weight, hand_id):
                    names = self.hand.players
                    third = ", ".join([names[k] for k in opponents if k != j])
                    pair.keep(kind, weight, hand_id, self._team_words(i, j, street, third))

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
        found = self.words.get(player * 4 + street)
        if found is None:
            found = self.words[player * 4 + street] = describe_codes(
                self.holes[2 * player : 2 * player + 2], self.board[: _BOARD_ON[street]])
        return found

    def _finish(self, names: tuple[str, ...], flags: list[int]) -> None:
        hand, n = self.hand, self.n
        contributed = self.contributed
        cap = 0
        if n > 1:
            # what the second-highest contributor put in: no one can win more from a player than that
            first, second = contributed[0], -1
            for c in contributed[1:]:
                if c > first:
                    first, second = c, first
                elif c > second:
                    second = c
            cap = second
        capped = [c if c < cap else cap for c in contributed]
        expected = self._all_in_expectation(capped)
        big_blind = hand.big_blind
        bb = big_blind if big_blind > 1 else 1
        net_of, showdown = hand.net, hand.showdown
        for i in range(n):
            f = i * _COUNTED
            net = net_of[i]
            if showdown[i]:
                flags[f + _SHOWDOWN] = 1
                if net + capped[i] > 0:
                    flags[f + _WON_SHOWDOWN] = 1
            adjusted_net = float(net)
            if expected is not None and i in expected:
                flags[f + _ALL_IN] = 1
                adjusted_net = expected[i]
            p = self.counts[self.place[i]]
            # the hand's counts added where they are not zero (most are), in place
            counts = p.counts
            for at in range(_COUNTED):
                if flags[f + at]:
                    counts[at] += flags[f + at]
                    flags[f + at] = 0
            result = net / bb
            adjusted = adjusted_net / bb
            p.net += net
            p.net_bb += result
            p.net_bb_sq += result * result
            p.adjusted_bb += adjusted
            p.adjusted_bb_sq += adjusted * adjusted
        # every count read and zeroed above: the list goes back to the seating for its next hand
        self.table.spare = flags
        self._pairs(names, capped, expected)
        if hand.session or hand.table:
            # looked up, not setdefault: its default would be a new dict and set every hand
            tables = self.c.seating.get(hand.session)
            if tables is None:
                tables = self.c.seating[hand.session] = {}
            seen = tables.get(hand.table)
            if seen is None:
                seen = tables[hand.table] = set()
            seen.update(names)

    def _all_in_expectation(self, capped: list[int]) -> dict[int, float] | None:
        """Each all-in contestant's expected net, when the hand was all in before the river with every
        contestant's cards known: per pot (the main pot and each side pot, by the levels of what the
        contestants put in), his equity against the others eligible for it × the pot, less what he put in."""
        hand = self.hand
        showdown = hand.showdown
        acts = hand.acts
        # the cheap tests first: most hands end on the river or before a board of five
        if not acts or len(self.board) < 5:
            return None
        street = acts[-1].street
        if street >= 3:
            return None
        left = [i for i in range(self.n) if showdown[i]]
        if len(left) < 2:
            return None
        stacks, contributed, holes = hand.stacks, self.contributed, self.holes
        if not any(contributed[i] >= stacks[i] for i in left):
            return None
        if any(holes[2 * i] < 0 for i in left):
            return None
        board = self.board[: _BOARD_ON[street]]
        expected = {i: -float(capped[i]) for i in left}
        below = 0
        for level in sorted({capped[i] for i in left}):
            pot = 0
            for c in capped:
                pot += min(max(c - below, 0), level - below)
            eligible = [i for i in left if capped[i] >= level]
            if len(eligible) == 1:
                expected[eligible[0]] += pot
            elif pot:
                dead = [holes[2 * i + k] for i in left if i not in eligible for k in (0, 1)]
                shares = equities_of([[holes[2 * i], holes[2 * i + 1]] for i in eligible], board, hand.hand_id,
                                     dead)
                for i, share in zip(eligible, shares, strict=True):
                    expected[i] += share * pot
            below = level
        return expected

    def _pairs(self, names: tuple[str, ...], capped: list[int], expected: dict[int, float] | None) -> None:
        hand = self.hand
        net, posted, big_blind = hand.net, hand.posted, hand.big_blind
        won = 0
        for x in net:
            if x > 0:
                won += x
        hand_id = hand.hand_id
        n, pair_at, direction_at, place = self.n, self.pair_at, self.direction_at, self.place
        for i in range(n):
            row = place[i] * n
            for j in range(i + 1, n):
                at = row + place[j]
                pair, direction = pair_at[at], direction_at[at]
                pair.hands += 1
                if capped[i] and capped[j] and (capped[i] > posted[i] or capped[j] > posted[j]):
                    pair.pots += 1
                # chips i lost that j won, less chips j lost that i won, shared among the winners
                flow = 0.0
                if won:
                    if net[i] < 0 < net[j]:
                        flow = -net[i] * net[j] / won
                    elif net[j] < 0 < net[i]:
                        flow = -(-net[j] * net[i] / won)
                if flow:
                    signed = flow if direction == 0 else -flow
                    pair.flow += signed
                    pair.gross += abs(flow)
                    pair.flow_sq += flow * flow
                    if abs(flow) >= 20 * big_blind:
                        kind = _FLOW[1 if (flow > 0) == (direction == 0) else 0]
                        weight = abs(flow) / max(big_blind, 1)
                        if pair.wants(kind, weight, hand_id):
                            giver, taker = (names[i], names[j]) if flow > 0 else (names[j], names[i])
                            pair.keep(kind, weight, hand_id, f"{giver} lost {abs(flow):,.0f} to {taker}")
                if expected is not None and i in expected and j in expected:
                    luck = (net[i] - expected[i]) - (net[j] - expected[j])
                    signed = luck if direction == 0 else -luck
                    pot = sum(capped)
                    pair.luck += signed / 2
                    pair.luck_var += (pot / 2) ** 2 / 4
                    pair.all_ins += 1
