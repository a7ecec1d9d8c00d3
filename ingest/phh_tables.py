"""Which table an imported PHH hand was played at, and its number there.

A hand history names its table in one of three ways, tried in this order:

1. **``table``**: hands with the same ``table`` (and the same ``event``, when given) are one table;
2. **``event`` and the day** (``year``, ``month``, ``day``): the hands of one event on one day are one table
   when each has its own ``hand`` number (the WSOP final table of ``data/wsop/2023/43/5``: 83 hands, one table);
3. **a folder**: the hands of one folder, two or more, are one table when each has its own ``hand`` number
   (a Pluribus session, ``data/pluribus/100``).

At a table found so, a hand's number is its ``hand`` (when every hand has a distinct one; all moved up so the
first is at least 1, as ``data/pluribus/94`` counts from 0) or else its place in file order, and the hands are
published in that order. A hand none of these place is a table of its own,
named by its file's path below the folder all files share and its place in the file (``pluribus/100/11#1``),
its number 1. Names and numbers depend on the files only, so the event ids derived from them
(:func:`ingest.publish.event_id_for`) are the same each time: publishing twice stays harmless.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ingest.phh_model import PhhHand


@dataclass(frozen=True, slots=True)
class SeatedHand:
    """A hand with the table it was played at and its number there."""

    hand: PhhHand
    table_id: str
    hand_number: int


def seat_hands(hands: Sequence[PhhHand]) -> list[SeatedHand]:
    """Every hand placed at its table (the module's rules), table by table in order of first appearance, each
    table's hands in hand order."""
    resolved = [Path(h.file).resolve() for h in hands]
    common = Path(os.path.commonpath([f.parent for f in resolved])) if resolved else Path()

    def own_name(n: int) -> str:
        return f"{resolved[n].relative_to(common).with_suffix('').as_posix()}#{hands[n].index}"

    groups: dict[tuple[str, ...], list[int]] = {}
    for n, hand in enumerate(hands):
        groups.setdefault(_table_key(hand, resolved[n], common), []).append(n)
    seated: list[SeatedHand] = []
    for key, members in groups.items():
        numbers = [hands[n].hand_number for n in members]
        numbered = None not in numbers and len(set(numbers)) == len(numbers)
        if key[0] == "table" or (numbered and (key[0] == "event" or len(members) > 1)):
            if numbered:
                members = sorted(members, key=lambda n: hands[n].hand_number or 0)
            # a hand is numbered from 1: a table whose records count from 0 (pluribus/94) has them all moved up one
            shift = max(0, 1 - min(n or 0 for n in numbers)) if numbered else 0
            for place, n in enumerate(members, start=1):
                number = (hands[n].hand_number or 0) + shift if numbered else place
                seated.append(SeatedHand(hands[n], _table_name(key), number))
        else:
            seated.extend(SeatedHand(hands[n], own_name(n), 1) for n in members)
    return seated


def _table_key(hand: PhhHand, file: Path, common: Path) -> tuple[str, ...]:
    if hand.table is not None:
        return ("table", hand.event or "", hand.table)
    if hand.event is not None and hand.played_on is not None:
        return ("event", hand.event, hand.played_on)
    folder = file.parent.relative_to(common).as_posix()
    return ("folder", folder if folder != "." else file.parent.name)


def _table_name(key: tuple[str, ...]) -> str:
    kind, *parts = key
    if kind == "table":
        event, table = parts
        return f"{event} | table {table}" if event else table
    if kind == "event":
        event, day = parts
        return f"{event} ({day})"
    (folder,) = parts
    return folder
