"""PokerTracker 4's statistics on three hands worked out by hand (docs/INTEGRITY.md has the definitions).

Alice, Bob and Carol, blinds 50/100, 10,000 chips each, Carol on the button:
1. Carol raises to 300, Alice folds, Bob 3-bets to 900, Carol folds.
2. Carol raises to 300, Alice folds, Bob calls; flop Jc8s4d: Bob checks, Carol c-bets 400, Bob calls; turn 2h:
   both check; river 9c: Bob bets 1,000, Carol calls; Bob's set of jacks beats Carol's ace-king.
3. Carol folds, Alice limps, Bob checks; flop Ks7c2d: both check; turn 3h: Alice bets 9,900 all in, Bob calls;
   river 9c: Bob's set of kings holds against Alice's aces (2 aces among 44 rivers: Alice's equity 2/44).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.phh_integrity import read_records
from projections.integrity.parallel import count
from projections.integrity.players import PlayerStatistics, statistics

HANDS = """
[1]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ["d dh p1 2c3d", "d dh p2 AsAd", "d dh p3 KcQc", "p3 cbr 300", "p1 f", "p2 cbr 900", "p3 f"]
players = ["Alice", "Bob", "Carol"]
finishing_stacks = [9950, 10350, 9700]
_session = "S1"
_table = "T1"
hand = 1

[2]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ["d dh p1 7d2c", "d dh p2 JhJd", "d dh p3 AcKd", "p3 cbr 300", "p1 f", "p2 cc", "d db Jc8s4d", "p2 cc", "p3 cbr 400", "p2 cc", "d db 2h", "p2 cc", "p3 cc", "d db 9c", "p2 cbr 1000", "p3 cc", "p2 sm JhJd", "p3 sm AcKd"]
players = ["Alice", "Bob", "Carol"]
finishing_stacks = [9950, 11750, 8300]
_session = "S1"
_table = "T1"
hand = 2

[3]
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ["d dh p1 AsAh", "d dh p2 KhKd", "d dh p3 9s8s", "p3 f", "p1 cc", "p2 cc", "d db Ks7c2d", "p1 cc", "p2 cc", "d db 3h", "p1 cbr 9900", "p2 cc", "d db 9c", "p1 sm AsAh", "p2 sm KhKd"]
players = ["Alice", "Bob", "Carol"]
finishing_stacks = [0, 20000, 10000]
_session = "S1"
_table = "T1"
hand = 3
"""


@pytest.fixture(scope="module")
def players(tmp_path_factory: pytest.TempPathFactory) -> dict[str, PlayerStatistics]:
    file = Path(tmp_path_factory.mktemp("phh")) / "three.phhs"
    file.write_text(HANDS)
    counters = count(read_records([file]))
    return {name: statistics(name, c) for name, c in counters.players.items()}


def value(stat: object) -> tuple[float | None, int]:
    v = stat.value
    return (round(v, 2) if v is not None else None, stat.sample)


def test_alice_limped_once_never_raised_and_was_unlucky_all_in(players: dict[str, PlayerStatistics]) -> None:
    a = players["Alice"]
    assert a.hands == 3 and a.net_chips == -10_100
    assert value(a.vpip) == (33.33, 3) and value(a.pfr) == (0.0, 3)
    assert value(a.three_bet) == (0.0, 2)
    assert value(a.fold_to_three_bet) == (None, 0) and value(a.cbet) == (None, 0)
    assert value(a.af) == (None, 1)  # one bet and no call: the factor is undefined, not infinite
    assert value(a.afq) == (100.0, 1)
    assert value(a.wtsd) == (100.0, 1) and value(a.wsd) == (0.0, 1)
    assert value(a.bb_per_100) == (-3366.67, 3)
    # the all-in on the turn counts at its expectation: 2/44 of 20,000 less the 10,000 put in
    assert value(a.all_in_adjusted_bb_per_100) == (round((-100 - 9_090.909) / 3, 2), 3)


def test_bob_three_bet_called_the_cbet_and_won_both_showdowns(players: dict[str, PlayerStatistics]) -> None:
    b = players["Bob"]
    assert b.net_chips == 12_100
    assert value(b.vpip) == (66.67, 3) and value(b.pfr) == (33.33, 3)
    assert value(b.three_bet) == (50.0, 2)
    assert value(b.fold_to_cbet) == (0.0, 1)
    assert value(b.af) == (0.5, 3) and value(b.afq) == (33.33, 3)
    assert value(b.wtsd) == (100.0, 2) and value(b.wsd) == (100.0, 2)
    assert value(b.bb_per_100) == (4033.33, 3)
    assert value(b.all_in_adjusted_bb_per_100) == (round((2_100 + 9_090.909) / 3, 2), 3)


def test_carol_opened_twice_folded_to_the_three_bet_and_cbet(players: dict[str, PlayerStatistics]) -> None:
    c = players["Carol"]
    assert c.net_chips == -2_000
    assert value(c.vpip) == (66.67, 3) and value(c.pfr) == (66.67, 3)
    assert value(c.three_bet) == (None, 0)
    assert value(c.fold_to_three_bet) == (100.0, 1)
    assert value(c.cbet) == (100.0, 1)
    assert value(c.af) == (1.0, 2) and value(c.afq) == (50.0, 2)
    assert value(c.wtsd) == (100.0, 1) and value(c.wsd) == (0.0, 1)
    assert value(c.bb_per_100) == (-666.67, 3)


def test_every_share_has_its_wilson_interval(players: dict[str, PlayerStatistics]) -> None:
    vpip = players["Bob"].vpip
    # Wilson's 95% interval for 2 of 3
    assert vpip.low == pytest.approx(20.77, abs=0.01) and vpip.high == pytest.approx(93.85, abs=0.01)
    assert players["Alice"].fold_to_three_bet.low is None


def test_chips_flow_from_alice_to_bob_in_every_hand(tmp_path: Path) -> None:
    file = tmp_path / "three.phhs"
    file.write_text(HANDS)
    counters = count(read_records([file]))
    pair = counters.pairs[("Alice", "Bob")]
    assert pair.hands == 3
    assert pair.flow == pytest.approx(50 + 50 + 10_000)
    assert pair.all_ins == 1


def test_evidence_says_what_happened_in_words(tmp_path: Path) -> None:
    file = tmp_path / "three.phhs"
    file.write_text(HANDS)
    counters = count(read_records([file]))
    pair = counters.pairs[("Alice", "Bob")]
    reasons = {reason for heap in pair.evidence.values() for _, _, reason in heap}
    assert "Bob only called Alice's bet with KhKd (three of a kind) on the turn" in reasons
    assert "Alice lost 10,000 to Bob" in reasons
    assert {hand for heap in pair.evidence.values() for _, hand, _ in heap} <= {"T1#1", "T1#2", "T1#3"}
