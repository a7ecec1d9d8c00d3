"""Whether an elimination agrees with the hand the player busted in (bfsp 5.10.2; tda-club 28-C).

The desk finds the hand's stored events and the rulings in force on it (the domain does no I/O) and asks
:func:`verify_bust` for each player the record eliminates.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.competition.aggregate import Competition
from domain.competition.events import EliminationReason, PlayerEliminated
from domain.competition.regulations import cite
from domain.errors import CompetitionError, chips, verify_agrees
from domain.rulings.amend import stacks_in_force
from domain.rulings.events import RulingIssued
from domain.rulings.outcome import stored_outcome


def verify_bust(
    competition: Competition,
    eliminated: PlayerEliminated,
    participant: str,
    group: tuple[str, ...],
    played: Sequence[Any] | None,
    rulings: Sequence[RulingIssued],
) -> None:
    """Where the hand he busted in is recorded (``played``: its stored events, None when it is not), he played
    it with the chips the record says and ended it with none, as the ``rulings`` in force on the hand left
    them; and of two busted in one hand, the one who started it with fewer chips is eliminated first, so the
    larger stack places higher, while equal stacks are eliminated in one record and share the places
    (bfsp 5.10.2)."""
    c, e = competition, eliminated
    rule = cite(c.rulebook, "elimination")
    larger = [
        x for x in c.eliminated.values()
        if x.hand == e.hand and x.reason is EliminationReason.NO_CHIPS and x.starting_stack > e.starting_stack
    ]  # fmt: skip
    if larger:
        raise CompetitionError(
            f"{larger[0].participant} started hand {e.hand} with {chips(larger[0].starting_stack)} and "
            f"{participant} with {chips(e.starting_stack)}: busted in the same hand, the smaller stack is "
            "eliminated first and places lower",
            cite(c.rulebook, "placings"),
        )
    if played is None:
        return
    seats = {s["player"]: s for s in played[0].payload["seats"]}
    seat = seats.get(participant)
    if seat is None:
        raise CompetitionError(f"{participant} did not play hand {e.hand}", rule)
    verify_agrees(e.starting_stack, seat["stack"], f"{participant} started hand {e.hand} with", rule)
    outcome = stored_outcome(played)
    if outcome is None:
        raise CompetitionError(f"hand {e.hand} is still being played", rule)
    final = stacks_in_force(outcome, rulings)
    if final.get(seat["seat"], 0):
        ruled = " as ruled" if final != dict(outcome.ended.final_stacks) else ""
        raise CompetitionError(
            f"{participant} finished hand {e.hand}{ruled} with {chips(final[seat['seat']])} chips; a player is "
            "eliminated when he has none left",
            rule,
        )
    busted = sorted(
        (s["stack"], player) for player, s in seats.items()
        if player in c.entries and player not in c.eliminated and player not in group and not final.get(s["seat"], 0)
        and s["stack"] <= e.starting_stack
    )  # fmt: skip
    if busted:
        stack, player = busted[0]
        if stack == e.starting_stack:
            raise CompetitionError(
                f"{player} also busted in hand {e.hand} and started it with as many chips ({chips(stack)}): they "
                "share the place, eliminated in one record that names them both",
                cite(c.rulebook, "placings"),
            )
        raise CompetitionError(
            f"{player} also busted in hand {e.hand} and started it with fewer chips ({chips(stack)} against "
            f"{chips(e.starting_stack)}): he is eliminated first and places lower",
            cite(c.rulebook, "placings"),
        )

