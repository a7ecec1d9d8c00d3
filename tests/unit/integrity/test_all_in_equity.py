"""All-in equity with three players: each pot (the main pot and the side pot) shared by the equity of the
players eligible for it, worked out by hand.

Alice (AsAh, 1,000 chips), Bob (KdKc, 5,000) and Carol (7h7d, 5,000), blinds 50/100: everyone limps and
checks the flop Kh7c2d; on the turn 3s Alice moves in for 900, Bob moves in for 4,900, Carol calls. Of the 42
rivers, Alice's two aces (Ac, Ad) make her three aces, the last seven (7s) gives Carol four of a kind, the 39
others leave Bob's three kings ahead (no straight, no flush can come). The river 4h: Bob wins both pots.

- main pot 3,000 (all three): Alice 2/42, Bob 39/42, Carol 1/42;
- side pot 8,000 (Bob and Carol; Alice's aces are dead cards for it): Bob 41/42, Carol 1/42.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.cards import parse_cards
from ingest.phh_integrity import read_records
from projections.integrity.counters import COUNTS
from projections.integrity.equity import equities
from projections.integrity.parallel import count

HAND = """
[1]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [1000, 5000, 5000]
actions = ["d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 7h7d", "p3 cc", "p1 cc", "p2 cc", "d db Kh7c2d", "p1 cc", "p2 cc", "p3 cc", "d db 3s", "p1 cbr 900", "p2 cbr 4900", "p3 cc", "d db 4h", "p1 sm AsAh", "p2 sm KdKc", "p3 sm 7h7d"]
players = ["Alice", "Bob", "Carol"]
finishing_stacks = [0, 11000, 0]
_session = "S1"
_table = "T1"
hand = 1
"""


def test_three_hands_share_one_pot_by_the_rivers_each_wins() -> None:
    hole = [parse_cards("AsAh"), parse_cards("KdKc"), parse_cards("7h7d")]
    shares = equities(hole, parse_cards("Kh7c2d3s"), "seed")
    assert shares == pytest.approx([2 / 42, 39 / 42, 1 / 42])


def test_a_side_pot_counts_the_other_all_in_hand_as_dead_cards() -> None:
    hole = [parse_cards("KdKc"), parse_cards("7h7d")]
    assert equities(hole, parse_cards("Kh7c2d3s"), "seed", parse_cards("AsAh")) == pytest.approx([41 / 42, 1 / 42])
    # without them the seven could be among 44 rivers
    assert equities(hole, parse_cards("Kh7c2d3s"), "seed") == pytest.approx([43 / 44, 1 / 44])


def test_all_in_adjusted_winnings_share_each_pot_among_those_eligible(tmp_path: Path) -> None:
    file = tmp_path / "three-way.phhs"
    file.write_text(HAND)
    counters = count(read_records([file]))
    expected = {
        "Alice": 3000 * 2 / 42 - 1000,
        "Bob": 3000 * 39 / 42 + 8000 * 41 / 42 - 5000,
        "Carol": 3000 * 1 / 42 + 8000 * 1 / 42 - 5000,
    }
    for name, chips in expected.items():
        player = counters.players[name]
        assert player.adjusted_bb == pytest.approx(chips / 100), name
        assert player.counts[COUNTS.index("all_in_hands")] == 1
    assert sum(expected.values()) == pytest.approx(0)
    assert counters.players["Bob"].net == 6000
    # the pair's luck: what each won beyond his expectation, halved between the two
    alice_bob = counters.pairs[("Alice", "Bob")]
    assert alice_bob.all_ins == 1
    assert alice_bob.luck == pytest.approx(((-1000 - expected["Alice"]) - (6000 - expected["Bob"])) / 2)


@pytest.mark.parametrize("n", [5, 21, 22, 40, 45, 48])
@pytest.mark.parametrize("k", [1, 2, 5])
def test_drawn_boards_are_those_random_sample_gives(n: int, k: int) -> None:
    """The boards drawn for an all-in before the river are the generator's ``sample`` (the same figures as
    ever for a hand), taken without its per-call cost."""
    import random

    from projections.integrity.equity import draws

    for seed in ("table-1#7", "x", "hand 99"):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert draws(ours, n, k, 60) == [tuple(theirs.sample(range(n), k)) for _ in range(60)]
        assert ours.random() == theirs.random()  # the generator left in the same state


def test_the_nuts_are_found_on_the_board_and_missed_when_a_better_hand_can_be_held() -> None:
    from domain.integrity.strength import describe

    assert describe(parse_cards("AsKs"), parse_cards("QsJsTs2d3c")) == "AsKs (the nuts, a straight flush)"
    assert describe(parse_cards("9s8s"), parse_cards("7s6s5s2d2c")) == "9s8s (the nuts, a straight flush)"
    # a low flush: two higher spades make a better one
    assert describe(parse_cards("3s4s"), parse_cards("7s8sKs2d2c")) == "3s4s (a flush)"
    # the nut flush on a paired board is beaten by a full house
    assert describe(parse_cards("AsQs"), parse_cards("7s8sKs2d2c")) == "AsQs (a flush)"
    assert describe(parse_cards("AsQs"), parse_cards("7s8sKs2d3c")) == "AsQs (the nuts, a flush)"
