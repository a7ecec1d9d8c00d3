"""Read PHH hand histories (uoftcprg/phh-std): ``.phh`` files (one hand), ``.phhs`` files (tables ``[1]``,
``[2]``, …) and folders of them, recursively and in sorted order, into :class:`PhhHand` values.

Amounts: PHH writes chips as integers or decimals (online cash: ``0.25``, ``11.51``). A hand is scaled to
integer chips by the smallest power of ten that makes every amount that drives play whole (forced bets, bet
sizes, known starting stacks, ``cbr`` amounts); ``PhhHand.scale`` records it and :meth:`PhhHand.in_file_units`
converts back. The recorded outcome (``finishing_stacks``, ``winnings``) is kept in the file's units and never
sets the scale: a record that splits a pot into half chips must not make half chips legal.

Unknown stacks (``inf``, as iPoker logs them) become :data:`UNKNOWN_STACK` chips and are listed in
``PhhHand.unknown_stacks``; their finishing stacks are not compared.

Every problem is a :class:`PhhError` naming the file, the hand, the field and, where it can be found, the line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from decimal import Decimal
from pathlib import Path

from ingest.phh_fast import OneLineActions, plain_document
from ingest.phh_fields import read_hand
from ingest.phh_locate import HandText, tables, whole_file
from ingest.phh_model import UNKNOWN_STACK, PhhError, PhhHand

__all__ = [
    "PHH_SUFFIXES",
    "UNKNOWN_STACK",
    "PhhError",
    "PhhHand",
    "load_file",
    "load_hands",
    "loads",
    "phh_files",
]

PHH_SUFFIXES = (".phh", ".phhs")


def loads(text: str, file: str = "<string>", many: bool = False) -> list[PhhHand]:
    """The hands in one file's text (``many``: a ``.phhs`` file)."""
    plain = None if many else plain_document(text)
    if plain is not None:  # the shape nearly every .phh file has: read without tomllib, to the same values
        document, actions_line = plain
        return [read_hand(document, file, 1, OneLineActions(text.splitlines(), 1, actions_line))]
    import tomllib  # here, not above: most runs never need it, and validate's start-up is measured (issue 17)

    try:
        document = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not TOML: {error}", file, line=_toml_line(str(error))) from None
    if not many:
        return [read_hand(document, file, 1, whole_file(text))]
    located = tables(text)
    hands = []
    for index, (name, table) in enumerate(document.items(), start=1):
        hand_text = located.get(name, HandText([], 1))
        if not isinstance(table, dict):
            raise PhhError(
                f"{name!r} is not a table of one hand", file, index, line=hand_text.field_line(name)
            )
        hands.append(read_hand(table, file, index, hand_text))
    return hands


def load_file(path: Path) -> list[PhhHand]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PhhError(f"cannot read: {error}", str(path)) from None
    return loads(text, str(path), many=path.suffix == ".phhs")


def phh_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files as given, folders recursively (``*.phh``, ``*.phhs``) in sorted order."""
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in PHH_SUFFIXES and p.is_file())
        else:
            yield path


def load_hands(paths: Iterable[str | Path]) -> Iterator[PhhHand]:
    """Every hand under ``paths``: files as given, folders recursively (``*.phh``, ``*.phhs``, sorted)."""
    for file in phh_files(paths):
        if not file.exists():
            raise PhhError("no such file or folder", str(file))
        yield from load_file(file)


def _toml_line(message: str) -> int | None:
    marker = "(at line "
    if marker not in message:
        return None
    number = message.split(marker, 1)[1].split(",", 1)[0].rstrip(")")
    return int(number) if number.isdigit() else None
