"""A protest and the penalty it contests: whether the penalty is one it can contest (bfsp 7.3.1), and whether
its decision lifts it (bfsp 7.3.4)."""

from __future__ import annotations

from domain.discipline import DisciplinaryCase
from domain.errors import DisciplineError, ProtestError, RuleRef
from domain.protests.events import ProtestDecision, ProtestFiled, ProtestReceived
from domain.protests.protest import Protest


def verify_contested_penalty(
    competition_id: str, filed: ProtestFiled | ProtestReceived, case: DisciplinaryCase | None
) -> None:
    """The contested penalty exists, is in force, and was imposed on ``sanctioned`` (whose disciplinary
    ``case`` the desk found, None when he has none) by whom the protest says."""
    contested = filed.contested
    rule = RuleRef("bfsp", "7.3.1")
    number = contested.reference.removeprefix("penalty-")
    in_force = dict(case.in_force()) if case is not None else {}
    penalty = in_force.get(int(number)) if number.isdigit() else None
    if penalty is None:
        raise ProtestError(
            f"{contested.reference} is not a penalty in force on {contested.sanctioned or 'anybody'} at "
            f"{competition_id} (penalties are named penalty-<number> in the participant's record)",
            rule,
        )
    if penalty.imposed_by is not contested.decided_by:
        raise ProtestError(
            f"{contested.reference} was imposed by the {penalty.imposed_by.value.replace('_', ' ')}, not the "
            f"{contested.decided_by.value.replace('_', ' ')}",
            rule,
        )


def verify_upheld(named: str, protest: Protest | None) -> None:
    """A penalty is lifted only by a protest decided in the participant's favour (bfsp 7.3.4): ``protest`` is
    the one the rescission names (``named``), None when it has not been filed."""
    decision = protest.decision if protest is not None else None
    if decision is None or decision.decision is not ProtestDecision.UPHELD:
        raise DisciplineError(
            f"a penalty is lifted by a protest decided in the participant's favour; protest {named} "
            + ("has not been filed" if protest is None else "has not been upheld"),
            RuleRef("bfsp", "7.3.4"),
        )
