"""A table view of a page: the same rows rendered as an HTML table or exported as CSV (``?format=csv``).

Every table a page shows is a :class:`Grid`, so every one can be exported with exactly what the reader saw
(the API's sealing included: the rows come from its answers).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Cell:
    """A value, with the page it links to (a hand in the replayer, a protest) when there is one."""

    text: str
    href: str | None = None
    css: str = ""


@dataclass(slots=True)
class Grid:
    name: str
    caption: str
    columns: Sequence[str]
    rows: list[list[Cell]] = field(default_factory=list)

    def add(self, *values: Any) -> None:
        self.rows.append([v if isinstance(v, Cell) else Cell(_text(v)) for v in values])

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(self.columns)
        for row in self.rows:
            writer.writerow([_formula_safe(c.text) for c in row])
        return out.getvalue()


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value}"
    if isinstance(value, list | tuple):
        return " ".join(_text(v) for v in value)
    return str(value)


def _formula_safe(text: str) -> str:
    # A spreadsheet runs a cell beginning with =, +, - or @ as a formula: a player's name or an official's
    # finding must not become one in the federation's spreadsheet (CSV injection).
    if text[:1] in ("=", "+", "@") or (text[:1] == "-" and not _number(text)):
        return "'" + text
    return text


def _number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False
