"""Balancing: who must move, from which table, to which seat, and the refusals of every other move.

The federation's rule (bfsp 3.1), with the TDA's where it is silent:

* at the start of a hand, table counts differ by at most the tolerance: 1, or 2 by the Chief Judge's decision
  (:class:`BalanceToleranceWidened`);
* the player who moves is the one who would be big blind next at the fullest table, and he goes to a table with
  the fewest players, to the free seat nearest the big blind — the big blind itself when it is free (TDA 2022
  11-A: the worst position), never the small blind, never between the button and the small blind (TDA 2022
  10-A, TV-106, TV-107), never a seat that would make a player big blind twice in a row (TDA 2022 34);
* when that player is still in the hand and the short table is more than 2 short, the Chief Judge may move the
  next player clockwise who is not in the hand instead (:class:`MoverExceptionDecided`), to a seat no worse
  than the one he leaves: at least as many hands before his big blind (bfsp 3.1).

:func:`planned_move` is the move the rules call for; :func:`verify_move` refuses any other with a
:class:`domain.errors.CompetitionError` that says who should have moved where.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.competition.floor_events import MoveReason, MoverExceptionDecided, MoveRule, PlayerMoved
from domain.competition.seating import (
    Table,
    clockwise,
    free_seats,
    hands_to_big_blind,
    next_positions,
    outlook,
    worst_seats,
)
from domain.errors import CompetitionError
from domain.rulebooks import Rulebook


def counts(tables: Sequence[Table]) -> dict[int, int]:
    return {table.number: len(table.seats) for table in tables}


def spread(tables: Sequence[Table]) -> int:
    sizes = [len(table.seats) for table in tables]
    return max(sizes) - min(sizes) if sizes else 0


def is_balanced(tables: Sequence[Table], tolerance: int) -> bool:
    return spread(tables) <= tolerance


def fullest(tables: Sequence[Table]) -> list[Table]:
    most = max(len(t.seats) for t in tables)
    return [t for t in tables if len(t.seats) == most]


def shortest(tables: Sequence[Table]) -> list[Table]:
    fewest = min(len(t.seats) for t in tables)
    return [t for t in tables if len(t.seats) == fewest]


def next_big_blind(table: Table, rulebook: Rulebook) -> str | None:
    positions = next_positions(table, rulebook)
    return None if positions is None else table.occupant(positions.big_blind)


def next_not_in_hand(table: Table, rulebook: Rulebook) -> str | None:
    """The first player clockwise after the next big blind who is not in the hand (bfsp 3.1's exception)."""
    positions = next_positions(table, rulebook)
    if positions is None:
        return None
    order = sorted(table.seats, key=lambda entry: clockwise(positions.big_blind, entry[0], table.max_seats))
    return next((player for _, player in order[1:] if player not in table.in_hand), None)


def planned_move(
    source: Table,
    destination: Table,
    rulebook: Rulebook,
    seat_limit: int,
    exception: MoverExceptionDecided | None = None,
    authorised_by: str = "",
) -> PlayerMoved | None:
    """The move from ``source`` to ``destination`` the rules call for now, or None when nobody can move yet
    (the next big blind is in the hand, or no free seat can take him before the short table's next hand)."""
    mover = next_big_blind(source, rulebook)
    if mover is None:
        return None
    rule = MoveRule.NEXT_BIG_BLIND
    if mover in source.in_hand:
        if exception is None or exception.in_hand != mover:
            return None
        mover, rule = exception.instead, MoveRule.NEXT_NOT_IN_HAND
    from_seat = source.seat_of(mover)
    if from_seat is None:
        return None
    seats = worst_seats(destination, mover, rulebook, seat_limit)
    if rule is MoveRule.NEXT_NOT_IN_HAND:
        before = _hands_to_big_blind_at(source, mover, rulebook)
        seats = [view for view in seats if view.hands_to_big_blind >= before]
    if not seats:
        return None
    return PlayerMoved(
        participant=mover,
        from_table=source.number,
        from_seat=from_seat,
        to_table=destination.number,
        to_seat=seats[0].seat,
        reason=MoveReason.BALANCE,
        rule_applied=rule,
        authorised_by=authorised_by,
    )


def _hands_to_big_blind_at(table: Table, participant: str, rulebook: Rulebook) -> int:
    positions = next_positions(table, rulebook)
    seat = table.seat_of(participant)
    assert positions is not None and seat is not None
    return hands_to_big_blind(table, positions, seat)


def closed_seat_move(
    tables: Sequence[Table],
    rulebook: Rulebook,
    seat_limit: int,
    authorised_by: str = "",
    participant: str | None = None,
) -> PlayerMoved | None:
    """A player on a seat the tables no longer have (seat 10 once a 10-max event is down to two tables, bfsp
    3.1) goes to the free seat nearest the big blind at the table with the fewest players (his own counted
    without him) that has one, his own first on a tie. Not while he is in a hand."""
    for source in tables:
        for seat, player in source.seats:
            if seat <= seat_limit or player in source.in_hand or participant not in (None, player):
                continue
            alone = source.unseated(player)
            candidates = [alone if t.number == source.number else t for t in tables]
            candidates.sort(key=lambda t: (len(t.seats), t.number != source.number, t.number))
            for destination in candidates:
                seats = worst_seats(destination, player, rulebook, seat_limit)
                if seats:
                    return PlayerMoved(
                        participant=player,
                        from_table=source.number,
                        from_seat=seat,
                        to_table=destination.number,
                        to_seat=seats[0].seat,
                        reason=MoveReason.BALANCE,
                        rule_applied=MoveRule.CLOSED_SEAT,
                        authorised_by=authorised_by,
                    )
    return None


def next_move(
    tables: Sequence[Table],
    rulebook: Rulebook,
    tolerance: int,
    seat_limit: int,
    exceptions: Sequence[MoverExceptionDecided] = (),
    authorised_by: str = "",
) -> PlayerMoved | None:
    """The first move the floor must make now (players off closed seats first, then from the lowest fullest
    table to the lowest shortest table that can take him), or None when the tables are balanced or nobody can
    move before another hand is played."""
    reseat = closed_seat_move(tables, rulebook, seat_limit, authorised_by)
    if reseat is not None:
        return reseat
    if len(tables) < 2 or is_balanced(tables, tolerance):
        return None
    for source in fullest(tables):
        exception = next((e for e in exceptions if e.table == source.number), None)
        for destination in shortest(tables):
            move = planned_move(source, destination, rulebook, seat_limit, exception, authorised_by)
            if move is not None:
                return move
    return None


def verify_exception(
    tables: Sequence[Table], rulebook: Rulebook, tolerance: int, decision: MoverExceptionDecided
) -> None:
    """The Chief Judge may move the next player not in the hand only as bfsp 3.1 allows."""
    rule = rulebook.cite("balancing")
    source = table_numbered(tables, decision.table, rulebook)
    if rulebook.mover_exception_short_by <= 0:
        raise CompetitionError(
            f"the {rulebook.name} rules move the next big blind only; {decision.in_hand} moves when his hand ends",
            rule,
        )
    if is_balanced(tables, tolerance):
        raise CompetitionError(f"the tables are balanced ({sizes(tables)}): nobody needs to move", rule)
    if source not in fullest(tables):
        raise CompetitionError(
            f"table {source.number} has {len(source.seats)} players; players move from the fullest table "
            f"({sizes(tables)})",
            rule,
        )
    short_by = spread(tables)
    if short_by < rulebook.mover_exception_short_by:
        raise CompetitionError(
            f"the short table is {short_by} players short; the next player not in the hand may be moved only "
            f"when it is more than {rulebook.mover_exception_short_by - 1} short: {decision.in_hand} moves when "
            "his hand ends",
            rule,
        )
    mover = next_big_blind(source, rulebook)
    if decision.in_hand != mover:
        raise CompetitionError(
            f"{mover} would be big blind next at table {source.number}, not {decision.in_hand}", rule
        )
    if mover not in source.in_hand:
        raise CompetitionError(f"{mover} is not in a hand: he moves himself", rule)
    instead = next_not_in_hand(source, rulebook)
    if decision.instead != instead:
        raise CompetitionError(
            f"the next player clockwise not in the hand at table {source.number} is {instead}, not "
            f"{decision.instead}",
            rule,
        )


def verify_move(
    tables: Sequence[Table],
    rulebook: Rulebook,
    tolerance: int,
    seat_limit: int,
    move: PlayerMoved,
    exceptions: Sequence[MoverExceptionDecided] = (),
) -> None:
    """Refuse a balancing move the rules do not call for, saying who should have moved where."""
    rule = rulebook.cite("balancing")
    if move.reason is not MoveReason.BALANCE:
        raise CompetitionError(
            f"a move for {move.reason.value.replace('_', ' ')} is recorded with its draw, not as a balancing move",
            rule,
        )
    source = table_numbered(tables, move.from_table, rulebook)
    destination = table_numbered(tables, move.to_table, rulebook)
    if source.occupant(move.from_seat) != move.participant:
        raise CompetitionError(
            f"{move.participant} does not sit at table {source.number} seat {move.from_seat}", rule
        )
    if move.rule_applied is MoveRule.CLOSED_SEAT:
        _verify_closed_seat_move(tables, rulebook, seat_limit, move)
        return
    if source is destination:
        raise CompetitionError(f"{move.participant} is moved to the table he sits at", rule)
    if is_balanced(tables, tolerance):
        raise CompetitionError(
            f"the tables are balanced ({sizes(tables)}): nobody needs to move",
            rulebook.cite("balance_tolerance"),
        )
    if source not in fullest(tables):
        raise CompetitionError(
            f"table {source.number} has {len(source.seats)} players; players move from the fullest table "
            f"({sizes(tables)})",
            rule,
        )
    if destination not in shortest(tables):
        raise CompetitionError(
            f"table {destination.number} has {len(destination.seats)} players; the player goes to the table that "
            f"needs one ({sizes(tables)})",
            rule,
        )
    exception = next((e for e in exceptions if e.table == source.number), None)
    mover = next_big_blind(source, rulebook)
    if mover is None:
        raise CompetitionError(
            f"table {source.number} has not started: its button, and so its next big blind, are not known yet",
            rule,
        )
    if move.rule_applied is MoveRule.NEXT_NOT_IN_HAND and (exception is None or exception.in_hand != mover):
        raise CompetitionError(
            f"moving a player other than the next big blind, {mover}, needs the Chief Judge's decision", rule
        )
    expected = planned_move(source, destination, rulebook, seat_limit, exception)
    if expected is None:
        raise CompetitionError(_why_nobody_moves(source, destination, mover, rulebook, seat_limit), rule)
    if move.participant != expected.participant:
        raise CompetitionError(
            f"{expected.participant} must move: "
            + (
                f"he would be big blind next at table {source.number}"
                if expected.rule_applied is MoveRule.NEXT_BIG_BLIND
                else f"he is the next player not in the hand after {mover}, by the Chief Judge's decision"
            )
            + f", to table {destination.number} seat {expected.to_seat}; {move.participant} does not move",
            rule,
        )
    if move.rule_applied is not expected.rule_applied:
        raise CompetitionError(
            f"{move.participant} moves by the rule '{expected.rule_applied.value.replace('_', ' ')}'", rule
        )
    if move.to_seat != expected.to_seat:
        _refuse_seat(source, destination, move, expected, rulebook, seat_limit)


def _verify_closed_seat_move(
    tables: Sequence[Table], rulebook: Rulebook, seat_limit: int, move: PlayerMoved
) -> None:
    rule = rulebook.cite("final_table")
    if move.from_seat <= seat_limit:
        raise CompetitionError(
            f"table {move.from_table} seat {move.from_seat} is open: {move.participant} keeps it", rule
        )
    expected = closed_seat_move(tables, rulebook, seat_limit, participant=move.participant)
    if expected is None:
        raise CompetitionError(
            f"{move.participant} moves when his hand ends and a seat is free for him", rule
        )
    if (move.to_table, move.to_seat) != (expected.to_table, expected.to_seat):
        raise CompetitionError(
            f"table {move.from_table} seat {move.from_seat} is closed; {move.participant} goes to the free seat "
            f"nearest the big blind at the table with the fewest players: table {expected.to_table} seat "
            f"{expected.to_seat}",
            rule,
        )


def _why_nobody_moves(
    source: Table, destination: Table, mover: str, rulebook: Rulebook, seat_limit: int
) -> str:
    if mover in source.in_hand:
        return f"{mover}, the next big blind at table {source.number}, is still in the hand: he moves when it ends"
    return (
        f"no free seat at table {destination.number} can take {mover} before its next hand (the free seats are "
        f"between the button and the small blind, the small blind, or would make a player big blind twice)"
    )


def _refuse_seat(
    source: Table,
    destination: Table,
    move: PlayerMoved,
    expected: PlayerMoved,
    rulebook: Rulebook,
    limit: int,
) -> None:
    where = f"{move.participant} takes table {destination.number} seat {expected.to_seat}"
    if move.to_seat not in free_seats(destination, limit):
        raise CompetitionError(
            f"table {destination.number} seat {move.to_seat} is not free; {where}", rulebook.cite("balancing")
        )
    view = outlook(destination, move.to_seat, move.participant, rulebook)
    if view.waits:
        raise CompetitionError(
            f"seat {move.to_seat} is between the button and the small blind, where no player is dealt in; {where}",
            rulebook.cite("new_player_seat"),
        )
    if view.small_blind:
        raise CompetitionError(
            f"seat {move.to_seat} is the small blind, and no player is moved into the small blind; {where}",
            rulebook.cite("balancing"),
        )
    if view.big_blind_twice:
        raise CompetitionError(
            f"seat {move.to_seat} would make {view.big_blind_twice} big blind twice in a row; {where}",
            rulebook.cite("heads_up"),
        )
    if (
        expected.rule_applied is MoveRule.NEXT_NOT_IN_HAND
        and view.hands_to_big_blind < _hands_to_big_blind_at(source, move.participant, rulebook)
    ):
        raise CompetitionError(
            f"seat {move.to_seat} is worse than the seat {move.participant} leaves: his big blind would come "
            f"sooner; {where}",
            rulebook.cite("balancing"),
        )
    raise CompetitionError(
        f"the free seat nearest the big blind is seat {expected.to_seat}, not seat {move.to_seat}; {where}",
        rulebook.cite("balancing"),
    )


def table_numbered(tables: Sequence[Table], number: int, rulebook: Rulebook) -> Table:
    for table in tables:
        if table.number == number:
            return table
    raise CompetitionError(f"there is no table {number} in play", rulebook.cite("balancing"))


def sizes(tables: Sequence[Table]) -> str:
    return ", ".join(f"table {t.number}: {len(t.seats)}" for t in tables)
