"""What a simulated competition produced, counted: the variety its hands are meant to show."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from domain.hand.events import HandMucked, HandShown
from ingest.simulator.hand import PlayedHand


@dataclass
class Tally:
    hands: int = 0
    events: int = 0
    mistakes: int = 0
    #: hands where some player put in his last chip
    all_ins: int = 0
    #: hands with a main pot and at least one side pot awarded
    side_pots: int = 0
    #: pots (or side pots) split between two or more players
    split_pots: int = 0
    showdowns: int = 0
    mucks: int = 0

    def add(self, hand: PlayedHand) -> None:
        self.hands += 1
        self.events += len(hand.events)
        self.mistakes += len(hand.mistakes)
        self.all_ins += bool(hand.all_in)
        self.side_pots += len({p.pot_index for p in hand.pots}) >= 2
        self.split_pots += sum(len(p.shares) >= 2 for p in hand.pots)
        self.showdowns += any(isinstance(e, HandShown) for e in hand.events)
        self.mucks += sum(isinstance(e, HandMucked) for e in hand.events)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)
