"""The values the PHH reader produces: :class:`PhhHand` (one hand, amounts in integer chips) and
:class:`PhhError` (what could not be read, and where). A hand's events are :func:`ingest.phh_events.hand_events`'s."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from ingest.phh_actions import PhhAction

if TYPE_CHECKING:
    from dataclasses import dataclass
else:
    # the same class, its __init__ setting each field by its slot's setter (domain/frozen.py): one a hand read
    # (tests/unit/test_frozen_values.py holds it to the standard decorator's)
    from domain.frozen import frozen_dataclass as dataclass

#: Chips given to a seat whose stack the record does not know (``inf``): more than any pot in the data,
#: small enough that sums stay exact. Such seats are in ``PhhHand.unknown_stacks``.
UNKNOWN_STACK = 10**15


class PhhError(ValueError):
    """A PHH record we cannot read. ``file``, ``hand`` (1-based index in the file), ``field`` and ``line`` say
    where; ``reason`` says what."""

    def __init__(
        self,
        reason: str,
        file: str,
        hand: int | None = None,
        field: str | None = None,
        line: int | None = None,
    ) -> None:
        self.reason = reason
        self.file = file
        self.hand = hand
        self.field = field
        self.line = line
        where = file + (f":{line}" if line is not None else "")
        what = "".join([f" hand {hand}" if hand is not None else "", f" field {field!r}" if field else ""])
        super().__init__(f"{where}:{what}: {reason}" if what else f"{where}: {reason}")


@dataclass(frozen=True, slots=True)
class PhhHand:
    """One hand as the record gives it, amounts already scaled to integer chips (``scale`` per file unit)."""

    file: str
    index: int
    line: int | None
    variant: str
    players: tuple[str, ...]
    seats: tuple[int, ...]
    scale: int
    starting_stacks: tuple[int, ...]
    unknown_stacks: frozenset[int]  # 1-based player numbers whose stack is unknown (inf)
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]  # negative: a posted blind that is not in its place (Party)
    bring_in: int
    small_bet: int
    big_bet: int
    min_bet: int
    ante_trimming_status: bool
    actions: tuple[PhhAction, ...]
    finishing_stacks: tuple[Decimal, ...] | None
    winnings: tuple[Decimal, ...] | None
    table: str | None
    hand_number: int | None
    #: the PHH ``event`` and the date of ``year``/``month``/``day`` (ISO), which with ``hand`` place the hand at
    #: its table when ``table`` is not given (:mod:`ingest.phh_tables`)
    event: str | None = None
    played_on: str | None = None

    @property
    def player_count(self) -> int:
        return len(self.players)

    def in_file_units(self, chips: int) -> Decimal:
        return Decimal(chips) / self.scale

    def error(self, reason: str, field: str | None = None, line: int | None = None) -> PhhError:
        return PhhError(reason, self.file, self.index, field, line if line is not None else self.line)
