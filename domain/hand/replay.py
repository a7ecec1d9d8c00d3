"""Replay a hand's reported events through the engine and collect what came of them.

The first event starts the hand (:class:`HandStarted`); each later one is applied in order until the engine
refuses one. A refusal ends the replay: it is recorded with the index of the event, the rule and the reason,
never skipped. The result holds what the engine derived (uncalled bets returned, pots awarded, the hand's
end), the stacks as they stood and the showdown order.

:class:`Replayer` lets a producer of events read the state between them (an importer that needs the engine to
tell a check from a call); :func:`replay` is the one-call form.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from domain.errors import HandError, HandStateError, RuleRef
from domain.hand.events import (
    DerivedEvent,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    PotAwarded,
    ReportedEvent,
    UncalledBetReturned,
)
from domain.hand.state import HandState, Phase
from domain.rulebooks import Rulebook

_TABLING: Final = (HandShown, HandMucked)
# read after every event: a module name, not the enum's attribute (about fifteen times cheaper on Python 3.11;
# Final: a C static when compiled)
_SHOWDOWN: Final = Phase.SHOWDOWN


@dataclass(frozen=True, slots=True)
class Rejection:
    """The event the engine refused: its 0-based index in the replayed sequence, the rule and the reason."""

    event_index: int
    event: ReportedEvent
    rule: RuleRef
    reason: str

    @property
    def message(self) -> str:
        return f"{self.reason} ({self.rule})"


@dataclass(frozen=True, slots=True)
class ReplayResult:
    accepted: tuple[ReportedEvent, ...]
    derived: tuple[DerivedEvent, ...]
    rejection: Rejection | None
    is_over: bool
    #: (seat, chips) in seat order: the final stacks if the hand ended, else the stacks when it stopped
    stacks: tuple[tuple[int, int], ...]
    #: the contesting seats in the order the rules have them table their cards (bfsp 5.9.2; TDA 2022 17)
    showdown_order: tuple[int, ...]

    @property
    def ok(self) -> bool:
        return self.rejection is None

    @property
    def pots(self) -> tuple[PotAwarded, ...]:
        return tuple(e for e in self.derived if isinstance(e, PotAwarded))

    @property
    def returned(self) -> tuple[UncalledBetReturned, ...]:
        return tuple(e for e in self.derived if isinstance(e, UncalledBetReturned))

    @property
    def undetermined(self) -> bool:
        return any(isinstance(e, HandEnded) and e.undetermined for e in self.derived)


class Replayer:
    """One hand's replay, event by event. ``state`` is ``None`` until the hand has started."""

    __slots__ = ("rulebook", "state", "accepted", "derived", "rejection", "_showdown")

    def __init__(self, rulebook: Rulebook) -> None:
        self.rulebook = rulebook
        self.state: HandState | None = None
        self.accepted: list[ReportedEvent] = []
        self.derived: list[DerivedEvent] = []
        self.rejection: Rejection | None = None
        self._showdown: tuple[int, ...] = ()

    def apply(self, event: ReportedEvent) -> tuple[DerivedEvent, ...]:
        """Apply one event; a refusal raises the engine's :class:`HandError` and changes nothing here."""
        state = self.state
        if isinstance(event, HandStarted):
            if state is not None:
                raise HandStateError("the hand has already started", self.rulebook.cite("hand_over"))
            state = self.state = HandState.start(event, self.rulebook)
            follow: tuple[DerivedEvent, ...] = ()
        elif state is None:
            raise HandStateError(
                f"a {type(event).__name__} came before the hand started", self.rulebook.cite("hand_over")
            )
        else:
            if not self._showdown and isinstance(event, _TABLING):
                self._note_showdown()
            follow = state.apply(event)
        self.accepted.append(event)
        # the showdown order is taken once (_note_showdown); the test is inlined: it runs after every event
        if not self._showdown and (state.phase is _SHOWDOWN or state.shown):
            self._showdown = state.showdown_order()
        if follow:
            self.derived.extend(follow)
        return follow

    def _note_showdown(self) -> None:
        """The showdown order, taken once, when the first card is tabled or the showdown begins."""
        state = self.state
        if not self._showdown and state is not None and (state.phase is _SHOWDOWN or state.shown):
            self._showdown = state.showdown_order()

    def run(self, events: Iterable[ReportedEvent]) -> ReplayResult:
        """Apply ``events`` until one is refused or they run out."""
        for event in events:
            try:
                self.apply(event)
            except HandError as refusal:
                self.rejection = Rejection(len(self.accepted), event, refusal.rule, refusal.reason)
                break
        return self.result()

    def result(self) -> ReplayResult:
        state = self.state
        over = state is not None and state.is_over
        stacks = tuple(sorted(state.final_stacks().items())) if state is not None else ()
        return ReplayResult(
            accepted=tuple(self.accepted),
            derived=tuple(self.derived),
            rejection=self.rejection,
            is_over=over,
            stacks=stacks,
            showdown_order=self._showdown,
        )


def replay(events: Iterable[ReportedEvent], rulebook: Rulebook) -> ReplayResult:
    """Replay ``events`` (a :class:`HandStarted` first) under ``rulebook``."""
    return Replayer(rulebook).run(events)
