"""The format-detecting door: a file's format by suffix or first bytes, and every format's hands as the same
event sequences the PHH path yields; an unreadable hand is reported and the others still come."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pokerstars_hands import EVERY_HAND, RAISE_WAR, SPLIT_POT
from shared_hands import PHH_DIR, WSOP_DAY_5, WSOP_HAND, WSOP_RAZZ_HAND, WSOP_TABLE
from three_handed import three_handed

from api.operations import phh_records
from domain.hand.events import (
    ActionKind,
    ChipsPlaced,
    Declaration,
    Declared,
    HoleCardsDealt,
    PlayerActed,
    RawAct,
    RawActReported,
)
from ingest.formats import FormatError, ImportedHand, as_played, detect, read_hands, recorded
from ingest.ohh import OhhHand, dumps, to_ohh
from ingest.ohh import loads as ohh_loads
from ingest.phh import load_file, loads
from ingest.phh_events import hand_events
from ingest.phh_validate import UnreadableReport
from ingest.phh_write import write_hand
from ingest.pokerstars import PokerStarsHand
from ingest.pokerstars import loads as pokerstars_loads

pytestmark = pytest.mark.unit


@pytest.fixture
def session(tmp_path: Path) -> Path:
    """A folder as an importer finds it: an OHH export, a PokerStars session, a note that is no hand history."""
    (phh_hand,) = load_file(WSOP_HAND)
    (tmp_path / "export.ohh").write_text(dumps([to_ohh(recorded(hand_events(phh_hand)))]))
    (tmp_path / "HH20200101 Aase III.txt").write_text(RAISE_WAR + "\n\n\n" + SPLIT_POT)
    (tmp_path / "notes.txt").write_text("bought in for 100, left at 8pm\n")
    return tmp_path


def test_formats_are_told_by_suffix_or_by_the_first_bytes(session: Path) -> None:
    assert detect(WSOP_HAND) == "phh"
    assert detect(PHH_DIR / "data" / "handhq" / "ABS-2009-07-01_2009-07-23_100NLH_OBFU" / "1"
                  / "abs NLH handhq_1-OBFUSCATED.phhs") == "phh"
    assert detect(session / "export.ohh") == "ohh"
    assert detect(session / "HH20200101 Aase III.txt") == "pokerstars"
    unnamed = session / "hand-without-suffix"
    unnamed.write_text(dumps([{"ohh": {}}]))
    assert detect(unnamed) == "ohh"
    unnamed.write_text("\ufeff" + RAISE_WAR)
    assert detect(unnamed) == "pokerstars"
    with pytest.raises(FormatError) as unknown:
        detect(session / "notes.txt")
    assert unknown.value.file == str(session / "notes.txt") and "PokerStars" in unknown.value.reason


def test_a_folder_of_mixed_formats_yields_every_hand_and_reports_what_is_not_one(session: Path) -> None:
    found = list(read_hands([session, WSOP_HAND]))
    hands = [h for h in found if isinstance(h, ImportedHand)]
    reports = [r for r in found if isinstance(r, UnreadableReport)]
    assert [(h.format, h.index) for h in hands] == [("pokerstars", 1), ("pokerstars", 2), ("ohh", 1), ("phh", 1)]
    assert [(r.file, r.hand) for r in reports] == [(str(session / "notes.txt"), None)]


def test_the_same_hand_from_phh_and_from_ohh_is_the_same_events(session: Path) -> None:
    hands = read_hands([session / "export.ohh", WSOP_HAND])
    by_format = {h.format: h for h in hands if isinstance(h, ImportedHand)}
    assert by_format["ohh"].events == by_format["phh"].events
    assert by_format["phh"].table_id == WSOP_TABLE and by_format["phh"].hand_number == 1
    assert by_format["ohh"].table_id is None


def test_the_hands_of_one_event_day_are_one_table_in_hand_order_as_publish_places_them() -> None:
    """Issue 13: the WSOP final table (83 files, one event and day, ``hand`` 1 … 85) is one table, not 83."""
    hands = [h for h in read_hands([WSOP_DAY_5], "phh") if isinstance(h, ImportedHand)]
    assert len(hands) == 83 and {h.table_id for h in hands} == {WSOP_TABLE}
    numbers = {Path(h.file).name: h.hand_number for h in hands}
    assert numbers["00-02-07.phh"] == 1 and numbers["03-50-24.phh"] == 85 and len(set(numbers.values())) == 83
    assert {h.table_id: h.hand_number for h in hands} == {WSOP_TABLE: 85}
    published = [(json.loads(value)["table_id"], json.loads(value)["hand_id"])
                 for _, value in phh_records([WSOP_DAY_5], "wsop") if json.loads(value)["seq"] == 0]
    assert [int(hand) for _, hand in published] == sorted(numbers.values()), "published in hand order"
    assert {table for table, _ in published} == {WSOP_TABLE}
    assert list(phh_records([WSOP_DAY_5], "wsop")) == list(phh_records([WSOP_DAY_5], "wsop")), "same ids again"


def test_a_folder_of_numbered_hands_is_one_table_and_a_phh_table_field_names_its_table(tmp_path: Path) -> None:
    text = WSOP_HAND.read_text()
    plain = "\n".join(line for line in text.splitlines() if not line.startswith(("event", "year", "month", "day")))
    session = tmp_path / "session-9"
    session.mkdir()
    for number in (12, 3, 7):
        (session / f"h{number}.phh").write_text(plain.replace("hand = 1\n", f"hand = {number}\n"))
    (tmp_path / "lone.phh").write_text(plain)
    (tmp_path / "named-a.phh").write_text(plain + "\ntable = 'Ariadne'\n")
    (tmp_path / "named-b.phh").write_text(plain + "\ntable = 'Ariadne'\n")
    placed = {Path(h.file).name: (h.table_id, h.hand_number)
              for h in read_hands([tmp_path], "phh") if isinstance(h, ImportedHand)}
    assert placed == {
        "h12.phh": ("session-9", 12), "h3.phh": ("session-9", 3), "h7.phh": ("session-9", 7),
        "lone.phh": ("lone#1", 1),
        # the same hand number twice at one table: numbered by their place in file order
        "named-a.phh": ("Ariadne", 1), "named-b.phh": ("Ariadne", 2),
    }


def test_a_table_whose_records_count_hands_from_0_is_numbered_from_1_and_every_shared_hand_is_its_own() -> None:
    hands = [h for h in read_hands([PHH_DIR / "data" / "pluribus" / "94"], "phh") if isinstance(h, ImportedHand)]
    numbers = {Path(h.file).name: h.hand_number for h in hands}
    assert {h.table_id for h in hands} == {"94"} and numbers["0.phh"] == 1 and numbers["5.phh"] == 6
    placed = [(h.table_id, h.hand_number) for h in read_hands([PHH_DIR], "phh") if isinstance(h, ImportedHand)]
    assert len(placed) == len(set(placed)) == 2149, "no two shared hands at one table under one number"


def test_a_refused_act_ends_the_hand_so_the_referee_records_the_rejection() -> None:
    razz = next(h for h in read_hands([WSOP_RAZZ_HAND]) if isinstance(h, ImportedHand))
    (phh_hand,) = load_file(WSOP_RAZZ_HAND)
    assert 0 < len(razz.events) < len(phh_hand.actions)


def test_a_bad_hand_is_reported_with_its_place_and_the_next_is_read(session: Path) -> None:
    bad = session / "bad.txt"
    bad.write_text(RAISE_WAR.replace("charlie: calls $0.30", "charlie: calls the clock") + "\n\n" + SPLIT_POT)
    report, hand = read_hands([bad], "pokerstars")
    assert isinstance(report, UnreadableReport) and isinstance(hand, ImportedHand)
    assert (report.file, report.hand, report.field) == (str(bad), 1, "action")
    assert report.line == RAISE_WAR.splitlines().index("charlie: calls $0.30") + 1
    assert hand.index == 2


def test_a_missing_path_is_reported_not_raised(tmp_path: Path) -> None:
    (report,) = read_hands([tmp_path / "gone.ohh"])
    assert isinstance(report, UnreadableReport) and report.error == "no such file or folder"


def test_raw_acts_are_written_as_the_actions_the_rulebook_read_them_as() -> None:
    dealt = [HoleCardsDealt(seat, (None, None), (False, False)) for seat in (2, 4, 6)]
    events = three_handed(
        *dealt,
        RawActReported(6, RawAct(chips=ChipsPlaced.one_motion(20))),  # chips to match the big blind: a call
        RawActReported(2, RawAct(declaration=Declaration(Declared.FOLD))),
    )
    played = as_played(events)
    assert played[-2:] == [PlayerActed(6, ActionKind.CALL, 20), PlayerActed(2, ActionKind.FOLD)]
    assert not any(isinstance(e, RawActReported) for e in played)
    (hand,) = loads(write_hand(played))
    assert [a.text for a in hand.actions][-2:] == ["p3 cc", "p1 f"]


@pytest.mark.parametrize("text", EVERY_HAND.values(), ids=EVERY_HAND.keys())
def test_a_pokerstars_hand_converts_to_phh_and_to_ohh_and_reads_back_the_same(text: str) -> None:
    (hand,) = pokerstars_loads(text)
    assert isinstance(hand, PokerStarsHand)
    (phh_hand,) = loads(write_hand(hand.events))
    assert tuple(hand_events(phh_hand)) == hand.events
    (ohh_hand,) = ohh_loads(dumps([to_ohh(hand.events)]))
    assert isinstance(ohh_hand, OhhHand) and ohh_hand.events == hand.events
