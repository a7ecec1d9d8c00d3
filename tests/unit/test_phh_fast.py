"""The plain-shape PHH reader (ingest/phh_fast.py) gives what tomllib gives, or steps aside.

On every shared file: where it reads the text its document equals tomllib's (the same keys, values, types and
decimal exponents), and every one of the 2,149 hands read through it equals the hand read through tomllib alone
(amounts, scale, actions and their lines). Shapes it must leave to tomllib are checked one by one, and so are
the lines and errors that stay the same either way.
"""

from __future__ import annotations

import os
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest

import ingest.phh
from ingest.phh import PhhError, load_file, loads, phh_files
from ingest.phh_fast import plain_document

pytestmark = [pytest.mark.unit]

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))


def typed(value: object) -> object:
    """A value with its type (and a decimal's exponent) spelled out, so that 1 == 1.0 == True cannot pass."""
    if isinstance(value, dict):
        return {key: typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [typed(item) for item in value]
    return (type(value).__name__, repr(value))


def toml_document(text: str) -> dict[str, object]:
    return tomllib.loads(text, parse_float=Decimal)


@pytest.fixture(scope="module")
def shared_files() -> list[Path]:
    assert PHH_DIR.is_dir(), f"the shared hands are not at {PHH_DIR} (set POKERAUDIT_PHH_DIR)"
    return list(phh_files([PHH_DIR / "data"]))


def test_every_shared_file_reads_as_tomllib_reads_it(shared_files: list[Path]) -> None:
    plain = 0
    for path in shared_files:
        text = path.read_text(encoding="utf-8")
        found = plain_document(text)
        if found is None:
            continue
        plain += 1
        assert typed(found[0]) == typed(toml_document(text)), path
    # every .phh file of the set is of the plain shape but the hand-written ones with comments in their
    # arrays; the three .phhs files (tables) are left to tomllib by loads()
    assert plain >= 2000


def test_every_shared_hand_is_the_same_through_either_reader(
    shared_files: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = [repr(hand) for path in shared_files for hand in load_file(path)]
    monkeypatch.setattr(ingest.phh, "plain_document", lambda text: None)
    slow = [repr(hand) for path in shared_files for hand in load_file(path)]
    assert len(fast) == len(slow) == 2149
    assert fast == slow


@pytest.mark.parametrize(
    "text",
    [
        "[1]\nvariant = 'NT'\n",  # a table
        "actions = [\n  'p1 f',\n]\n",  # an array over several lines
        "a = 'x'\r\nb = 1\r\n",  # Windows line ends
        "a = \"x\\ty\"\n",  # an escape
        "a = '''x'''\n",  # a multi-line string
        "a = 1e3\n",  # an exponent
        "a = +1\n",  # a plus sign
        "a = 1_000\n",  # an underscore
        "a = 01\n",  # a leading zero
        "a = 0x1F\n",  # hexadecimal
        "a = inf\n",
        "a = nan\n",
        "a = 1979-05-27\n",  # a date
        "a = [[1, 2]]\n",  # a nested array
        "a = {b = 1}\n",  # an inline table
        "a.b = 1\n",  # a dotted key
        "'a' = 1\n",  # a quoted key
        "a = 1\na = 2\n",  # a key twice: tomllib's error stands
        "a = 1 2\n",  # not TOML at all
        "a = [1 2]\n",
        "a = [,]\n",
        "a = 1 # note \u2028 more\n",  # a line break for Python, not for TOML
        "a = 'x\x01'\n",  # a control character
        "\ufeffa = 1\n",  # a byte-order mark
    ],
)
def test_unusual_shapes_are_left_to_tomllib(text: str) -> None:
    assert plain_document(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "a = 'x # not a comment'  # a comment\n",
        "a=1#c\n",
        "a = []\n",
        "a = [1,]\n",
        "a = [ 1 , 2 ]\n",
        "a = -0.50\n",
        "a = -0\n",
        "a = 0.25\n",
        "a = \"p1 'q'\"\n",
        "a = 'p1 \"q\"'\n",
        "a = ['x', 1, 2.5, true, false, \"y\"]\n",
        "a-b_9 = true\n",
        "\n# only a comment\n\t\nx = 'tab\there'\n",
        "a = 12345678901234567890123\n",
        "a = 'Zoë ♠'\n",
        "",
    ],
)
def test_plain_shapes_read_as_tomllib_reads_them(text: str) -> None:
    found = plain_document(text)
    assert found is not None
    assert typed(found[0]) == typed(toml_document(text))


PLAIN_HAND = """# a comment
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ['d dh p1 AsKs', 'd dh p2 7h2d', 'p2 f']
"""


def test_the_actions_line_is_the_line_the_search_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    (fast,) = loads(PLAIN_HAND)
    monkeypatch.setattr(ingest.phh, "plain_document", lambda text: None)
    (slow,) = loads(PLAIN_HAND)
    assert [a.line for a in fast.actions] == [7, 7, 7]
    assert fast == slow


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (PLAIN_HAND.replace("antes = [0, 0]", "antes = [0, 0, 0]"), "antes"),
        (PLAIN_HAND.replace("'p2 f'", "'p9 f'"), "actions"),
        (PLAIN_HAND.replace("variant = 'NT'", "variant = 'XX'"), "variant"),
    ],
)
def test_errors_name_the_same_field_and_line_either_way(
    text: str, field: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert plain_document(text) is not None
    with pytest.raises(PhhError) as fast:
        loads(text)
    monkeypatch.setattr(ingest.phh, "plain_document", lambda text: None)
    with pytest.raises(PhhError) as slow:
        loads(text)
    assert fast.value.field == field
    assert (str(fast.value), fast.value.line) == (str(slow.value), slow.value.line)


#: values the split-reading path must read as the regular expression does, or leave to it
WRITTEN = [
    "'x'", "''", "'", "'''", "'a'b'", "'x' # c", "'x'  ", "\"x\"", "'tab\there'", "'Zoë ♠'",
    "[]", "[ ]", "['a']", "['']", "['', '']", "['a', 'b']", "['a','b']", "['a',  'b']", "['a', ]", "['a' , 'b']",
    "['a', 'b' ]", "[ 'a', 'b']", "['a', \"b\"]", "['a', 1]", "['a', 'b'", "[']", "['a'] # c", "['a, 'b']",
    "[0]", "[0, 0]", "[1, 2]", "[1,2]", "[1, 2, ]", "[01, 2]", "[-1, 2]", "[1.5, 2]", "[1, 'a']", "[1, true]",
    "[ 1, 2]", "[1,  2]", "[1, 2 ]", "[١, 2]", "[1_0]",
    "0", "7", "10", "007", "-0", "-5", "+5", "1.0", "1e3", "1_000", "²", "١٢", "true", "false", "True",
    "true # c", "12345678901234567890123", "", " 1", "1 ",
]


@pytest.mark.parametrize("written", WRITTEN)
def test_values_read_by_splitting_are_the_regular_expressions_values(written: str) -> None:
    from ingest.phh_fast import _LINE, _NOT_PLAIN, _TOKEN, _scalar, _written_plainly

    split = _written_plainly(written)
    match = _LINE.fullmatch(f"a = {written}")
    if split is _NOT_PLAIN:
        return  # left to the regular expression, which reads it (or not) as before
    assert match is not None, written
    value = match.group(2)
    expected = [_scalar(t) for t in _TOKEN.findall(value)] if value[0] == "[" else _scalar(value)
    assert typed(split) == typed(expected) == typed(toml_document(f"a = {written}")["a"])


def test_every_shared_line_read_by_splitting_is_the_regular_expressions_value(shared_files: list[Path]) -> None:
    from ingest.phh_fast import _LINE, _NOT_PLAIN, _TOKEN, _plain_key, _scalar, _written_plainly

    split = 0
    for path in shared_files:
        for line in path.read_text(encoding="utf-8").split("\n"):
            key, equals, written = line.partition(" = ")
            if not (equals and _plain_key(key)) or (value := _written_plainly(written)) is _NOT_PLAIN:
                continue
            split += 1
            match = _LINE.fullmatch(line)
            assert match is not None and match.group(1) == key, (path, line)
            token = match.group(2)
            expected = [_scalar(t) for t in _TOKEN.findall(token)] if token[0] == "[" else _scalar(token)
            assert typed(value) == typed(expected), (path, line)
    assert split > 18_000  # nearly every line of the 2,000 Pluribus files is read by splitting


def test_the_shapes_phh_writers_write_are_read_by_splitting() -> None:
    from ingest.phh_fast import _NOT_PLAIN, _written_plainly

    plain = ["'x'", "''", "'Zoë ♠'", "[]", "['a']", "['', '']", "['a', 'b']", "[0]", "[0, 0]", "[1, 2]", "0", "10",
             "true", "false", "12345678901234567890123"]
    assert [w for w in plain if _written_plainly(w) is _NOT_PLAIN] == []


def test_unusual_characters_are_found_without_the_expression_as_with_it() -> None:
    """ASCII text is asked whether it holds a character of ``_UNUSUAL`` by ``isprintable`` (issue 17): the same
    answer as the expression's for every character (ASCII and some beyond), alone, among others, at either end."""
    from ingest.phh_fast import _UNUSUAL, _unusual

    characters = [chr(c) for c in range(0x200)] + ["\u2028", "\u2029", "\ufeff", "\u200b", "♠"]
    for c in characters:
        for text in (c, f"a = '{c}'\n", f"{c}x\ty\n", f"x\n{c}"):
            assert _unusual(text) == (_UNUSUAL.search(text) is not None), repr(text)
    assert not _unusual("") and not _unusual("a = 1\n\tb = 'x'\n") and _unusual("a = 1\r\n")
