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
