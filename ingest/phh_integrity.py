"""Hand-history files read for integrity: PHH hands that name their ``players``, as :class:`HandRecord` values.

Integrity scores tens of thousands of hands at a time, so the files are read with a line reader for the
one-line ``key = value`` form PHH writers use (values are TOML's JSON-like scalars and arrays); a file in any
other TOML form is read by the full PHH reader. A hand's result comes from its ``finishing_stacks``; a hand
without them is replayed through the rules engine. User fields ``_session`` and ``_table`` are kept.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Iterator
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from domain.cards import Card, CardParseError, parse_cards
from domain.errors import HandError
from domain.hand.events import ActionKind
from domain.hand.replay import Replayer
from domain.integrity.record import Act, HandRecord, is_holdem, record_from_events
from domain.rulebooks import get_rulebook
from ingest.phh import PhhError, PhhHand, loads, phh_files
from ingest.phh_events import hand_events

__all__ = ["IntegrityReadError", "read_records"]


class IntegrityReadError(ValueError):
    """A file integrity cannot score: it names the file and what is missing."""


_VERBS = {"f": ActionKind.FOLD, "cc": ActionKind.CALL, "cbr": ActionKind.RAISE}
_STREET_OF_BOARD = {3: 1, 4: 2, 5: 3}
_DECIMALS = json.JSONDecoder(parse_float=Decimal)
_PLAIN = json.JSONDecoder()
_NUMERIC = ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks")
#: the fields :func:`_scale` reads amounts from
_AMOUNTS = frozenset({*_NUMERIC, "actions"})


def read_records(paths: Iterable[str | Path]) -> Iterator[HandRecord]:
    """Every hold'em hand under ``paths`` (files, folders recursively); a hand that does not name its players
    is an :class:`IntegrityReadError` naming the file."""
    for file in phh_files(paths):
        if not file.exists():
            raise IntegrityReadError(f"{file}: no such file or folder")
        yield from _read_file(file)


def _read_file(file: Path) -> Iterator[HandRecord]:
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise IntegrityReadError(f"{file}: cannot read: {error}") from None
    many = file.suffix == ".phhs"
    quick = _quick_tables(text, many)
    whole: list[bool] | None = None
    if quick is None:
        try:
            document = tomllib.loads(text, parse_float=Decimal)
        except tomllib.TOMLDecodeError as error:
            raise IntegrityReadError(f"{file}: not TOML: {error}") from None
        tables = [v for v in document.values() if isinstance(v, dict)] if many else [document]
    else:
        tables, whole = quick
    parsed: list[PhhHand] = []
    for number, fields in enumerate(tables, start=1):
        if not is_holdem(str(fields.get("variant", ""))):
            continue
        players = fields.get("players")
        if not isinstance(players, list) or not players:
            raise IntegrityReadError(
                f"{file}: hand {number} does not name its players (PHH field 'players'): integrity needs to "
                "know who played"
            )
        if fields.get("finishing_stacks") is None:
            if not parsed:
                parsed = _full(text, file)
            record = _replayed(parsed[number - 1], _hand_id(fields, file, number), fields)
        else:
            record = _record(fields, file, number, 1 if whole is not None and whole[number - 1] else None)
        if record is not None:
            yield record


def _quick_tables(text: str, many: bool) -> tuple[list[dict[str, Any]], list[bool]] | None:
    """The hands of a file written one ``key = value`` per line, and for each whether its amounts are all
    whole (no decimal point in its stacks, forced bets or actions: :func:`_scale` is then 1); None when the
    file needs the full reader."""
    tables: list[dict[str, Any]] = []
    whole: list[bool] = []
    current: dict[str, Any] = {}
    if not many:
        tables.append(current)
        whole.append(True)
    raw_decode = _PLAIN.raw_decode
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] == "#":
            continue
        if line[0] == "[":
            if not many or not line.endswith("]"):
                return None
            current = {}
            tables.append(current)
            whole.append(True)
            continue
        key, sep, value = line.partition(" = ")
        if not sep or not key.replace("_", "a").isalnum():
            return None
        if "inf" in value and key in _NUMERIC:
            value = value.replace("inf", "1e15")
        if "." in value:
            if key in _AMOUNTS and whole:
                whole[-1] = False
            if key != "actions":
                try:
                    current[key] = _DECIMALS.decode(value)
                except ValueError:
                    return None
                continue
        # what json.loads gives, the commonest forms taken without it: a plain string (no escapes, no control
        # characters), a whole number (no leading zero)
        first = value[:1]
        if first == '"' and value.count('"') == 2 and value[-1] == '"' and "\\" not in value and value.isprintable():
            current[key] = value[1:-1]
        elif first.isdigit() and value.isascii() and value.isdigit() and (first != "0" or len(value) == 1):
            current[key] = int(value)
        else:
            try:
                current[key], end = raw_decode(value)
            except ValueError:
                return None
            if end != len(value):
                return None
    return tables, whole


def _scale(fields: dict[str, Any]) -> int:
    """The power of ten that makes every amount whole (online cash writes cents as decimals)."""
    places = 0
    amounts: list[object] = []
    for name in ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks"):
        value = fields.get(name)
        if isinstance(value, list):
            amounts.extend(v for v in value if not isinstance(v, int))
    for action in fields.get("actions", []) or []:
        if "." in action:
            words = str(action).split("#", 1)[0].split()
            if len(words) == 3 and words[1] == "cbr":
                amounts.append(Decimal(words[2]))
    if not amounts:
        return 1
    for amount in amounts:
        if isinstance(amount, Decimal):
            exponent = amount.normalize().as_tuple().exponent
            if isinstance(exponent, int) and exponent < 0:
                places = max(places, -exponent)
    scale: int = 10**places
    return scale


def _chips(value: object, scale: int) -> int:
    if scale == 1 and isinstance(value, int):
        return int(value)
    return int(Decimal(str(value)) * scale) if value is not None else 0


@cache
def _cards(text: str) -> tuple[Card, ...]:
    known = [c for c in parse_cards(text) if c is not None]
    return tuple(known) if len(known) * 2 == len(text) else ()


def _table(fields: dict[str, Any]) -> str:
    return str(fields.get("_table", fields.get("table", "")) or "")


def _hand_id(fields: dict[str, Any], file: Path, number: int) -> str:
    table = _table(fields)
    return f"{table}#{fields['hand']}" if table and "hand" in fields else f"{file.name}#{number}"


def _record(fields: dict[str, Any], file: Path, number: int, scale: int | None = None) -> HandRecord:
    """The hand from its fields; ``scale``: :func:`_scale`'s answer when the caller knows it."""
    players = tuple(str(p) for p in fields["players"])
    count = len(players)
    table = _table(fields)
    hand_id = _hand_id(fields, file, number)
    if scale is None:
        scale = _scale(fields)
    stacks = [v if type(v) is int and scale == 1 else _chips(v, scale) for v in fields["starting_stacks"]]
    finishing = [v if type(v) is int and scale == 1 else _chips(v, scale) for v in fields["finishing_stacks"]]
    antes = [abs(_chips(v, scale)) for v in fields.get("antes", [0] * count)]
    blinds = [abs(_chips(v, scale)) for v in fields.get("blinds_or_straddles", [0] * count)]
    if not (len(stacks) == len(finishing) == len(antes) == len(blinds) == count):
        raise IntegrityReadError(f"{file}: hand {number}: players, stacks and forced bets differ in length")
    hole: list[tuple[Card, ...]] = [()] * count
    board: list[Card] = []
    acts: list[Act] = []
    folded = [False] * count
    street = 0
    try:
        for action in fields.get("actions", []) or []:
            action = str(action)
            words = (action.split("#", 1)[0] if "#" in action else action).split()
            if not words:
                continue
            if words[0] == "d":
                if words[1] == "db":
                    board.extend(_cards(words[2]))
                    street = _STREET_OF_BOARD.get(len(board), street)
                elif words[1] == "dh" and "?" not in words[3]:
                    hole[int(words[2][1:]) - 1] = _cards(words[3])
                continue
            player = int(words[0][1:]) - 1
            verb = words[1]
            kind = _VERBS.get(verb)
            if kind is not None:
                if kind is _FOLD:
                    folded[player] = True
                    acts.append(_act(Act, (street, player, kind, 0)))
                elif kind is _RAISE:
                    to = int(words[2]) if scale == 1 else _chips(Decimal(words[2]), scale)
                    acts.append(_act(Act, (street, player, kind, to)))
                else:
                    acts.append(_act(Act, (street, player, kind, 0)))
            elif verb == "sm" and len(words) > 2 and not hole[player] and "?" not in words[2] and words[2] != "-":
                hole[player] = _cards(words[2])
    except (IndexError, ValueError, CardParseError) as error:
        raise IntegrityReadError(f"{file}: hand {number}: an action is not PHH notation ({error})") from None
    left = [not f for f in folded]
    big_blind = max(blinds) or _chips(fields.get("min_bet", 1), scale) or 1
    return HandRecord(
        hand_id, players, big_blind, tuple(stacks), tuple(a + b for a, b in zip(antes, blinds, strict=True)),
        tuple(blinds), tuple(hole), tuple(board), tuple(acts),
        tuple(f - s for f, s in zip(finishing, stacks, strict=True)),
        tuple(sum(left) > 1 and x for x in left), str(fields.get("_session", "")), table,
    )


#: an Act made as the tuple it is (a named tuple's own constructor costs a Python call per act)
_act = tuple.__new__
_FOLD, _RAISE = ActionKind.FOLD, ActionKind.RAISE


def _full(text: str, file: Path) -> list[PhhHand]:
    try:
        return loads(text, str(file), many=file.suffix == ".phhs")
    except PhhError as error:
        raise IntegrityReadError(str(error)) from None


def _replayed(hand: PhhHand, hand_id: str, fields: dict[str, Any]) -> HandRecord | None:
    """A hand without finishing stacks: its result comes from the rules engine (None if it cannot end)."""
    replayer = Replayer(get_rulebook("bfsp"))
    events: list[object] = []
    try:
        for event in hand_events(hand):
            events.append(event)
            events.extend(replayer.apply(event))
    except (PhhError, HandError) as error:
        raise IntegrityReadError(f"{hand.file}: hand {hand.index}: {error}") from None
    return record_from_events(events, hand_id, str(fields.get("_session", "")), _table(fields))
