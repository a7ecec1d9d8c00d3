"""The faster counting gives the counts the plain definitions give: each street's buckets worked out for all the
players at once equal each player's bucket worked out alone, "the nuts" equals trying every two unseen cards,
and the counters of the 2,079 real hands in ../shared are the ones the walk gave before it was made faster."""

from __future__ import annotations

import hashlib
import random
from itertools import combinations
from pathlib import Path

import pytest

from domain.cards import Card, parse_cards, standard_deck
from domain.evaluation.high import STANDARD, best_high
from domain.integrity.strength import board_category, buckets_on, describe, postflop_bucket, preflop_bucket
from ingest.phh import phh_files
from ingest.phh_integrity import read_records
from projections.integrity.counters import Counters
from projections.integrity.live import dump_pair, dump_player, dump_seating
from projections.integrity.parallel import count

pytestmark = pytest.mark.unit

SHARED_HANDS = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "phh"
#: the counters of the shared hands, as the walk counted them before this branch made it faster (main at
#: 226973f): a change to what is counted changes it on purpose, and then says so in its commit
SHARED_DIGEST = "5e096d121d783b489df8a74c589b5223a2ccadf1b4cd7731502d849a7b90b502"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(c for c in parse_cards(text) if c is not None)


def one_by_one(holes: list[tuple[Card, ...]], board: tuple[Card, ...]) -> list[int]:
    if not board:
        return [preflop_bucket(h) if len(h) == 2 else -1 for h in holes]
    return [postflop_bucket(h, board, board_category(board)) if len(h) == 2 else -1 for h in holes]


@pytest.mark.parametrize(("board", "holes"), [
    ("", ["AsAh", "7c2d", "KsQs", "Tc9c"]),
    ("5h4c3d", ["As2h", "6s7s", "5c5d", "Ah2h"]),  # a wheel, a straight, a set, a draw
    ("Ah5h9hKc", ["2h3h", "QhJc", "KdKs", "9c9d"]),  # flush, four to a flush, sets on a one-pair board
    ("QcQdQh7s7d", ["QsAc", "7c7h", "AsKs", "2c3c"]),  # quads on a full house board
    ("2c3c4c5c6c", ["7c8d", "AsAh", "Kc2d"]),  # a straight flush on the board
    ("Ts9s8s", ["JsQs", "AsKs", "7d6d"]),
])
def test_the_buckets_of_hands_made_on_purpose_are_each_hand_s_own(board: str, holes: list[str]) -> None:
    hands = [cards(h) for h in holes] + [()]
    assert buckets_on(hands, cards(board)) == one_by_one(hands, cards(board))


def test_the_buckets_of_many_dealt_hands_are_each_hand_s_own() -> None:
    deck = standard_deck()
    # half the deals from a deck of two suits and high cards, so flushes, straights and sets come often
    narrow = [c for c in deck if c.suit in (deck[0].suit, deck[13].suit) or c.rank >= 10]
    rng = random.Random(14)
    for trial in range(4000):
        dealt = rng.sample(narrow if trial % 2 else deck, 17)
        board = tuple(dealt[: rng.choice((0, 3, 4, 5))])
        holes = [tuple(dealt[5 + 2 * k : 7 + 2 * k]) for k in range(6)]
        assert buckets_on(holes, board) == one_by_one(holes, board), (board, holes)


def nuts_by_every_two_cards(hole: tuple[Card, ...], board: tuple[Card, ...]) -> bool:
    mine = best_high([*hole, *board], STANDARD)
    rest = [c for c in standard_deck() if c not in {*hole, *board}]
    return all(best_high([a, b, *board], STANDARD) <= mine for a, b in combinations(rest, 2))


def test_the_nuts_is_what_every_two_unseen_cards_say() -> None:
    deck = standard_deck()
    narrow = [c for c in deck if c.suit == deck[0].suit or c.rank >= 9]
    rng = random.Random(7)
    seen = {True: 0, False: 0}
    for _ in range(400):
        dealt = rng.sample(narrow, 7)
        hole, board = tuple(dealt[:2]), tuple(dealt[2:])
        if STANDARD.category_of(best_high(dealt, STANDARD)) < 4:  # describe looks for the nuts from a straight
            continue
        nuts = nuts_by_every_two_cards(hole, board)
        seen[nuts] += 1
        assert describe(hole, board).split(" (")[1].startswith("the nuts") == nuts, (hole, board)
    assert seen[True] >= 5 and seen[False] >= 5


def digest(counters: Counters) -> str:
    found = hashlib.sha256(str(counters.hands).encode())
    for name in sorted(counters.players):
        found.update(f"{name}{dump_player(counters.players[name])}".encode())
    for key in sorted(counters.pairs):
        found.update(f"{key}{dump_pair(counters.pairs[key])}".encode())
    # a table the files do not name is known by its file's path: the digest reads it relative to the folder
    found.update(dump_seating(counters).replace(str(SHARED_HANDS), "<shared>").encode())
    return found.hexdigest()


def test_the_shared_hands_count_as_before() -> None:
    records = list(read_records(sorted(phh_files([SHARED_HANDS]))))
    counters = count(records)
    assert (counters.hands, len(counters.players), len(counters.pairs)) == (2079, 198, 673)
    assert digest(counters) == SHARED_DIGEST
    # the seatings' cache is only a cache: dropped after every hand, the counts are the same
    again = Counters()
    for record in records:
        again.add(record)
        again.tables.clear()
    assert digest(again) == SHARED_DIGEST
