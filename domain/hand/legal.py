"""What the table may do next: the actor's legal actions, and the next act the hand waits for."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from domain.hand.events import ActionKind, ForcedBetKind


@dataclass(frozen=True, slots=True)
class LegalActions:
    """The options of the seat whose turn it is (the action legality view, bfsp 3.4).

    Amounts are street totals ("raise to"). ``call_amount`` is the chips the call adds (all-in capped).
    ``aggressive_action`` says which act raises the stakes now: ``bet`` with no bet in front, ``raise``
    facing one, ``complete`` facing only a stud bring-in. ``allowed_to`` lists every legal total in fixed
    limit (two sizes on stud's fourth street with an open pair), empty in no-limit and pot-limit.
    """

    seat: int
    can_fold: bool
    can_check: bool
    can_call: bool
    call_amount: int
    can_bet: bool
    can_raise: bool
    can_complete: bool
    can_bring_in: bool
    bring_in_amount: int
    min_bet_or_raise_to: int | None
    max_bet_or_raise_to: int | None
    aggressive_action: ActionKind | None
    raises_left: int | None
    reopened: bool
    allowed_to: tuple[int, ...] = ()


class NextActKind(StrEnum):
    FORCED_BET = "forced_bet"
    DEAL_HOLE = "deal_hole"
    BURN = "burn"
    DEAL_BOARD = "deal_board"
    PLAYER_ACTION = "player_action"
    DRAW = "draw"
    SHOWDOWN = "showdown"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class NextAct:
    """What the table must do next.

    * ``FORCED_BET``: ``seat`` posts ``forced_bet`` of ``amount`` (already capped at the stack);
    * ``DEAL_HOLE``: ``seat`` is owed ``count`` hole cards with the ``face_up`` pattern;
    * ``BURN``: the dealer burns one card; ``DEAL_BOARD``: ``count`` board cards;
    * ``PLAYER_ACTION`` / ``DRAW``: ``seat`` acts or draws;
    * ``SHOWDOWN``: ``seats`` may still show or muck; ``OVER``: nothing.
    """

    kind: NextActKind
    seat: int | None = None
    forced_bet: ForcedBetKind | None = None
    amount: int = 0
    count: int = 0
    face_up: tuple[bool, ...] = ()
    seats: tuple[int, ...] = ()
