"""One PHH hand's TOML table, checked field by field and scaled to integer chips (see :mod:`ingest.phh`)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from ingest.phh_actions import ActionSyntaxError, PhhAction, parse_action
from ingest.phh_locate import HandText
from ingest.phh_model import UNKNOWN_STACK, PhhError, PhhHand

#: phh-std's variant codes and the sizing fields each requires besides antes and starting stacks.
VARIANT_FIELDS: dict[str, tuple[str, ...]] = {
    "FT": ("blinds_or_straddles", "small_bet", "big_bet"),
    "NT": ("blinds_or_straddles", "min_bet"),
    "NS": ("blinds_or_straddles", "min_bet"),
    "PO": ("blinds_or_straddles", "min_bet"),
    "FO/8": ("blinds_or_straddles", "small_bet", "big_bet"),
    "F7S": ("bring_in", "small_bet", "big_bet"),
    "F7S/8": ("bring_in", "small_bet", "big_bet"),
    "FR": ("bring_in", "small_bet", "big_bet"),
    "N2L1D": ("blinds_or_straddles", "min_bet"),
    "F2L3D": ("blinds_or_straddles", "small_bet", "big_bet"),
    "FB": ("blinds_or_straddles", "small_bet", "big_bet"),
}
STUD_VARIANTS = frozenset({"F7S", "F7S/8", "FR"})
SHORT_DECK_VARIANTS = frozenset({"NS"})
#: finer than a millionth of a file unit is not a chip anyone plays with
MAX_DECIMAL_PLACES = 6

Number = int | Decimal


class _Reader:
    def __init__(self, table: dict[str, object], file: str, index: int, text: HandText) -> None:
        self.table = table
        self.file = file
        self.index = index
        self.text = text

    def fail(self, field: str | None, reason: str, line: int | None = None) -> PhhError:
        if line is None and field is not None:
            line = self.text.field_line(field)
        return PhhError(
            reason, self.file, self.index, field, line if line is not None else self.text.first_line
        )

    def has(self, field: str) -> bool:
        return field in self.table

    def string(self, field: str, required: bool = True) -> str | None:
        value = self.table.get(field)
        if value is None and not required:
            return None
        if not isinstance(value, str):
            raise self.fail(field, "missing" if value is None else f"must be a string, not {value!r}")
        return value

    def number(self, field: str, required: bool) -> Number:
        value = self.table.get(field)
        if value is None:
            if required:
                raise self.fail(field, "missing: this variant needs it")
            return 0
        return self._number(field, value, allow_negative=False)

    def numbers(self, field: str, count: int | None, allow_negative: bool = False) -> list[Number]:
        value = self.table.get(field)
        if not isinstance(value, list):
            raise self.fail(field, "missing" if value is None else f"must be an array, not {value!r}")
        if count is not None and len(value) != count:
            raise self.fail(field, f"has {len(value)} entries for {count} players")
        # whole non-negative numbers, as nearly every array is: checked in one pass, not one call each (issue 17)
        for item in value:
            if type(item) is not int or (item < 0 and not allow_negative):
                break
        else:
            return list(value)
        return [self._number(field, item, allow_negative) for item in value]

    def _number(self, field: str, value: object, allow_negative: bool) -> Number:
        if isinstance(value, bool) or not isinstance(value, int | Decimal):
            raise self.fail(field, f"{value!r} is not a number")
        if isinstance(value, Decimal) and value.is_nan():
            raise self.fail(field, "NaN is not an amount")
        if value < 0 and not allow_negative:
            raise self.fail(field, f"{value} is negative")
        return value


def read_hand(table: dict[str, object], file: str, index: int, text: HandText) -> PhhHand:
    reader = _Reader(table, file, index, text)
    variant = reader.string("variant")
    assert variant is not None
    if variant not in VARIANT_FIELDS:
        raise reader.fail("variant", f"{variant!r} is not a PHH variant ({', '.join(VARIANT_FIELDS)})")
    needed = VARIANT_FIELDS[variant]
    stacks = reader.numbers("starting_stacks", None)
    count = len(stacks)
    if count < 2:
        raise reader.fail("starting_stacks", "a hand needs at least two players")
    if any(stack == 0 for stack in stacks):
        raise reader.fail("starting_stacks", "every stack must be positive")
    players = _players(reader, count)
    antes = reader.numbers("antes", count)
    blinds = (
        reader.numbers("blinds_or_straddles", count, allow_negative=True)
        if "blinds_or_straddles" in needed
        else []
    )
    if variant in STUD_VARIANTS and reader.has("blinds_or_straddles"):
        raise reader.fail("blinds_or_straddles", f"{variant} is a stud game: it has a bring-in, not blinds")
    sizes = {
        name: reader.number(name, name in needed) for name in ("bring_in", "small_bet", "big_bet", "min_bet")
    }
    actions = _actions(reader, count, variant)
    scale = _scale(
        reader, [*stacks, *antes, *blinds, *sizes.values(), *(a.amount for a in actions if a.amount)]
    )

    def chips(value: Number) -> int:
        return int(value * scale)

    return PhhHand(
        file=file,
        index=index,
        line=text.first_line,
        variant=variant,
        players=players,
        seats=_seats(reader, count),
        scale=scale,
        starting_stacks=tuple(UNKNOWN_STACK if _infinite(s) else chips(s) for s in stacks),
        unknown_stacks=frozenset(i for i, s in enumerate(stacks, start=1) if _infinite(s)),
        antes=tuple(map(chips, antes)),
        blinds_or_straddles=tuple(map(chips, blinds)),
        bring_in=chips(sizes["bring_in"]),
        small_bet=chips(sizes["small_bet"]),
        big_bet=chips(sizes["big_bet"]),
        min_bet=chips(sizes["min_bet"]),
        ante_trimming_status=_flag(reader, "ante_trimming_status"),
        actions=tuple(actions),
        finishing_stacks=_outcome(reader, "finishing_stacks", count),
        winnings=_outcome(reader, "winnings", count),
        table=reader.string("table", required=False),
        hand_number=_hand_number(reader),
        event=reader.string("event", required=False),
        played_on=_played_on(reader),
    )


def _players(reader: _Reader, count: int) -> tuple[str, ...]:
    value = reader.table.get("players")
    if value is None:
        return tuple(f"p{i}" for i in range(1, count + 1))
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise reader.fail("players", "must be an array of names")
    if len(value) != count:
        raise reader.fail("players", f"names {len(value)} players but starting_stacks has {count}")
    return tuple(value)


def _seats(reader: _Reader, count: int) -> tuple[int, ...]:
    value = reader.table.get("seats")
    if value is None:
        return tuple(range(1, count + 1))
    if not isinstance(value, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in value):
        raise reader.fail("seats", "must be an array of seat numbers")
    if len(value) != count:
        raise reader.fail("seats", f"has {len(value)} entries for {count} players")
    if len(set(value)) != count or min(value) < 1:
        raise reader.fail("seats", f"{value} are not distinct seat numbers from 1")
    return tuple(value)


def _actions(reader: _Reader, count: int, variant: str) -> list[PhhAction]:
    value = reader.table.get("actions")
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        raise reader.fail("actions", "missing" if value is None else "must be an array of strings")
    lines = reader.text.action_lines(value)
    parsed = []
    for text, line in zip(value, lines, strict=True):
        try:
            action = parse_action(text, count, line)
        except ActionSyntaxError as error:
            raise reader.fail("actions", str(error), line) from None
        if action is None:
            continue
        if variant in SHORT_DECK_VARIANTS and any(c is not None and c.rank < 6 for c in action.cards or ()):
            raise reader.fail("actions", f"{text!r}: the short deck has no card below a six", line)
        parsed.append(action)
    return parsed


def _scale(reader: _Reader, amounts: list[Number]) -> int:
    places = 0
    for amount in amounts:
        # a whole amount sets no place (its normal form's exponent is not negative): asked first, in C, as most
        # are whole (bets in chips), where the exponent is read through a named tuple made in Python
        if isinstance(amount, Decimal) and amount.is_finite() and amount != amount.to_integral_value():
            places = max(places, -min(0, int(amount.normalize().as_tuple().exponent)))
    if places > MAX_DECIMAL_PLACES:
        raise reader.fail(None, f"amounts with {places} decimal places: no chip is that small")
    return int(10**places)


def _outcome(reader: _Reader, field: str, count: int) -> tuple[Decimal, ...] | None:
    if not reader.has(field):
        return None
    return tuple(Decimal(v) for v in reader.numbers(field, count))


def _flag(reader: _Reader, field: str) -> bool:
    value = reader.table.get(field, False)
    if not isinstance(value, bool):
        raise reader.fail(field, f"must be true or false, not {value!r}")
    return value


def _hand_number(reader: _Reader) -> int | None:
    value = reader.table.get("hand")
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _played_on(reader: _Reader) -> str | None:
    """``year``, ``month`` and ``day`` as an ISO date, when all three are there and make one."""
    parts = [reader.table.get(field) for field in ("year", "month", "day")]
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in parts):
        return None
    try:
        return date(*parts).isoformat()  # type: ignore[arg-type]
    except ValueError:
        return None


def _infinite(value: Number) -> bool:
    return isinstance(value, Decimal) and value.is_infinite()


__all__ = ["SHORT_DECK_VARIANTS", "STUD_VARIANTS", "VARIANT_FIELDS", "read_hand"]
