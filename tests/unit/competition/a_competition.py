"""A small competition to test with: regulations, officials, participants and the draw, in a few calls."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from domain.competition.aggregate import Competition, Recorder
from domain.competition.draw import commitment, draw
from domain.competition.regulations import Format, Level, Prize, Regulations
from domain.roles import Role
from domain.variants import BettingStructure

FEDERATION = Recorder("bfsp-board", Role.FEDERATION)
CHIEF = Recorder("cj-ivanov", Role.CHIEF_JUDGE)
SECRETARY = Recorder("sec-petrova", Role.SECRETARY)
JUDGE = Recorder("judge-sidorov", Role.JUDGE)
DEALER = Recorder("dealer-kozlov", Role.DEALER)
START = datetime(2026, 5, 9, 12, 0, tzinfo=UTC)
ADULT = date(1990, 1, 1)

LEVELS = (
    Level(1, 30, 25, 50),
    Level(2, 30, 50, 100),
    Level(3, 30, 75, 150, ante=25),
    Level(4, 30, 100, 200, ante=25),
)


def regulations(**changes: Any) -> Regulations:
    fields: dict[str, Any] = {
        "title": "Minsk Open 2026",
        "format": Format.AMERICAN,
        "variant": "NT",
        "betting": BettingStructure.NO_LIMIT,
        "starting_stack": 10_000,
        "levels": LEVELS,
        "max_seats": 9,
        "starts_on": START.date(),
        "prizes": (Prize(1, 5000), Prize(2, 3000), Prize(3, 2000)),
    }
    fields.update(changes)
    return Regulations(**fields)


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


def staffed(regs: Regulations | None = None, competition_id: str = "minsk-open-2026") -> Competition:
    """Adopted by the federation, with a Chief Judge, a secretary, a judge and a dealer."""
    competition = Competition.adopt(competition_id, regs or regulations(), at(-600), FEDERATION)
    competition.appoint(CHIEF.person, Role.CHIEF_JUDGE, at(-590), FEDERATION)
    for official in (SECRETARY, JUDGE, DEALER):
        competition.appoint(official.person, official.role, at(-580), CHIEF)
    return competition


def players(count: int) -> list[str]:
    return [f"p{n:02d}" for n in range(1, count + 1)]


def registered(count: int, regs: Regulations | None = None) -> Competition:
    competition = staffed(regs)
    for n, name in enumerate(players(count)):
        competition.register(name, f"person-{name}", ADULT, at(-500 + n), SECRETARY)
    return competition


def drawn(count: int, regs: Regulations | None = None, seed: str = "minsk-open-2026 draw") -> Competition:
    """Registered, the draw committed and conducted, level 1 started."""
    competition = registered(count, regs)
    competition.commit_draw(commitment(seed), at(-30), SECRETARY)
    seats = draw(seed, competition.remaining, competition.regulations.max_seats)
    competition.conduct_draw(seed, seats, CHIEF.person, at(-20), SECRETARY)
    competition.start_level(at(0), JUDGE)
    return competition
