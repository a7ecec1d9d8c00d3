"""When a ruling may still move a hand's chips: while its result may be challenged (bfsp 5.9.1; TDA 2022 22).

The right to challenge a completed hand ends when the next hand at its table starts, or a minute after the pot
is awarded when the hand was the last before a break. A ruling that re-awards a pot after that reopens a result
the rules have closed, and the next hand was dealt with the chips as they stood: it is refused with the
challenge window's rule. The one exception is the Chief Judge's departure from the rules for fairness (bfsp
7.4.1; TDA 2022 1): he may reopen it, but only by naming the window's rule among those he departs from, so the
record shows that the result was reopened late and on whose authority. A ruling that moves no chips (a finding
that confirms the award) closes nothing and is not held to the window.
"""

from __future__ import annotations

from datetime import datetime

from domain.errors import DisciplineError, RuleRef
from domain.protests.challenges import ChallengeWindow, challenge_deadline, closed_by_the_end
from domain.protests.events import ChallengeKind
from domain.rulebooks import Rulebook
from domain.rulings.amend import MechanicalOutcome
from domain.rulings.events import RulingIssued, RulingKind


def verify_played_out(
    hand: str, outcome: MechanicalOutcome | None, window: ChallengeWindow | None
) -> tuple[MechanicalOutcome, ChallengeWindow]:
    """A ruling amends the outcome of a hand played out: its mechanical ``outcome`` and its challenge ``window``
    (both None, or either, while the hand has not ended)."""
    if outcome is None or window is None:
        raise DisciplineError(
            f"hand {hand} has not ended: a ruling amends the outcome of a hand played out", RuleRef("bfsp", "2.2.3")
        )
    return outcome, window


def closed_at(window: ChallengeWindow, rulebook: Rulebook) -> datetime | None:
    """When the hand's result stopped being open to challenge, or None while it still is."""
    return challenge_deadline(window, ChallengeKind.RESULT, rulebook)


def verify_in_time(ruling: RulingIssued, issued_at: datetime, window: ChallengeWindow, rulebook: Rulebook) -> None:
    """Refuse a ruling that moves chips (the caller knows it does) after the hand's result was closed."""
    closed = closed_at(window, rulebook)
    if closed is None or issued_at < closed:
        return
    rule = rulebook.cite("dispute")
    if ruling.kind is RulingKind.FAIRNESS_OVERRIDE and str(rule) in ruling.deviates_from:
        return
    if window.at_break:
        closed_by = f", the last before a break, ended {rulebook.dispute_seconds_at_break} seconds after the pot was awarded"
    elif closed_by_the_end(window, ChallengeKind.RESULT, rulebook):
        closed_by = f" ended {rulebook.dispute_seconds_at_break} seconds after the competition ended"
    else:
        closed_by = " ended when the next hand at the table started, which was dealt with the chips as they stood"
    raise DisciplineError(
        f"the right to challenge the result of hand {ruling.hand}{closed_by}: only the Chief Judge, departing from "
        f"{rule} for fairness, re-awards its pots now",
        rule,
    )
