"""What ``pokeraudit validate`` reports of a PHH hand, as plain values whose JSON is written by hand.

The reports' schema is the pydantic models of ingest/phh_report_model.py (the API's view of a report). Validating
a folder of hands does not need pydantic: importing it and building the models was about a third of the
command's start-up, which a user waits for before the first hand (issue 17). So the reports are plain slotted
values, and ``to_json`` writes exactly the bytes pydantic's ``model_dump_json`` writes of the same values — keys
in the models' order, no spaces, text unescaped but for JSON's own escapes. Where the two could differ (a float
pydantic writes in its own notation, a non-finite one, text that cannot be UTF-8), the pydantic model writes
it: one JSON for a report, whichever writes it (tests/unit/test_phh_report.py on every shared hand).
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from json.encoder import encode_basestring
from typing import Any, ClassVar

Amount = int | float

#: below this magnitude Python writes a float as ``1e-05`` and pydantic as ``0.00001``: pydantic's to write
SMALLEST_PLAIN_FLOAT = 1e-4


class Unusual(Exception):
    """A value whose JSON only pydantic's serializer is sure to write as pydantic writes it."""


class Report(metaclass=ABCMeta):
    """A report's fields are its ``__slots__``, in the order its JSON writes them; equal reports have equal
    fields, as pydantic's models."""

    __slots__: ClassVar[tuple[str, ...]] = ()

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and all(
            getattr(self, name) == getattr(other, name) for name in self.__slots__
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, like the pydantic models it stands for

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def fields(self) -> dict[str, Any]:
        """The fields by name, nested reports as dictionaries (what pydantic's ``model_dump`` gives)."""
        return {name: _plain(getattr(self, name)) for name in self.__slots__}

    def to_json(self) -> str:
        """The report as one line of JSON, byte for byte what the pydantic model of it writes."""
        try:
            return self._json()
        except Unusual:
            from ingest.phh_report_model import model_of

            return model_of(self).model_dump_json()

    @abstractmethod
    def _json(self) -> str:
        """The report's own fields as JSON; raises :class:`Unusual` for a value only pydantic writes right."""


class RejectionReport(Report):
    __slots__ = ("event_index", "event", "rule", "message", "action", "line")

    def __init__(
        self, *, event_index: int, event: str, rule: str, message: str, action: str = "", line: int | None = None
    ) -> None:
        self.event_index = event_index
        self.event = event
        self.rule = rule
        self.message = message
        #: the PHH action the refused event came from, and its line ("" / None for the hand's fields)
        self.action = action
        self.line = line

    def _json(self) -> str:
        return (
            f'{{"event_index":{_int(self.event_index)},"event":{_text(self.event)},"rule":{_text(self.rule)},'
            f'"message":{_text(self.message)},"action":{_text(self.action)},"line":{_optional_int(self.line)}}}'
        )


class ShareReport(Report):
    __slots__ = ("player", "amount")

    def __init__(self, *, player: str, amount: Amount) -> None:
        self.player = player
        self.amount = amount

    def _json(self) -> str:
        return f'{{"player":{_text(self.player)},"amount":{_amount(self.amount)}}}'


class PotReport(Report):
    __slots__ = ("amount", "eligible", "winners", "half", "winning_hand", "odd_chip")

    def __init__(
        self,
        *,
        amount: Amount,
        eligible: list[str],
        winners: list[ShareReport],
        half: str = "",
        winning_hand: str = "",
        odd_chip: str = "",
    ) -> None:
        self.amount = amount
        self.eligible = eligible
        self.winners = winners
        self.half = half
        self.winning_hand = winning_hand
        self.odd_chip = odd_chip

    def _json(self) -> str:
        return (
            f'{{"amount":{_amount(self.amount)},"eligible":{_texts(self.eligible)},'
            f'"winners":[{",".join(w._json() for w in self.winners)}],"half":{_text(self.half)},'
            f'"winning_hand":{_text(self.winning_hand)},"odd_chip":{_text(self.odd_chip)}}}'
        )


class DifferenceReport(Report):
    __slots__ = ("player", "ours", "record", "explanation")

    def __init__(self, *, player: str, ours: Amount | None, record: Amount, explanation: str) -> None:
        self.player = player
        self.ours = ours
        self.record = record
        self.explanation = explanation

    def _json(self) -> str:
        return (
            f'{{"player":{_text(self.player)},"ours":{_optional_amount(self.ours)},'
            f'"record":{_amount(self.record)},"explanation":{_text(self.explanation)}}}'
        )


class HandReport(Report):
    __slots__ = (
        "file", "hand", "line", "variant", "scale", "players", "ok", "complete", "undetermined", "rejection",
        "finishing_stacks", "pots", "showdown_order", "expected_finishing_stacks", "matches", "differences",
    )

    def __init__(
        self,
        *,
        file: str,
        hand: int,
        line: int | None,
        variant: str,
        scale: int,
        players: list[str],
        ok: bool,
        complete: bool,
        undetermined: bool,
        rejection: RejectionReport | None = None,
        finishing_stacks: list[Amount | None],
        pots: list[PotReport],
        showdown_order: list[str],
        expected_finishing_stacks: list[Amount] | None = None,
        matches: bool | None = None,
        differences: list[DifferenceReport] | None = None,
    ) -> None:
        self.file = file
        self.hand = hand
        self.line = line
        self.variant = variant
        #: chips per unit of the file: amounts in the engine's messages are in chips, the rest in the file's units
        self.scale = scale
        self.players = players
        self.ok = ok
        self.complete = complete
        self.undetermined = undetermined
        self.rejection = rejection
        #: in the file's player order and units; ``None`` for a stack the file does not know (``inf``)
        self.finishing_stacks = finishing_stacks
        self.pots = pots
        self.showdown_order = showdown_order
        self.expected_finishing_stacks = expected_finishing_stacks
        self.matches = matches
        self.differences = [] if differences is None else differences

    def _json(self) -> str:
        expected = self.expected_finishing_stacks
        return (
            f'{{"file":{_text(self.file)},"hand":{_int(self.hand)},"line":{_optional_int(self.line)},'
            f'"variant":{_text(self.variant)},"scale":{_int(self.scale)},"players":{_texts(self.players)},'
            f'"ok":{_bool(self.ok)},"complete":{_bool(self.complete)},"undetermined":{_bool(self.undetermined)},'
            f'"rejection":{"null" if self.rejection is None else self.rejection._json()},'
            f'"finishing_stacks":[{",".join(map(_optional_amount, self.finishing_stacks))}],'
            f'"pots":[{",".join(pot._json() for pot in self.pots)}],'
            f'"showdown_order":{_texts(self.showdown_order)},'
            f'"expected_finishing_stacks":{"null" if expected is None else _amounts(expected)},'
            f'"matches":{"null" if self.matches is None else _bool(self.matches)},'
            f'"differences":[{",".join(d._json() for d in self.differences)}]}}'
        )


class UnreadableReport(Report):
    __slots__ = ("file", "hand", "field", "line", "error")

    def __init__(self, *, file: str, hand: int | None, field: str | None, line: int | None, error: str) -> None:
        self.file = file
        self.hand = hand
        self.field = field
        self.line = line
        self.error = error

    def _json(self) -> str:
        return (
            f'{{"file":{_text(self.file)},"hand":{_optional_int(self.hand)},'
            f'"field":{"null" if self.field is None else _text(self.field)},"line":{_optional_int(self.line)},'
            f'"error":{_text(self.error)}}}'
        )


def _plain(value: Any) -> Any:
    if isinstance(value, Report):
        return value.fields()
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _text(value: str) -> str:
    # pydantic escapes what JSON must (quotes, backslashes, control characters) and writes the rest as UTF-8,
    # as the standard library's encoder without ensure_ascii; text with a lone surrogate (a file name that is
    # not UTF-8) it refuses to write, so it is pydantic's to refuse
    if type(value) is not str:
        raise Unusual
    if not value.isascii():
        try:
            value.encode()
        except UnicodeEncodeError:
            raise Unusual from None
    return encode_basestring(value)


def _texts(values: list[str]) -> str:
    return f"[{','.join(map(_text, values))}]"


def _int(value: int) -> str:
    if type(value) is not int:  # a bool (or an int's subclass) pydantic writes as it converts it
        raise Unusual
    return str(value)


def _optional_int(value: int | None) -> str:
    return "null" if value is None else _int(value)


def _bool(value: bool) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    raise Unusual


def _amount(value: Amount) -> str:
    kind = type(value)
    if kind is int:
        return str(value)
    # Python's shortest repr, as pydantic writes it, from 1e-4 up; below that pydantic writes positional
    # digits, and infinities and NaN as null (inf - inf is NaN, so the test also refuses them)
    if kind is float and (value == 0 or abs(value) >= SMALLEST_PLAIN_FLOAT) and value - value == 0:
        return repr(value)
    raise Unusual


def _optional_amount(value: Amount | None) -> str:
    return "null" if value is None else _amount(value)


def _amounts(values: list[Amount]) -> str:
    return f"[{','.join(map(_amount, values))}]"
