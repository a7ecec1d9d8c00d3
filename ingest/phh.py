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

import errno
import os
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
    "phh_file_names",
    "phh_files",
    "read_named",
]

PHH_SUFFIXES = (".phh", ".phhs")
#: what pathlib's folder walk treats as "not there" rather than an error
_IGNORED_ERRNOS = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)


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
    return _load(str(path), missing=False)


def read_named(name: str) -> list[PhhHand]:
    """The hands of the file named ``name`` (``str`` of its path, as :func:`phh_file_names` lists it); a file
    that is not there is "no such file or folder", as :func:`load_hands` says, one that cannot be read is "cannot
    read: ...". What validate calls once a file: no ``Path``, and no look for the file before it is opened."""
    return _load(name, missing=True)


def _load(name: str, missing: bool) -> list[PhhHand]:
    try:
        text = _text_of(name)
    except (OSError, UnicodeDecodeError) as error:
        if missing and getattr(error, "errno", None) in _IGNORED_ERRNOS:  # where Path.exists() says False
            raise PhhError("no such file or folder", name) from None
        raise PhhError(f"cannot read: {error}", name) from None
    except ValueError:  # a name with a NUL: no file has it (Path.exists() says False)
        if missing:
            raise PhhError("no such file or folder", name) from None
        raise
    base = name.rpartition("/")[2]
    dot = base.rfind(".")
    return loads(text, name, many=0 < dot < len(base) - 1 and base[dot:] == ".phhs")  # Path.suffix's rule


def _text_of(name: str) -> str:
    """What ``open(name, encoding="utf-8").read()`` returns (universal newlines), read with the two or three system
    calls it takes rather than the text stack's (the open's checks, a buffer, a decoder): a quarter of the time
    on the small files validate reads by the thousand (issue 17). Whatever goes wrong is read again that way, so
    its error is the one ``open`` gives."""
    try:
        chunks = []
        descriptor = os.open(name, os.O_RDONLY)
        try:
            while chunk := os.read(descriptor, 1 << 16):
                chunks.append(chunk)
        finally:
            os.close(descriptor)
        text = b"".join(chunks).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        with open(name, encoding="utf-8") as file:
            return file.read()
    if "\r" in text:  # text mode's newline translation: CRLF and a lone CR are line ends
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def phh_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files as given, folders recursively (``*.phh``, ``*.phhs``) in sorted order."""
    return map(Path, phh_file_names(paths))


def phh_file_names(paths: Iterable[str | Path]) -> list[str]:
    """:func:`phh_files` as the strings a report names them by (``str`` of each path), listed without a
    ``Path`` per folder entry: what a folder holds is read with ``os.scandir``, whose entries know whether they
    are files or folders, and only the PHH files' names are joined — a third of the time ``rglob`` took on the
    2,000 shared Pluribus files, which validate lists before any hand is read (issue 17). The same files in the
    same order as ``sorted(folder.rglob("*"))`` keeping the PHH files: hidden ones included, folders linked to
    not followed, a folder that may not be read skipped, sorted part by part as paths compare."""
    names: list[str] = []
    for path in map(Path, paths):
        if not path.is_dir():
            names.append(str(path))
            continue
        base = str(path)
        prefix = "" if base == "." else base if base.endswith("/") else base + "/"
        found: list[tuple[str, ...]] = []
        _collect(path, (), found)
        found.sort()
        names.extend(prefix + "/".join(parts) for parts in found)
    return names


def _collect(folder: Path, parts: tuple[str, ...], found: list[tuple[str, ...]]) -> None:
    """The PHH files under ``folder`` (``parts`` below the folder listed), as their parts, into ``found``."""
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except PermissionError:  # as rglob: a folder that may not be read is passed over
        return
    for entry in entries:
        name = entry.name
        dot = name.rfind(".")
        phh = 0 < dot < len(name) - 1 and name[dot:] in PHH_SUFFIXES  # Path.suffix's rule
        # a plain entry knows its kind; a link's target is asked as Path.is_file asks it (its errors alike)
        if phh and (entry.is_file() if not entry.is_symlink() else Path(entry.path).is_file()):
            found.append((*parts, name))
            continue
        try:
            below = entry.is_dir(follow_symlinks=False)
        except OSError as error:
            if error.errno not in _IGNORED_ERRNOS:
                raise
            below = False
        if below:
            _collect(folder / name, (*parts, name), found)


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
