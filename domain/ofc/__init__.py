"""Open-Face Chinese Poker, Pineapple (bfsp 8): rows, fouls, royalties, fantasy, scoring, and the round.

The variant code is ``OFC`` everywhere. Pure rules: :mod:`~domain.ofc.rows` (rankings of the rows, fouls,
royalties, fantasy conditions), :mod:`~domain.ofc.scoring` (the settlement per pair), :mod:`~domain.ofc.game`
(the order of play, dealing and setting), :mod:`~domain.ofc.aggregate` (the round as an event-sourced aggregate).
"""

from domain.ofc.events import OFC

__all__ = ["OFC"]
