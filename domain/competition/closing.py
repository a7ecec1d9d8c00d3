"""The competition's end (bfsp 2.1.1, 5.10.1): when the Chief Judge may close it, and what is refused after.

Play is over when one player holds every chip (5.10.1), or the players left shared out the prizes in a deal, or
(OFC, bfsp 8) every table has played its rounds; and no hand is still being played at a table. Once the
competition has ended its play is not amended: the Secretary compiles the final protocol from the record as it
stands (2.3.3) and the Chief Judge signs it (2.1.4; domain/final_protocol.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from domain.errors import CompetitionError, RuleRef

#: the competition is won when one player holds all the chips (bfsp 5.10.1): it ends no sooner
PLAY_OVER_RULE = RuleRef("bfsp", "5.10.1")
#: after the end the Secretary compiles the final protocol of the record as it stands (bfsp 2.3.3)
ENDED_RULE = RuleRef("bfsp", "2.3.3")


def verify_play_over(*, over: bool, players_left: int, ofc: bool, running: Sequence[int]) -> None:
    """Refuse to end a competition whose play is not over: more than one player with chips (no deal ended it),
    an OFC table with rounds to play, or a hand still being played at ``running`` tables."""
    if not over:
        if ofc:
            raise CompetitionError(
                "play is not over: not every table has played the rounds the Regulations set", RuleRef("bfsp", "8")
            )
        raise CompetitionError(
            f"play is not over: {players_left} players still hold chips, and the competition is won when one "
            "player holds them all",
            PLAY_OVER_RULE,
        )
    if running:
        tables = ", ".join(str(t) for t in sorted(running))
        raise CompetitionError(
            f"a hand is still being played at table{'s' if len(running) > 1 else ''} {tables}: the competition "
            "ends once every hand has ended",
            PLAY_OVER_RULE,
        )


def verify_not_ended(ended_at: datetime | None, ended_by: str, doing: str) -> None:
    """Refuse ``doing`` (an act of play or of the competition's set-up) once the competition has ended."""
    if ended_at is None:
        return
    raise CompetitionError(
        f"the competition ended at {ended_at.isoformat()} (closed by {ended_by}): nothing may {doing} after the "
        "end; the Secretary compiles the final protocol of the record as it stands",
        ENDED_RULE,
    )
