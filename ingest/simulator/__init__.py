"""The simulator: seeded competitions played by bots through the rules engine, as log records.

``simulate(seed, ...)`` registers players, draws their seats, and plays the tables round by round; its
:class:`Simulation` holds every hand's reported events and yields the same log records any other source
produces, so it feeds the real pipeline (log → referee → store → projections).
"""

from ingest.simulator.competition import Level, Player, SeatDrawn
from ingest.simulator.mistakes import Mistake
from ingest.simulator.run import Elimination, SimulatedHand, Simulation, simulate

__all__ = [
    "Elimination",
    "Level",
    "Mistake",
    "Player",
    "SeatDrawn",
    "SimulatedHand",
    "Simulation",
    "simulate",
]
