"""A reader for the plain shape almost every PHH file has, ``tomllib`` for everything else.

Python's TOML parser reads a character at a time; for a ``.phh`` file it was a third of ``pokeraudit validate``'s
time (issue 17). Nearly every PHH file is written in one plain shape: each line blank, a comment, or
``key = value`` on one line, where the value is a string, an integer, a decimal, a boolean or a one-line array
of those. :func:`plain_document` reads that shape with one regular expression a line and says ``None`` for
anything else — a table header, a value over several lines, an escape, an exponent, a date, a repeated key, a
control character, an unusual line break — so the caller reads the file with ``tomllib`` exactly as before.
What it returns is what ``tomllib.loads(text, parse_float=Decimal)`` returns for the same text (the same keys,
values and types; ``tests/unit/test_phh_fast.py`` compares the two on every shared file).

Line numbers: in this shape the ``actions`` array stands on the line of its key, so every action's line is
that line — what :meth:`HandText.action_lines` finds by searching, without the search.
"""

from __future__ import annotations

import re
from decimal import Decimal

from ingest.phh_locate import HandText

# A TOML value of the plain shape: a literal string, a basic string without escapes, a decimal integer or
# decimal fraction (no exponent, underscore, sign "+" or leading zero), true or false.
_SCALAR = r"""'[^'\n]*'|"[^"\\\n]*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?|true|false"""
_LINE = re.compile(
    rf"""[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*((?:{_SCALAR})|\[[ \t]*(?:(?:{_SCALAR})[ \t]*,[ \t]*)*(?:(?:{_SCALAR})[ \t]*)?\])[ \t]*(?:#[^\n]*)?"""
)
_BLANK_OR_COMMENT = re.compile(r"[ \t]*(?:#[^\n]*)?")
_TOKEN = re.compile(_SCALAR)
# Characters TOML refuses outside a line break (controls other than tab) and line breaks Python's splitlines
# knows but TOML does not: a file holding any of them is left to tomllib, whose error or lines then stand.
_UNUSUAL = re.compile("[\x00-\x08\x0b-\x1f\x7f\x85\u2028\u2029]")


def plain_document(text: str) -> tuple[dict[str, object], int | None] | None:
    """The document and the line of its ``actions`` key, or ``None`` when the text is not of the plain shape."""
    if _UNUSUAL.search(text):
        return None
    document: dict[str, object] = {}
    actions_line = None
    for number, line in enumerate(text.split("\n"), start=1):
        match = _LINE.fullmatch(line)
        if match is None:
            if _BLANK_OR_COMMENT.fullmatch(line):
                continue
            return None
        key, value = match.groups()
        if key in document:
            return None  # tomllib says where the key was defined twice
        if value[0] == "[":
            document[key] = [_scalar(token) for token in _TOKEN.findall(value)]
        else:
            document[key] = _scalar(value)
        if key == "actions":
            actions_line = number
    return document, actions_line


def _scalar(token: str) -> object:
    first = token[0]
    if first == "'" or first == '"':
        return token[1:-1]
    if token == "true":
        return True
    if token == "false":
        return False
    if "." in token:
        return Decimal(token)
    return int(token)


class OneLineActions(HandText):
    """The lines of a plain-shaped hand, whose actions all stand on the line of ``actions`` (or of no line
    when the hand has none)."""

    def __init__(self, lines: list[str], first_line: int, actions_line: int | None) -> None:
        super().__init__(lines, first_line)
        self.actions_line = actions_line

    def action_lines(self, actions: list[str]) -> list[int | None]:
        return [self.actions_line] * len(actions)


__all__ = ["OneLineActions", "plain_document"]
