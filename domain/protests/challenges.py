"""Challenging a hand's result: the window and who may (bfsp 5.9.1; TDA 2022 22, TDA 2017 D-21).

The right to challenge a completed hand ends when the next hand starts (its first riffle, or the shuffling
machine's button: bfsp 5.5.6, TDA 2022 23). The TDA texts keep an error in counting or awarding a pot open until
substantial action on the next hand (``Rulebook.pot_count_dispute_until_substantial_action``). The last hand
before a break can be challenged until ``dispute_seconds_at_break`` after the pot is awarded. A challenge at the
very instant the next hand starts is late (the hand has begun); one at the last second of the break's minute is
in time. The competition's end is the last stop of play: every window still open then closes as at a break,
``dispute_seconds_at_break`` after the end (or after its own award, if later), so no result stays open to
challenge once the competition is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from domain.errors import ProtestError, verify_agrees
from domain.officials import Act, verify_permitted
from domain.protests.events import ChallengeKind, HandChallenged
from domain.roles import Role
from domain.rulebooks import Rulebook


@dataclass(frozen=True, slots=True)
class ChallengeWindow:
    """When the hand's pot was awarded and what has happened since (None: not yet)."""

    awarded_at: datetime
    at_break: bool = False
    next_hand_started_at: datetime | None = None
    next_hand_substantial_action_at: datetime | None = None
    #: when the competition ended (its winner declared), or None while it goes on
    competition_ended_at: datetime | None = None


def _closed_by_the_end(window: ChallengeWindow, rulebook: Rulebook) -> datetime | None:
    if window.competition_ended_at is None:
        return None
    return max(window.awarded_at, window.competition_ended_at) + timedelta(seconds=rulebook.dispute_seconds_at_break)


def challenge_deadline(window: ChallengeWindow, kind: ChallengeKind, rulebook: Rulebook) -> datetime | None:
    """When the right to challenge ends, or None while the event that ends it has not happened."""
    if window.at_break:
        return window.awarded_at + timedelta(seconds=rulebook.dispute_seconds_at_break)
    if kind is ChallengeKind.POT_COUNT and rulebook.pot_count_dispute_until_substantial_action:
        own = window.next_hand_substantial_action_at
    else:
        own = window.next_hand_started_at
    at_end = _closed_by_the_end(window, rulebook)
    if at_end is None or own is None:
        return own if at_end is None else at_end
    return min(own, at_end)


def closed_by_the_end(window: ChallengeWindow, kind: ChallengeKind, rulebook: Rulebook) -> bool:
    """Whether it is the competition's end, not play at the table, that closes this window."""
    at_end = _closed_by_the_end(window, rulebook)
    return at_end is not None and not window.at_break and challenge_deadline(window, kind, rulebook) == at_end


def verify_challenge_in_time(
    kind: ChallengeKind, raised_at: datetime, window: ChallengeWindow, rulebook: Rulebook
) -> None:
    deadline = challenge_deadline(window, kind, rulebook)
    rule = rulebook.cite("dispute")
    if window.at_break:
        assert deadline is not None
        if raised_at > deadline:
            late = (raised_at - window.awarded_at).total_seconds()
            raise ProtestError(
                f"the hand ended at a break: its result could be challenged until "
                f"{rulebook.dispute_seconds_at_break} seconds after the pot was awarded; this challenge came "
                f"{late:g} seconds after",
                rule,
            )
        return
    if closed_by_the_end(window, kind, rulebook):
        assert deadline is not None
        if raised_at > deadline:  # as at a break, the minute's last second is in time
            raise ProtestError(
                f"the competition ended at {window.competition_ended_at}: every result could be challenged until "
                f"{rulebook.dispute_seconds_at_break} seconds after, and no longer; this challenge came after it",
                rule,
            )
        return
    if deadline is not None and raised_at >= deadline:
        ended = (
            "substantial action on the next hand"
            if kind is ChallengeKind.POT_COUNT and rulebook.pot_count_dispute_until_substantial_action
            else "the start of the next hand"
        )
        raise ProtestError(
            f"the right to challenge the hand ended with {ended}; this challenge came after it", rule
        )


def challenge(
    hand: str,
    participant: str,
    kind: ChallengeKind,
    grounds: str,
    raised_at: datetime,
    window: ChallengeWindow | None,
    rulebook: Rulebook,
    raised_by: Role = Role.PARTICIPANT,
) -> HandChallenged:
    """A participant's challenge of ``hand``'s result, refused when it comes too late, or before there is a
    result (``window`` None: the hand has not ended)."""
    verify_permitted(Act.HAND_CHALLENGED, raised_by)
    if window is None:
        raise ProtestError(f"hand {hand} has not ended: there is no result to challenge yet", rulebook.cite("dispute"))
    verify_challenge_in_time(kind, raised_at, window, rulebook)
    return HandChallenged(
        hand, participant, kind, grounds, raised_at, challenge_deadline(window, kind, rulebook)
    )


def verify_own_challenge(participant: str, registered_person: str | None, person: str, rulebook: Rulebook) -> None:
    """A participant challenges in his own name: ``person`` recording a challenge as a participant is the person
    the competition registered as ``participant`` (``registered_person``; None: not registered there)."""
    rule = rulebook.cite("dispute")
    if registered_person is None:
        raise ProtestError(f"{participant} is not registered at this competition: he challenges no result there", rule)
    if registered_person != person:
        raise ProtestError(
            f"a participant challenges in his own name: {person} may not challenge in the name of {participant}", rule
        )


def verify_reported_deadline(reported: datetime | None, judged: HandChallenged, rulebook: Rulebook) -> None:
    """A challenge's record reports when its window closes: the time the service worked out (``judged``)."""
    verify_agrees(reported, judged.deadline, "the challenge closes at", rulebook.cite("dispute"), ProtestError)
