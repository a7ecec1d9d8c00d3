"""The simulator: seeded competitions played by bots through the rules engine, as log records.

``simulate(seed, ...)`` registers players, draws their seats, and plays the tables round by round; its
:class:`Simulation` holds every hand's reported events and yields the same log records any other source
produces, so it feeds the real pipeline (log → referee → store → projections).

``simulate_competition(seed, players, format)`` runs a whole competition, American or Olympic, to its winner:
the federation's acts (Regulations, officials, registration, draws, levels, moves, eliminations, penalties,
rulings, protests) interleaved with the hands, each recorded by the role that may record it.
"""

from ingest.simulator.competition import Level, Player, SeatDrawn
from ingest.simulator.mistakes import Mistake
from ingest.simulator.outcome import CompetitionSimulation
from ingest.simulator.run import Elimination, SimulatedHand, Simulation, simulate
from ingest.simulator.tournament import simulate_competition

__all__ = [
    "CompetitionSimulation",
    "Elimination",
    "Level",
    "Mistake",
    "Player",
    "SeatDrawn",
    "SimulatedHand",
    "Simulation",
    "simulate",
    "simulate_competition",
]
