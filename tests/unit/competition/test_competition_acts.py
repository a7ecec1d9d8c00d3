"""Each act the Competition records is checked against its own row of the roles table, not a neighbour's."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from competition.a_competition import CHIEF, DEALER, JUDGE, SECRETARY, at, drawn
from domain.competition.aggregate import Competition, Recorder
from domain.competition.draw import commitment
from domain.competition.floor_events import TableBreakCommitted
from domain.competition.prizes import DealShare
from domain.errors import NotPermittedError
from domain.officials import Act
from domain.officials.permissions import permission

pytestmark = pytest.mark.unit

Attempt = Callable[[Competition, Recorder], None]

ATTEMPTS: list[tuple[Act, Recorder, Attempt]] = [
    (Act.TABLE_HAND_STARTED, SECRETARY, lambda c, by: c.start_table_hand(1, c.buttons[1], at(5), by)),
    (Act.TABLE_HAND_ENDED, SECRETARY, lambda c, by: c.end_table_hand(1, at(5), by)),
    (Act.HAND_FOR_HAND_HAND_STARTED, JUDGE, lambda c, by: c.start_hand_for_hand_hand(at(5), by)),
    (Act.HAND_FOR_HAND_ENDED, JUDGE, lambda c, by: c.end_hand_for_hand(at(5), by)),
    (Act.FINAL_TABLE_DRAW_COMMITTED, JUDGE, lambda c, by: c.commit_final_table_draw(commitment("s"), at(5), by)),
    (
        Act.TABLE_BREAK_COMMITTED,
        DEALER,
        lambda c, by: c.commit_table_break(TableBreakCommitted(2, commitment("s")), at(5), by),
    ),
    (
        Act.DEAL_AGREED,
        JUDGE,
        lambda c, by: c.agree_deal([DealShare(p, 1_000) for p in c.remaining], 0, at(5), by),
    ),
]


@pytest.mark.parametrize(("act", "by", "attempt"), ATTEMPTS, ids=[a.value for a, _, _ in ATTEMPTS])
def test_an_act_refused_to_a_role_cites_its_own_row(act: Act, by: Recorder, attempt: Attempt) -> None:
    competition = drawn(12)
    version = competition.version
    row = permission(act)
    assert by.role not in row.roles
    with pytest.raises(NotPermittedError) as refused:
        attempt(competition, by)
    assert refused.value.rule == row.cite()
    assert f" may not {row.doing}; only " in refused.value.reason
    assert competition.version == version


def test_the_roles_the_rows_name_record_the_acts() -> None:
    competition = drawn(12)
    competition.start_table_hand(1, competition.buttons[1], at(5), DEALER)
    competition.end_table_hand(1, at(6), DEALER)
    competition.start_hand_for_hand(23 * 60, at(7), CHIEF)  # level 1's 30 minutes, 7 run by the clock
    competition.start_hand_for_hand_hand(at(8), CHIEF)
    competition.end_hand_for_hand(at(9), CHIEF)
    recorded = [type(e).__name__ for e in competition.collect_events()][-5:]
    assert recorded == [
        "TableHandStarted",
        "TableHandEnded",
        "HandForHandStarted",
        "HandForHandHandStarted",
        "HandForHandEnded",
    ]
