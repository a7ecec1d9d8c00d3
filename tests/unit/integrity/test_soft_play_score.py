"""The soft-play signal on counters made by hand: a player who folds to one opponent's bets while that
opponent holds the stronger cards — far more often than he folds to anyone else's — scores as soft play, and
players who play everyone alike do not."""

from __future__ import annotations

from itertools import permutations

from projections.integrity.counters import (
    AGGRESSIVE,
    BETTOR,
    CLASSES,
    FOLD,
    PASSIVE,
    STANDINGS,
    Counters,
    cell_of,
)
from projections.integrity.score import Scorer

PLAYERS = ("P1", "P2", "P3", "P4", "P5", "P6")
#: heads-up on the flop, facing a bet of a third of the pot, holding top pair, the bettor holding two pair
CELL, STRONG = cell_of(1, 2, 0, 2), 2
HONEST = {FOLD: 12, PASSIVE: 24, AGGRESSIVE: 12}
#: P1 facing P2's bets: he folds nearly always and never raises
SOFT = {FOLD: 40, PASSIVE: 8, AGGRESSIVE: 0}


def _counters() -> Counters:
    counters = Counters()
    for actor, other in permutations(PLAYERS, 2):
        pair, direction = counters.pair(actor, other)
        pair.hands = 200
        shares = SOFT if (actor, other) == ("P1", "P2") else HONEST
        for klass, n in shares.items():
            code = (CELL * STANDINGS + STRONG) * CLASSES + klass
            for key in (code, code + BETTOR):  # he made the bet the actor faced
                decisions, opposed = pair.decisions[direction], counters.player(actor).opposed
                decisions[key] = decisions.get(key, 0) + n
                opposed[key] = opposed.get(key, 0) + n
    return counters


def test_folding_to_one_players_stronger_bets_scores_as_soft_play() -> None:
    scores = Scorer(_counters()).scores(min_hands=30)
    top = scores[0]
    assert (top.player_a, top.player_b) == ("P1", "P2")
    assert top.behaviour == "soft_play" and top.soft_play > 4, top
    # the pairs that play each other as they play everyone are not soft
    assert all(abs(s.soft_play) < 1 for s in scores if "P1" not in (s.player_a, s.player_b))


def test_a_pair_under_the_minimum_is_absent() -> None:
    assert Scorer(_counters()).scores(min_hands=201) == []
