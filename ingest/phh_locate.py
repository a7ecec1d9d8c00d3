"""Line numbers for PHH errors: ``tomllib`` gives values, not positions, so we find them in the text.

A ``.phhs`` file is split at its table headers (``[1]``, ``[2]``, …); within a hand, a field is the line that
assigns it and an action is the next line (from the previous action on) that holds its quoted string.
"""

from __future__ import annotations

import re

_TABLE = re.compile(r"""^\s*\[\s*(?:"([^"]*)"|'([^']*)'|([^\]\s]+))\s*\]\s*(?:#.*)?$""")


class HandText:
    """The lines of one hand (a whole ``.phh`` file, or one table of a ``.phhs`` file)."""

    def __init__(self, lines: list[str], first_line: int) -> None:
        self.lines = lines
        self.first_line = first_line

    def field_line(self, name: str) -> int | None:
        pattern = re.compile(rf"""^\s*(?:{re.escape(name)}|"{re.escape(name)}"|'{re.escape(name)}')\s*=""")
        for offset, line in enumerate(self.lines):
            if pattern.match(line):
                return self.first_line + offset
        return None

    def action_lines(self, actions: list[str]) -> list[int | None]:
        """The line of each action, searched in order so repeated actions ('p1 cc') land on their own line."""
        start = self.field_line("actions")
        row = (start - self.first_line) if start is not None else 0
        column = 0
        found: list[int | None] = []
        for action in actions:
            hit = self._find_quoted(action, row, column)
            if hit is None:
                found.append(None)
                continue
            row, column = hit
            found.append(self.first_line + row)
        return found

    def _find_quoted(self, action: str, row: int, column: int) -> tuple[int, int] | None:
        needles = (f"'{action}'", f'"{action}"')
        for r in range(row, len(self.lines)):
            line = self.lines[r]
            positions = [line.find(n, column if r == row else 0) for n in needles]
            hits = [p for p in positions if p >= 0]
            if hits:
                return r, min(hits) + len(action) + 2
        return None


def whole_file(text: str) -> HandText:
    return HandText(text.splitlines(), 1)


def tables(text: str) -> dict[str, HandText]:
    """Each top-level table of a ``.phhs`` file by its name, with its own lines."""
    lines = text.splitlines()
    starts: list[tuple[str, int]] = []
    for number, line in enumerate(lines):
        match = _TABLE.match(line)
        if match:
            starts.append((next(g for g in match.groups() if g is not None), number))
    found: dict[str, HandText] = {}
    for i, (name, start) in enumerate(starts):
        end = starts[i + 1][1] if i + 1 < len(starts) else len(lines)
        found[name] = HandText(lines[start:end], start + 1)
    return found
