"""The Chief Judge's inspection of mucked cards on a suspicion of team play (bfsp 5.9.2).

Once a player has shown, the others may muck unshown, and revealing those cards is forbidden. The exception: a
player or an official reasonably suspects team play, the Chief Judge orders the mucked cards shown to him
alone and decides; if he finds team play he must justify it by showing the cards to all participants.
"""

from __future__ import annotations

from collections.abc import Collection

from domain.errors import DisciplineError, RuleRef
from domain.officials import Act, verify_permitted
from domain.roles import Role
from domain.rulings.events import InspectionOutcome, MuckedCardsInspected

RULE = RuleRef("bfsp", "5.9.2")
#: who may raise the suspicion: the players and the officials (the 002 text; 000 says "contestants")
MAY_SUSPECT = frozenset(
    {Role.PARTICIPANT, Role.DEALER, Role.JUDGE, Role.CHIEF_JUDGE, Role.SECRETARY, Role.AUTHORISED}
)


def inspect_mucked_cards(
    hand: str,
    seats: tuple[int, ...],
    mucked: Collection[int],
    suspected_by: Role,
    suspicion: str,
    outcome: InspectionOutcome,
    shown_to_table: bool,
    inspected_by: Role,
) -> MuckedCardsInspected:
    """The inspection of ``seats``' hands, which must be among the hands ``mucked`` unshown."""
    verify_permitted(Act.MUCKED_CARDS_INSPECTED, inspected_by)
    if suspected_by not in MAY_SUSPECT:
        raise DisciplineError(
            f"a suspicion of team play comes from a player or an official, not from {suspected_by.value}", RULE
        )
    if not suspicion.strip():
        raise DisciplineError("mucked cards are inspected only on a stated, reasonable suspicion of team play", RULE)
    unmucked = sorted(set(seats) - set(mucked))
    if not seats or unmucked:
        raise DisciplineError(
            f"the inspection is of hands mucked unshown; seat(s) {', '.join(map(str, unmucked))} mucked no hand"
            if unmucked
            else "an inspection names the mucked hands it looks at",
            RULE,
        )
    found = outcome is InspectionOutcome.TEAM_PLAY_FOUND
    if found and not shown_to_table:
        raise DisciplineError(
            "the Chief Judge who finds team play justifies it by showing the cards to all participants", RULE
        )
    if not found and shown_to_table:
        raise DisciplineError(
            "with no team play found the mucked cards stay unseen: revealing them to the table is forbidden", RULE
        )
    return MuckedCardsInspected(hand, seats, suspected_by, suspicion, outcome, shown_to_table, inspected_by)
