"""One door for every hand-history format: which format a file is (:func:`detect`), and its hands as the same
event sequences the PHH path yields (:func:`read_hands`), ready for :func:`ingest.publish.hand_records`.

A file is PHH by its suffix (``.phh``, ``.phhs``), OHH by its suffix (``.ohh``, ``.json``) or by starting with a
JSON value holding ``"ohh"``, PokerStars by its first line (``PokerStars Hand #…``). Folders are read
recursively, in sorted order, taking the files of the formats asked for.

A hand that cannot be read is an :class:`~ingest.phh_validate.UnreadableReport` (file, hand, line, field, what
is wrong) in the stream, and the others are still read. PHH reads a file whole, so a PHH syntax error makes
the file one report; OHH and PokerStars files report hand by hand. A hand whose record breaks the rules is
read up to and including the act the rules refuse, which the referee then records as a rejection citing the
rule (the acts after it cannot be read: a PHH ``cc`` is a check or a call only against a legal state).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from domain.errors import HandError
from domain.hand.events import HandStarted, RawActReported, ReportedEvent
from domain.hand.raw_acts import InterpretedAct
from domain.hand.state import HandState
from domain.rulebooks import get_rulebook
from ingest import ohh, pokerstars
from ingest.phh import PHH_SUFFIXES, PhhError, PhhHand, load_file
from ingest.phh_events import hand_events
from ingest.phh_tables import SeatedHand, seat_hands
from ingest.phh_validate import UnreadableReport, unreadable

__all__ = [
    "FORMATS",
    "Format",
    "FormatError",
    "ImportedHand",
    "as_played",
    "detect",
    "read_hands",
    "recorded",
    "source_files",
]

Format = Literal["phh", "ohh", "pokerstars"]
FORMATS: tuple[Format, ...] = ("phh", "ohh", "pokerstars")
OHH_SUFFIXES = (".ohh", ".json")
TEXT_SUFFIXES = (".txt",)
_SNIFF = 4096


class FormatError(ValueError):
    """A file whose format is none we read."""

    def __init__(self, file: str, reason: str) -> None:
        self.file = file
        self.reason = reason
        super().__init__(f"{file}: {reason}")


@dataclass(frozen=True, slots=True)
class ImportedHand:
    """One hand's events (``HandStarted`` first) and where it came from. ``table_id`` and ``hand_number``,
    when set, re-seat the hand when it is published (PHH hands are named by their file, as
    ``pokeraudit publish`` names them); otherwise the hand's own table and number stand."""

    format: Format
    file: str
    index: int
    events: tuple[ReportedEvent, ...]
    table_id: str | None = None
    hand_number: int | None = None


def detect(path: Path) -> Format:
    """The format of one file, by its suffix or else its first bytes; :class:`FormatError` if none fits."""
    suffix = path.suffix.lower()
    if suffix in PHH_SUFFIXES:
        return "phh"
    if suffix in OHH_SUFFIXES:
        return "ohh"
    try:
        with path.open(encoding="utf-8-sig", errors="replace") as file:
            head = file.read(_SNIFF)
    except OSError as error:
        raise FormatError(str(path), f"cannot read: {error}") from None
    if pokerstars.is_pokerstars(head):
        return "pokerstars"
    if head.lstrip()[:1] in ("{", "[") and '"ohh"' in head:
        return "ohh"
    if "variant" in head and "actions" in head:
        return "phh"
    raise FormatError(
        str(path), "not a hand history we read: PHH (.phh, .phhs), OHH (.ohh, .json) or PokerStars text"
    )


def source_files(paths: Iterable[str | Path], format: Format | Literal["auto"] = "auto") -> Iterator[Path]:
    """Files as given; folders recursively in sorted order, keeping the suffixes of ``format``."""
    suffixes = {
        "phh": PHH_SUFFIXES,
        "ohh": OHH_SUFFIXES,
        "pokerstars": TEXT_SUFFIXES,
        "auto": PHH_SUFFIXES + OHH_SUFFIXES + TEXT_SUFFIXES,
    }[format]
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix.lower() in suffixes and p.is_file())
        else:
            yield path


