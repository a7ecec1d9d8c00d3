"""An OFC competition (bfsp 8) in the Competition: its rounds at the drawn tables, points instead of chips, and
the places by points.

The seat draw seats the participants 2 or 3 to a table (``Regulations.max_seats``); each table plays
``Regulations.rounds`` rounds. A round starts with the players the draw seated at its table, numbered one after
the last counted there, the button at the draw's starting button for the first round and one seat on each round
after (bfsp 8, set-up: "a button sets positions and moves to the next player each new round"). When a round is
scored the Competition counts it (:class:`OfcRoundCounted`). Once every table has played its rounds, the
competition is over and the players are placed by their points over the rounds, most first ("the player with the
most points at the end wins"); equal points share the place.

Pure functions over what the Competition holds, so the aggregate only records and the rules live here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from domain.competition.events import OfcRoundCounted, OfficialAppointed
from domain.competition.prizes import Standing
from domain.competition.regulations import Regulations
from domain.errors import CompetitionError, NotPermittedError, RuleRef
from domain.ofc.events import OFC
from domain.roles import Role


def tables_of(seats: Mapping[str, tuple[int, int]], remaining: Iterable[str]) -> dict[int, dict[int, str]]:
    """The drawn tables: table → seat → participant."""
    out: dict[int, dict[int, str]] = {}
    for participant in remaining:
        if participant in seats:
            table, seat = seats[participant]
            out.setdefault(table, {})[seat] = participant
    return out


def verify_round_start(
    regulations: Regulations,
    tables: Mapping[int, Mapping[int, str]],
    buttons: Mapping[int, int],
    counted: Sequence[OfcRoundCounted],
    table: int,
    round_number: int,
    button: int,
    players: Sequence[tuple[int, str]],
) -> None:
    """Refuse a round of the competition that the draw, the count of rounds or the button's move contradicts."""
    book = regulations.book
    if regulations.variant != OFC:
        raise CompetitionError(
            f"the competition plays {regulations.variant} by its Regulations, not OFC",
            book.cite("ofc_players"),
        )
    if not tables:
        raise CompetitionError("no OFC round is played before the seat draw", book.cite("ofc_players"))
    seated = tables.get(table)
    if seated is None:
        raise CompetitionError(f"table {table} was not drawn", book.cite("ofc_players"))
    if dict(players) != dict(seated) or len(players) != len(seated):
        drawn = ", ".join(f"{p} at seat {s}" for s, p in sorted(seated.items()))
        raise CompetitionError(f"the draw seated {drawn} at table {table}", book.cite("ofc_players"))
    here = [c for c in counted if c.table == table]
    if round_number != len(here) + 1:
        raise CompetitionError(
            f"table {table} has played {len(here)} rounds counted; its next is round {len(here) + 1}, not "
            f"{round_number}",
            book.cite("ofc_turn_order"),
        )
    if round_number > regulations.rounds:
        raise CompetitionError(
            f"the Regulations give each table {regulations.rounds} rounds; table {table} has played them",
            book.cite("ofc_scoring"),
        )
    expected = buttons.get(table, max(seated)) if not here else next_button(here[-1].button, seated)
    if button != expected:
        raise CompetitionError(
            f"the button of round {round_number} at table {table} is at seat {expected}, not {button}: it moves to "
            "the next player each new round",
            book.cite("ofc_turn_order"),
        )


def verify_recorder(
    officials: Mapping[str, OfficialAppointed], competition_id: str, person: str, role: Role, rule: RuleRef
) -> None:
    """A competition's rounds are recorded by its own officials (its dealers, judges, Chief Judge), or by a machine
    reporting them (the importer, the simulator)."""
    if role in (Role.IMPORTER, Role.SIMULATOR):
        return
    office = officials.get(person)
    if office is None or office.role is not role:
        raise NotPermittedError(f"{person} is not appointed {role.value.replace('_', ' ')} of {competition_id}", rule)


def next_button(button: int, seated: Mapping[int, str]) -> int:
    """The next seat taken clockwise after ``button``."""
    order = sorted(seated)
    after = [s for s in order if s > button]
    return after[0] if after else order[0]


def totals(counted: Iterable[OfcRoundCounted]) -> dict[str, int]:
    """Each player's points over the counted rounds."""
    out: dict[str, int] = {}
    for counted_round in counted:
        for result in counted_round.points:
            out[result.participant] = out.get(result.participant, 0) + result.points
    return out


def is_over(
    regulations: Regulations, tables: Mapping[int, Mapping[int, str]], counted: Sequence[OfcRoundCounted]
) -> bool:
    """Every drawn table has played its rounds."""
    if regulations.variant != OFC or not tables:
        return False
    return all(sum(c.table == t for c in counted) >= regulations.rounds for t in tables)


def standings(
    entries: Iterable[str], counted: Sequence[OfcRoundCounted], disqualified: Iterable[str] = ()
) -> tuple[Standing, ...]:
    """Places by points over the event, most first; equal points share the place. A player the Chief Judge
    disqualified keeps his place by points, marked disqualified: no prize (bfsp 7.2.2, 5.10.2)."""
    barred = set(disqualified)
    points = totals(counted)
    players = list(entries)
    ordered = sorted(players, key=lambda p: -points.get(p, 0))
    out: list[Standing] = []
    place = 1
    for i, player in enumerate(ordered):
        if i and points.get(player, 0) != points.get(ordered[i - 1], 0):
            place = i + 1
        tied = tuple(q for q in ordered if q != player and points.get(q, 0) == points.get(player, 0))
        out.append(Standing(player, place, len(tied) + 1, tied, player in barred))
    return tuple(out)
