"""``phh_file_names`` lists what ``sorted(folder.rglob("*"))`` keeping the PHH files lists, in its order and
spelling, without a ``Path`` per entry, and ``read_named`` reads a file as ``Path.read_text`` does, errors alike
(validate lists every file before it reads one, then reads them by the thousand: issue 17)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from ingest.phh import PHH_SUFFIXES, PhhError, PhhHand, loads, phh_file_names, phh_files, read_named

pytestmark = [pytest.mark.unit]

ROOT = Path(__file__).resolve().parents[2]
PHH_DIR = Path(os.environ.get("POKERAUDIT_PHH_DIR", ROOT / ".." / "shared" / "data" / "phh"))
PLAIN = (
    b"variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [200, 200]\n"
    b"actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'p2 f']\nplayers = ['Alice', 'Bob']\n"
)


def by_rglob(paths: Iterable[str | Path]) -> Iterator[str]:
    """The listing as it was written with pathlib (the reference)."""
    for path in map(Path, paths):
        if path.is_dir():
            yield from map(str, sorted(p for p in path.rglob("*") if p.suffix in PHH_SUFFIXES and p.is_file()))
        else:
            yield str(path)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder with the corners a walk can get wrong."""
    files = [
        "b.phh", "a.phhs", "a-b.phh", "a/b.phh", "a/c/d.phh", "a/.hidden.phh", ".git/x.phh", "Z.phh",
        "é/ü.phh", "deep/1/2/3/4/5.phh", "n.PHH", "n.phh.txt", ".phh", "x.", "notes.txt", "a b/c d.phhs",
    ]
    for name in files:
        path = tmp_path / "hands" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("variant = 'NT'\n", encoding="utf-8")
    hands = tmp_path / "hands"
    (hands / "folder.phh").mkdir()  # a folder named like a hand: walked into, not listed
    (hands / "folder.phh" / "in.phh").write_text("", encoding="utf-8")
    (hands / "linked.phh").symlink_to(hands / "b.phh")  # a link to a file: listed
    (hands / "dangling.phh").symlink_to(hands / "nowhere.phh")  # to nothing: not listed
    (hands / "to-folder.phh").symlink_to(hands / "a")  # to a folder: neither listed nor walked
    (hands / "self.phh").symlink_to(hands / "self.phh")  # to itself: not listed (pathlib's is_file says no)
    (hands / "loop").symlink_to(hands)  # a folder linked to: not walked (it would never end)
    return hands


def test_the_same_files_in_the_same_order_and_spelling(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree.parent)
    for paths in (
        [tree], [str(tree) + "/"], ["hands"], ["./hands/"], ["hands//a"], ["hands/a", "hands/b.phh", "hands"],
        ["hands/../hands/a"], ["hands/nowhere.phh"], [],
    ):
        names = phh_file_names(paths)
        assert names == list(by_rglob(paths)), paths
        assert [Path(name) for name in names] == list(phh_files(paths))
    monkeypatch.chdir(tree)
    assert phh_file_names(["."]) == list(by_rglob(["."]))
    assert "linked.phh" in phh_file_names(["."]) and "dangling.phh" not in phh_file_names(["."])


def test_the_shared_hands_are_listed_as_before() -> None:
    assert PHH_DIR.is_dir(), f"the shared hands are not at {PHH_DIR} (set POKERAUDIT_PHH_DIR)"
    names = phh_file_names([PHH_DIR])
    assert names == list(by_rglob([PHH_DIR]))
    assert len(names) > 2000


def by_read_text(path: Path) -> list[PhhHand] | str:
    """A file's hands, or its error, as read with pathlib's text reading (the reference)."""
    if not path.exists():
        return "no such file or folder"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return f"cannot read: {error}"
    try:
        return loads(text, str(path), many=path.suffix == ".phhs")
    except PhhError as error:
        return error.reason


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("plain.phh", PLAIN),
        ("crlf.phh", PLAIN.replace(b"\n", b"\r\n")),
        ("cr.phh", PLAIN.replace(b"\n", b"\r")),
        ("mixed.phh", PLAIN.replace(b"\n", b"\r\n", 2).replace(b"\n", b"\r", 1)),
        ("large.phh", PLAIN + b"# " + b"x" * 200_000 + b"\n"),  # more than one read
        ("not-utf8.phh", PLAIN.replace(b"Alice", b"Al\xffce")),
        ("cut-utf8.phh", PLAIN + b"# \xe2\x82"),
        ("bom.phh", b"\xef\xbb\xbf" + PLAIN),
        ("table.phhs", b"[1]\n" + PLAIN + b"\n[2]\n" + PLAIN.replace(b"\n", b"\r\n")),
        (".phhs", b"[1]\n" + PLAIN),  # no suffix by Path's rule: one hand's fields, so not a PHH hand
        ("folder.phh", None),
        ("missing.phh", False),
    ],
)
def test_a_file_reads_as_with_pathlib(tmp_path: Path, name: str, content: bytes | None | bool) -> None:
    path = tmp_path / name
    if content is None:
        path.mkdir()
    elif content is not False:
        assert isinstance(content, bytes)
        path.write_bytes(content)
    try:
        got: list[PhhHand] | str = read_named(str(path))
    except PhhError as error:
        got = error.reason
    assert got == by_read_text(path)
