"""The sealing policy's rules, role by role (api/sealing.py): who sees which cards of a hand being played and of
one that has ended, the public feeds' delay by the service's clock, and the cards quoted in texts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from api.auth import ANONYMOUS, Principal
from api.sealing import SealingPolicy, Sight, seal_text
from domain.roles import Role

pytestmark = pytest.mark.unit

ENDED_AT = "2026-11-29T12:00:00+00:00"
C, T = "minsk", "3"


def who(role: Role, **claims: str) -> Principal:
    return Principal(person="x", role=role, **claims)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("principal", "live", "ended"),
    [
        (who(Role.JUDGE), Sight.EVERY, Sight.EVERY),
        (who(Role.CHIEF_JUDGE), Sight.EVERY, Sight.EVERY),
        (who(Role.INTEGRITY), Sight.SHOWN, Sight.EVERY),
        (who(Role.FEDERATION), Sight.SHOWN, Sight.EVERY),
        (who(Role.SECRETARY), Sight.SHOWN, Sight.SHOWN),
        (who(Role.VIEWER), Sight.SHOWN, Sight.SHOWN),
        (ANONYMOUS, Sight.SHOWN, Sight.SHOWN),
        (who(Role.DEALER, table=T, competition=C), Sight.EVERY, Sight.EVERY),
        # the same table's name at another competition, another table of this one
        (who(Role.DEALER, table=T, competition="gomel"), Sight.SHOWN, Sight.SHOWN),
        (who(Role.DEALER, table="4", competition=C), Sight.SHOWN, Sight.SHOWN),
    ],
)
def test_who_sees_which_cards(principal: Principal, live: Sight, ended: Sight) -> None:
    policy = SealingPolicy()
    assert policy.sight(principal, C, T, over=False, ended_at=None) is live
    assert policy.sight(principal, C, T, over=True, ended_at=ENDED_AT) is ended


def test_the_public_feeds_see_a_hands_cards_the_delay_after_its_end_by_the_services_clock() -> None:
    ended = datetime.fromisoformat(ENDED_AT)
    for minutes, sight in ((0, Sight.NOTHING), (29.9, Sight.NOTHING), (30, Sight.SHOWN)):
        policy = SealingPolicy(timedelta(minutes=30), clock=lambda m=minutes: ended + timedelta(minutes=m))
        for reader in (who(Role.VIEWER), ANONYMOUS):
            assert policy.sight(reader, C, T, over=True, ended_at=ENDED_AT) is sight
            assert policy.sight(reader, C, T, over=False, ended_at=None) is Sight.NOTHING
        # the officials are no public feed
        assert policy.sight(who(Role.SECRETARY), C, T, over=True, ended_at=ENDED_AT) is Sight.SHOWN
        assert policy.sight(who(Role.INTEGRITY), C, T, over=True, ended_at=ENDED_AT) is Sight.EVERY
    assert SealingPolicy(clock=lambda: datetime(2000, 1, 1, tzinfo=UTC)).sight(
        who(Role.VIEWER), C, T, over=True, ended_at=ENDED_AT
    ) is Sight.SHOWN  # no delay: at the end


def test_a_text_quotes_only_the_cards_the_reader_may_see() -> None:
    reason = "the board includes Kd, which was already dealt in this hand"
    assert seal_text(reason) == "the board includes ??, which was already dealt in this hand"
    assert seal_text("seat 3 showed AsKd on a board of Ah9c4d", public={"Ah", "9c", "4d"}) == (
        "seat 3 showed ???? on a board of Ah9c4d"
    )
    # words and ids are not cards; a word that reads as a card ("As") is sealed: more sealed, never less
    assert seal_text("Ask the dealer about hand 3d4f-9a") == "Ask the dealer about hand 3d4f-9a"
    assert seal_text("As the dealer said") == "?? the dealer said"
