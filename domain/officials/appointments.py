"""Where an official may act: the competition's own records say (DESIGN decision 11).

The roles table (:mod:`domain.officials.permissions`) says what kind of act a role may record; this says where.
An official — a judge, the Chief Judge, the Secretary, a dealer, an authorised person — acts only in a
competition whose records appointed him to that office (bfsp 2.1.1: the federation appoints the Chief Judge,
who sets the functions of the judges and dealers), and a dealer only at the tables the Chief Judge assigned him
(bfsp 2.1.1, 2.4.1: he conducts the game at his table).

Who is no official of the competition is not asked: the federation acts for itself (bfsp 7.2.3, 7.3.4), a
participant files his own protests and challenges (judged by their own rules), and the importer and the
simulator report what a source dealt (the roles table keeps them to the game as dealt). A competition with no
records of its own (no Regulations adopted: imported hand histories of past events, plain simulations) has
appointed nobody, so there is nothing to check its records against; its hands are judged by the roles table
alone, and the API scopes a dealer's token to one competition and table.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Protocol

from domain.errors import NotPermittedError, RuleRef
from domain.roles import Role

#: roles that act for a body or report for one, not as an official appointed at the competition (the integrity
#: team investigates for the federation: its cases are no office a competition gives)
NOT_APPOINTED: frozenset[Role] = frozenset(
    {Role.FEDERATION, Role.IMPORTER, Role.SIMULATOR, Role.PARTICIPANT, Role.INTEGRITY}
)
#: the Chief Judge sets the functions of the judges and dealers (bfsp 2.1.1)
APPOINTMENT_RULE = RuleRef("bfsp", "2.1.1")
#: the dealer conducts the game at his table (bfsp 2.4.1), the one the Chief Judge set him to (2.1.1)
DEALER_TABLE_RULE = RuleRef("bfsp", "2.1.1")


class Office(Protocol):
    """An appointment as the competition's records keep it (``OfficialAppointed``)."""

    @property
    def role(self) -> Role: ...

    @property
    def tables(self) -> tuple[int, ...]: ...


def verify_appointed(
    officials: Mapping[str, Office],
    competition_id: str,
    person: str,
    role: Role,
    *,
    table: int | None = None,
    doing: str = "act",
    rule: RuleRef = APPOINTMENT_RULE,
) -> None:
    """Refuse ``person`` acting as ``role`` at ``competition_id`` (at ``table``, for a dealer) unless the
    competition's ``officials`` appointed him to that office (and assigned him that table)."""
    if role in NOT_APPOINTED:
        return
    office = officials.get(person)
    what = role.value.replace("_", " ")
    if office is None or office.role is not role:
        held = f"; he serves as {office.role.value.replace('_', ' ')}" if office is not None else ""
        raise NotPermittedError(
            f"{person} is not appointed {what} of {competition_id}{held}: an official may {doing} only where "
            "the competition's records appointed him",
            rule,
        )
    if role is Role.DEALER and table is not None and table not in office.tables:
        raise NotPermittedError(
            f"{person} deals at {_tables(office.tables)} of {competition_id}, not at table {table}: a dealer "
            "conducts the game only at the tables the Chief Judge assigned him",
            DEALER_TABLE_RULE,
        )


def _tables(tables: Collection[int]) -> str:
    if not tables:
        return "no table"
    ordered = sorted(tables)
    if len(ordered) == 1:
        return f"table {ordered[0]}"
    return "tables " + ", ".join(str(t) for t in ordered[:-1]) + f" and {ordered[-1]}"


#: acts that amend or inspect what the table recorded at the discretion of an official (a ruling, the Chief Judge's
#: inspection of mucked cards): an official's function the Chief Judge sets (bfsp 2.1.1), so made only where the
#: competition's records appointed officials
APPOINTED_OFFICIALS_ONLY: frozenset[str] = frozenset({"RulingIssued", "MuckedCardsInspected"})


def refusal_where_nobody_was_appointed(act: str, competition_id: str, role: Role) -> NotPermittedError | None:
    """Refuse an official's discretionary ``act`` at ``competition_id``, which has adopted no Regulations and so
    appointed no officials (imported hand histories, plain simulations); None for any other act. Without this,
    any judge's token could rewrite the result of a hand no competition put in his charge."""
    if act not in APPOINTED_OFFICIALS_ONLY or role in NOT_APPOINTED:
        return None
    return NotPermittedError(
        f"{competition_id} has adopted no Regulations and so appointed no officials: a "
        f"{role.value.replace('_', ' ')} may record {act} only at a competition whose records appointed him",
        APPOINTMENT_RULE,
    )


#: roles whose reading is not an office held at a competition: the federation's board, the integrity team and the
#: public (what they may read is the roles table's alone)
READS_BY_ROLE: frozenset[Role] = NOT_APPOINTED | frozenset({Role.INTEGRITY, Role.VIEWER})


def reads_as_appointed(officials: Mapping[str, Office] | None, person: str, role: Role) -> bool:
    """May ``person``, reading as ``role``, read what that office reads at a competition whose records appointed
    ``officials`` (None: a competition without Regulations, which appointed nobody and keeps the roles table)?
    An official reads a competition's sealed content — live hole cards, burns, mucked hands, the words the
    officials keep among themselves — only in the office its records gave him (DESIGN decision 11, bfsp 2.1.1)."""
    if role in READS_BY_ROLE or officials is None:
        return True
    office = officials.get(person)
    return office is not None and office.role is role