def read_hands(
    paths: Sequence[str | Path], format: Format | Literal["auto"] = "auto"
) -> Iterator[ImportedHand | UnreadableReport]:
    """Every hand under ``paths`` in order, or the report of what could not be read."""
    files = list(source_files(paths, format))
    tables = _PhhTables([f for f in files if f.suffix in PHH_SUFFIXES and f.exists()])
    for file in files:
        if not file.exists():
            yield UnreadableReport(file=str(file), hand=None, field=None, line=None, error="no such file or folder")
            continue
        try:
            kind = detect(file) if format == "auto" else format
        except FormatError as error:
            yield UnreadableReport(file=error.file, hand=None, field=None, line=None, error=error.reason)
            continue
        if kind == "phh":
            yield from _phh(file, tables)
        elif kind == "ohh":
            yield from _ohh(file)
        else:
            yield from _pokerstars(file)


def as_played(events: Sequence[ReportedEvent]) -> list[ReportedEvent]:
    """A stored hand's reported events with each raw act replaced by the action the rulebook read it as.

    Hand-history formats know interpreted actions only (DESIGN decision 4): a raw act (the words said, the
    chips pushed) becomes the ``PlayerActed`` the engine read from it, placed where the reading took effect
    (an out-of-turn act binds when the seat's turn comes). A raw act that only obliged the seat or asked for
    a ruling leaves nothing: the action that met it is reported in its own right.
    """
    start = events[0]
    assert isinstance(start, HandStarted), "a hand's first event is HandStarted"
    state = HandState.start(start, get_rulebook(start.rulebook))
    played: list[ReportedEvent] = [start]
    for event in events[1:]:
        state.apply(event)
        if not isinstance(event, RawActReported):
            played.append(event)
        played.extend(r.event for r in state.readings if isinstance(r, InterpretedAct))
    return played


def recorded(events: Iterable[ReportedEvent]) -> tuple[ReportedEvent, ...]:
    """A PHH hand's events up to and including the first one the rules refuse (see the module's note)."""
    kept: list[ReportedEvent] = []
    with contextlib.suppress(HandError):
        kept.extend(events)
    return tuple(kept)


class _PhhTables:
    """The PHH files' hands, read once, each placed at its table (:mod:`ingest.phh_tables`: PHH ``table``, one
    event's day, or one folder, in hand order), as ``pokeraudit publish`` places them."""

    def __init__(self, files: list[Path]) -> None:
        self.loaded: dict[Path, list[PhhHand] | PhhError] = {}
        for file in files:
            try:
                self.loaded[file] = load_file(file)
            except PhhError as error:
                self.loaded[file] = error
        hands = [hand for loaded in self.loaded.values() if not isinstance(loaded, PhhError) for hand in loaded]
        self.seats = {(at.hand.file, at.hand.index): at for at in seat_hands(hands)}

    def hands(self, file: Path) -> list[SeatedHand] | PhhError:
        loaded = self.loaded[file] if file in self.loaded else _loaded(file)
        if isinstance(loaded, PhhError):
            return loaded
        return [self.seats.get((h.file, h.index)) or SeatedHand(h, f"{Path(h.file).stem}#{h.index}", 1) for h in loaded]


def _loaded(file: Path) -> list[PhhHand] | PhhError:
    try:
        return load_file(file)
    except PhhError as error:
        return error


def _phh(file: Path, tables: _PhhTables) -> Iterator[ImportedHand | UnreadableReport]:
    hands = tables.hands(file)
    if isinstance(hands, PhhError):
        yield unreadable(hands)
        return
    for at in hands:
        yield ImportedHand("phh", at.hand.file, at.hand.index, recorded(hand_events(at.hand)), at.table_id, at.hand_number)


def _ohh(file: Path) -> Iterator[ImportedHand | UnreadableReport]:
    for hand in ohh.load_file(file):
        if isinstance(hand, ohh.OhhError):
            yield UnreadableReport(file=hand.file, hand=hand.hand, field=hand.path, line=hand.line, error=hand.reason)
        else:
            yield ImportedHand("ohh", hand.file, hand.index, hand.events)


def _pokerstars(file: Path) -> Iterator[ImportedHand | UnreadableReport]:
    for hand in pokerstars.load_file(file):
        if isinstance(hand, pokerstars.PokerStarsError):
            yield UnreadableReport(file=hand.file, hand=hand.hand, field=hand.field, line=hand.line, error=hand.reason)
        else:
            yield ImportedHand("pokerstars", hand.file, hand.index, hand.events)
