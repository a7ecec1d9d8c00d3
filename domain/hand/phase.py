"""The phases of a hand, in the order they come."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    FORCED_BETS = "forced_bets"
    DEALING = "dealing"
    DRAW = "draw"
    BETTING = "betting"
    SHOWDOWN = "showdown"
    OVER = "over"
