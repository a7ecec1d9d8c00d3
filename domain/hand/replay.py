"""Replaying a stream of reported events: the first starts the hand, the rest go through the engine.

:meth:`Replayer.run` stops at the first refused event and says which one, with its rule and sentence; the
events before it stand (an audit keeps what was legal and names what was not).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from domain.errors import HandError, HandStateError, RuleRef
from domain.hand.events import DerivedEvent, HandEnded, HandStarted, PotAwarded, ReportedEvent
from domain.hand.state import HandState
from domain.rulebooks import Rulebook


@dataclass(frozen=True, slots=True)
class Rejection:
    """The event the engine refused: its index in the stream (``HandStarted`` is 0), the rule and why."""

    event_index: int
    event: ReportedEvent
    rule: RuleRef
    reason: str
    error: str

    @property
    def message(self) -> str:
        return f"{self.reason} ({self.rule})"


@dataclass(slots=True)
class ReplayResult:
    rejection: Rejection | None = None
    is_over: bool = False
    undetermined: bool = False
    #: (seat, chips) after the last accepted event
    stacks: tuple[tuple[int, int], ...] = ()
    pots: list[PotAwarded] = field(default_factory=list)
    derived: list[DerivedEvent] = field(default_factory=list)
    showdown_order: tuple[int, ...] = ()
    events_applied: int = 0

    @property
    def ok(self) -> bool:
        return self.rejection is None


class Replayer:
    """Holds the :class:`HandState` of one hand while its events are applied in order."""

    __slots__ = ("rulebook", "state")

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        self.state: HandState | None = None

    def apply(self, event: ReportedEvent) -> tuple[DerivedEvent, ...]:
        if isinstance(event, HandStarted):
            if self.state is not None:
                raise HandStateError("the hand has already started", self.rulebook.cite("hand_over"))
            self.state = HandState.start(event, self.rulebook)
            return ()
        if self.state is None:
            raise HandStateError(
                f"a {type(event).__name__} came before the hand started", self.rulebook.cite("hand_over")
            )
        return self.state.apply(event)

    def run(self, events: Iterable[ReportedEvent]) -> ReplayResult:
        """Apply every event until the end or the first refusal."""
        result = ReplayResult()
        for index, event in enumerate(events):
            try:
                derived = self.apply(event)
            except HandError as error:
                result.rejection = Rejection(index, event, error.rule, error.reason, type(error).__name__)
                break
            result.events_applied += 1
            result.derived.extend(derived)
            for d in derived:
                if isinstance(d, PotAwarded):
                    result.pots.append(d)
                elif isinstance(d, HandEnded):
                    result.undetermined = d.undetermined
        state = self.state
        if state is not None:
            result.is_over = state.is_over
            result.stacks = tuple(sorted(state.final_stacks().items()))
            if state.phase.value in ("showdown", "over") and len(state.in_hand) > 1:
                result.showdown_order = state.showdown_order()
        return result
