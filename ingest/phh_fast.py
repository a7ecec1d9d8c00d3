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
from typing import Final

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


#: the characters of ``_UNUSUAL`` that ASCII has: its controls but tab and line feed, and DEL
_UNUSUAL_ASCII: Final = tuple(chr(c) for c in (*range(0x09), *range(0x0B, 0x20), 0x7F))


def _unusual(text: str) -> bool:
    """Whether ``text`` holds a character of ``_UNUSUAL``. ASCII text (every PHH file seen) is asked without the
    regular expression, which tries its class at every character (37 thousand instructions a Pluribus file): a
    search for each of ASCII's unusual characters is a ``memchr`` of the text, a few hundred each."""
    if text.isascii():
        return any(character in text for character in _UNUSUAL_ASCII)
    return _UNUSUAL.search(text) is not None


def plain_document(text: str) -> tuple[dict[str, object], int | None] | None:
    """The document and the line of its ``actions`` key, or ``None`` when the text is not of the plain shape."""
    if _unusual(text):
        return None
    document: dict[str, object] = {}
    actions_line = None
    for number, line in enumerate(text.split("\n"), start=1):
        key, equals, written = line.partition(" = ")
        value = _written_plainly(written) if equals and _plain_key(key) else _NOT_PLAIN
        if value is _NOT_PLAIN:  # the line as the regular expression reads it
            match = _LINE.fullmatch(line)
            if match is None:
                if _BLANK_OR_COMMENT.fullmatch(line):
                    continue
                return None
            key, written = match.groups()
            if written[0] == "[":
                value = [_scalar(token) for token in _TOKEN.findall(written)]
            else:
                value = _scalar(written)
        if key in document:
            return None  # tomllib says where the key was defined twice
        document[key] = value
        if key == "actions":
            actions_line = number
    return document, actions_line


#: whole numbers without sign, underscore or leading zero, after ", " (ASCII digits: ``[0-9]``, not ``\d``)
_WHOLE_NUMBERS = re.compile(r"(?:0|[1-9][0-9]*)(?:, (?:0|[1-9][0-9]*))*")
#: arrays of whole numbers already read, by their text (``0, 0, 50, 100``): a file of hands writes the same antes,
#: blinds and stacks again and again, and reading one was a tenth of reading a file (an ``int`` of each item, the
#: expression first). Bounded, so memory stays flat.
_KNOWN_NUMBERS: dict[str, list[int]] = {}
_KNOWN_NUMBERS_MAX = 20_000
#: what :func:`_written_plainly` says of a value it leaves to the regular expression
_NOT_PLAIN = object()


def _plain_key(key: str) -> bool:
    """A bare key, as ``_LINE`` reads one: ASCII letters, digits, ``_`` and ``-``, nothing around it."""
    return key.isascii() and key.replace("_", "a").replace("-", "a").isalnum()


def _written_plainly(written: str) -> object:
    """The value as PHH writers write it — one literal string, a whole number, ``true``/``false``, or an array of
    literal strings or of whole numbers, each item after ``", "`` — or ``_NOT_PLAIN`` for anything else (a
    decimal, a sign, a comment, other spacing...), which the regular expression then reads. Reading these
    shapes by splitting, not by matching, is most of what reading a PHH file costs less (issue 17); what it
    accepts is a part of what ``_LINE`` accepts, read to the same values (tests/unit/test_phh_fast.py)."""
    if not written:
        return _NOT_PLAIN
    first, last = written[0], written[-1]
    if first == "'":
        inner = written[1:-1]
        return inner if last == "'" and len(written) > 1 and "'" not in inner else _NOT_PLAIN
    if first == "[":
        if last != "]":
            return _NOT_PLAIN
        inner = written[1:-1]
        if not inner:
            return []
        if inner[0] == "'":
            if inner[-1] != "'" or len(inner) == 1:
                return _NOT_PLAIN
            texts = inner[1:-1].split("', '")
            for item in texts:
                if "'" in item:  # another separator than ", " between two strings, or a string ending there
                    return _NOT_PLAIN
            return texts
        numbers = _KNOWN_NUMBERS.get(inner)
        if numbers is None:
            if _WHOLE_NUMBERS.fullmatch(inner) is None:
                return _NOT_PLAIN
            numbers = list(map(int, inner.split(", ")))
            if len(_KNOWN_NUMBERS) >= _KNOWN_NUMBERS_MAX:
                _KNOWN_NUMBERS.clear()
            _KNOWN_NUMBERS[inner] = numbers
        return list(numbers)  # a list of its own: the document is the caller's
    if written == "true":
        return True
    if written == "false":
        return False
    number = _whole(written)
    return _NOT_PLAIN if number is None else number


def _whole(item: str) -> int | None:
    """A TOML decimal integer without sign or underscore (no leading zero), or ``None``."""
    if item.isascii() and item.isdigit() and (item[0] != "0" or len(item) == 1):
        return int(item)
    return None


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
