"""Rulings on a hand (bfsp 2.2.3, 5.1) and the inspection of mucked cards: each handler loads the hand and its
HandReview by natural key through the desk; a ruling that moves chips is judged in time
(:mod:`domain.rulings.window`) and against the chips in play (the competition's chip count)."""

from __future__ import annotations

from eventsourcing.domain import Aggregate

from domain.competition.aggregate import Competition
from domain.competition.hand_checks import hand_name
from domain.hand.aggregate import Hand, hand_id
from domain.hand.events import (
    HandMucked,
)
from domain.officials import verify_recorded_by_named
from domain.officials.codec import decode as decode_officials
from domain.rulings import HandReview
from domain.rulings.amend import chips_moved
from domain.rulings.events import MuckedCardsInspected, RulingIssued
from domain.rulings.outcome import stored_outcome
from domain.rulings.window import verify_in_time, verify_played_out
from ingest.envelope import MalformedRecord
from ingest.handlers.desk import (
    Desk,
    Handler,
    Reported,
    by_player,
    challenge_window,
)

_OFFICIALS_CATALOG: dict[str, type] = {"HandMucked": HandMucked}


def _review(desk: Desk, act: Reported, named: str) -> tuple[Hand, HandReview]:
    hand = desk.hand(act.envelope)
    assert act.envelope.table_id is not None and act.envelope.hand_id is not None
    expected = hand_name(act.envelope.table_id, act.envelope.hand_id)
    if named != expected:
        raise MalformedRecord(f"the record is about hand {named}; the envelope names hand {expected}", "payload.hand")
    found = desk.review(act.competition_id, named)
    if found is not None:
        return hand, found
    review = HandReview.open(act.competition_id, named, act.at, act.meta)
    desk.opened_review(review)
    return hand, review


def _rule(desk: Desk, act: Reported) -> Aggregate:
    e: RulingIssued = act.event
    verify_recorded_by_named(e, act.role, act.by.person)
    hand, review = _review(desk, act, e.hand)
    outcome, window = verify_played_out(e.hand, stored_outcome(desk.hand_events(hand)), challenge_window(desk, act, hand))
    moved = by_player(hand, chips_moved(outcome, review.rulings, e))
    competition = desk.competition_of(act.competition_id)
    if not moved or competition is None:
        review.issue(e, outcome, act.at, act.meta)
        return review
    verify_in_time(e, act.at, window, competition.rulebook)
    count = desk.chip_count(competition)
    in_play = _in_play(desk, competition, act)
    count.verify_amendment(e.hand, e.ruling, moved, in_play)
    review.issue(e, outcome, act.at, act.meta)
    count.amend(e.hand, e.ruling, moved, act.at, in_play)
    return review


def _in_play(desk: Desk, competition: Competition, act: Reported) -> frozenset[str]:
    """The players whose chips are on the table in a hand being played: seated at a table of the floor with a
    hand running, or dealt into a stud hand that followed the one ruled on and is still running (a hand with no
    button is no record of the floor's)."""
    floor = competition.floor
    running = frozenset(p for t in floor.tables if t.hand_running for p in t.players) if floor else frozenset()
    table, number = act.envelope.table_id, act.envelope.hand_id
    if table is None or number is None:
        return running
    following = desk.find(hand_id(table, int(number) + 1, act.competition_id))
    if not isinstance(following, Hand) or following.is_over or following.engine.started.button is not None:
        return running
    return running | frozenset(entry.player for entry in following.engine.started.seats)


def _inspect(desk: Desk, act: Reported) -> Aggregate:
    e: MuckedCardsInspected = act.event
    hand, review = _review(desk, act, e.hand)
    mucked = {
        decode_officials(s.payload, _OFFICIALS_CATALOG).seat
        for s in desk.hand_events(hand)
        if type(s).__name__ == "HandMucked"
    }
    review.inspect(
        e.seats, mucked, e.suspected_by, e.suspicion, e.outcome, e.shown_to_table, act.role, act.at, act.meta
    )
    return review




HANDLERS: dict[str, Handler] = {
    "RulingIssued": _rule,
    "MuckedCardsInspected": _inspect,
}
