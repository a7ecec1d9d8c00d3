"""Who records an OFC round's deal and setting, and where (bfsp 2.4.1, 8): the checks made before a round's
start is accepted, beside the game's own (:mod:`domain.ofc.game`)."""

from __future__ import annotations

from domain.competition.hand_checks import table_number
from domain.errors import NotPermittedError, RuleRef
from domain.ofc.game import OfcError
from domain.roles import Role
from domain.rulebooks import Rulebook

#: who records the game as dealt (bfsp 2.4.1: the dealer; the officials over him; the machines that report it)
AT_THE_TABLE = frozenset({Role.DEALER, Role.JUDGE, Role.CHIEF_JUDGE, Role.IMPORTER, Role.SIMULATOR})
#: the dealer deals and records the game at his table (bfsp 2.4.1)
DEALT_BY = RuleRef("bfsp", "2.4.1")


def verify_dealt_by(role: Role) -> None:
    if role not in AT_THE_TABLE:
        raise NotPermittedError(
            f"a {role.value} may not record the deal or the setting of an OFC round; the dealer does", DEALT_BY
        )


def verify_previous_round_over(table_id: str, number: int, previous_over: bool | None, rulebook: Rulebook) -> None:
    """A table plays one round at a time: round ``number - 1`` there (None: not recorded) is over first."""
    if previous_over is False:
        raise OfcError(f"round {number - 1} at table {table_id} is still being played", rulebook.cite("ofc_turn_order"))


def numbered_table(competition_id: str, table_id: str, rulebook: Rulebook) -> int:
    """The floor's number of the table a competition's round is played at: its tables are numbered."""
    number = table_number(table_id)
    if number is None:
        raise OfcError(
            f"{competition_id} plays at numbered tables; there is no table {table_id}", rulebook.cite("ofc_players")
        )
    return number
