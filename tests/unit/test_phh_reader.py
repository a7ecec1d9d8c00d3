"""Reading PHH: fields, actions, scaling, unknowns, and errors that say where."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from domain.cards import Card
from ingest.phh import UNKNOWN_STACK, PhhError, load_hands, loads
from ingest.phh_actions import PhhVerb

pytestmark = pytest.mark.unit

HOLDEM = """\
variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 9000, 8000]
actions = [
  'd dh p1 AsKs',
  'd dh p2 ????',  # unknown
  'd dh p3 7c7d',
  'p3 cbr 300 # open',
  'p1 cc',
  'p2 f',
  '',
  'd db 2c3d4h',
  'p1 cc',
  'p3 cc',
  'p1 sm AsKs',
  'p3 sm',
]
players = ['Ann', 'Bob', 'Cy']
finishing_stacks = [10300, 8900, 7700]
"""


def test_a_phh_hand_keeps_its_fields_players_and_default_seats() -> None:
    (hand,) = loads(HOLDEM, "x.phh")
    assert (hand.file, hand.index, hand.variant) == ("x.phh", 1, "NT")
    assert hand.players == ("Ann", "Bob", "Cy")
    assert hand.seats == (1, 2, 3)
    assert hand.starting_stacks == (10000, 9000, 8000)
    assert hand.blinds_or_straddles == (50, 100, 0)
    assert hand.min_bet == 100 and hand.scale == 1 and hand.ante_trimming_status
    assert hand.finishing_stacks == (Decimal(10300), Decimal(8900), Decimal(7700))


def test_every_action_kind_is_parsed_and_noops_are_dropped() -> None:
    (hand,) = loads(HOLDEM, "x.phh")
    verbs = [a.verb for a in hand.actions]
    assert len(verbs) == 11  # the empty string is a no-op
    assert verbs[:6] == [PhhVerb.DEAL_HOLE] * 3 + [
        PhhVerb.COMPLETE_BET_OR_RAISE,
        PhhVerb.CHECK_OR_CALL,
        PhhVerb.FOLD,
    ]
    opening = hand.actions[3]
    assert (opening.player, opening.amount) == (3, Decimal(300))
    assert hand.actions[1].cards == (None, None)
    assert hand.actions[6].verb is PhhVerb.DEAL_BOARD and hand.actions[6].player is None
    assert hand.actions[9].cards == (Card.parse("As"), Card.parse("Ks"))
    assert hand.actions[10].verb is PhhVerb.SHOW_OR_MUCK and hand.actions[10].cards is None


@pytest.mark.parametrize(
    "text", ["p1 f", "p2 cc", "p3 cbr 2.5", "d dh p1 AsKs", "d db 7h8h9h", "p1 sd", "p2 sd 2c", "p1 sm -", "p1 sm", "p1 pb"]
)
def test_an_action_is_the_named_tuple_its_constructor_makes(text: str) -> None:
    """Actions are made by ``tuple.__new__`` as the named tuple's own ``__new__`` makes them (issue 17): read for the
    first time or again (from the texts already read), each is a new ``PhhAction`` equal field by field to the
    one its constructor makes, its line its own."""
    from ingest.phh_actions import PhhAction, _parse_action, parse_action

    first, again = parse_action(text, 3, 7), parse_action(text, 3, 9)
    built = _parse_action(text, 3, 7)
    assert built is not None and first is not None and again is not None
    by_constructor = PhhAction(*built)
    for action, line in ((first, 7), (again, 9)):
        assert type(action) is PhhAction and action._asdict() == by_constructor._replace(line=line)._asdict()
    assert first is not again and first == by_constructor and repr(first) == repr(by_constructor)


def test_each_action_knows_its_line() -> None:
    (hand,) = loads(HOLDEM, "x.phh")
    assert [a.line for a in hand.actions[:4]] == [8, 9, 10, 11]
    assert hand.actions[-1].line == 19


def test_draws_bring_ins_and_show_of_dealt_cards_are_parsed() -> None:
    text = HOLDEM.replace("'p1 sm AsKs',", "'p1 sd', 'p2 sd As', 'p1 sm -', 'p2 pb',")
    (hand,) = loads(text, "x.phh")
    stand_pat, discard, shown, bring_in = hand.actions[9:13]
    assert (stand_pat.verb, stand_pat.cards) == (PhhVerb.STAND_PAT_OR_DISCARD, ())
    assert discard.cards == (Card.parse("As"),)
    assert shown.show_dealt and shown.cards is None
    assert bring_in.verb is PhhVerb.BRING_IN


def test_decimal_amounts_are_scaled_by_the_smallest_power_of_ten() -> None:
    text = (
        HOLDEM.replace("[50, 100, 0]", "[0.10, 0.25, 0]")
        .replace("min_bet = 100", "min_bet = 0.25")
        .replace("[10000, 9000, 8000]", "[11.51, 5, 4.4]")
        .replace("cbr 300", "cbr 1.5")
    )
    (hand,) = loads(text, "x.phh")
    assert hand.scale == 100
    assert hand.blinds_or_straddles == (10, 25, 0)
    assert hand.starting_stacks == (1151, 500, 440)
    assert hand.in_file_units(1151) == Decimal("11.51")


def test_the_recorded_outcome_does_not_set_the_scale() -> None:
    text = HOLDEM.replace("[10300, 8900, 7700]", "[10300.5, 8899.5, 7700]")
    (hand,) = loads(text, "x.phh")
    assert hand.scale == 1
    assert hand.finishing_stacks == (Decimal("10300.5"), Decimal("8899.5"), Decimal(7700))


def test_unknown_stacks_get_the_sentinel_and_are_marked() -> None:
    (hand,) = loads(HOLDEM.replace("[10000, 9000, 8000]", "[inf, 9000, inf]"), "x.phh")
    assert hand.starting_stacks == (UNKNOWN_STACK, 9000, UNKNOWN_STACK)
    assert hand.unknown_stacks == {1, 3}


PHHS = """\
[1]
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [0.5, 1]
min_bet = 1
starting_stacks = [100, 80]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']
seats = [4, 9]
table = 'T 1'
hand = 77

[2]
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 80, 60]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 f', 'p1 f']
"""


def test_a_phhs_file_holds_many_hands_in_order() -> None:
    first, second = loads(PHHS, "t.phhs", many=True)
    assert (first.index, first.line, first.seats, first.table, first.hand_number) == (1, 1, (4, 9), "T 1", 77)
    assert first.scale == 10 and first.blinds_or_straddles == (5, 10)
    assert (second.index, second.line, second.player_count) == (2, 12, 3)
    assert second.actions[-1].line == 18


def test_folders_are_read_recursively_in_sorted_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "one.phh").write_text(HOLDEM)
    (tmp_path / "a.phhs").write_text(PHHS)
    (tmp_path / "notes.txt").write_text("not a hand")
    hands = list(load_hands([tmp_path]))
    assert [(Path(h.file).name, h.index) for h in hands] == [("a.phhs", 1), ("a.phhs", 2), ("one.phh", 1)]


@pytest.mark.parametrize(
    ("change", "field", "line", "words"),
    [
        (("'p2 f',", "'p2 x',"), "actions", 13, "not a PHH action"),
        (("'p2 f',", "'p9 f',"), "actions", 13, "not one of the 3 players"),
        (("'p3 cbr 300 # open',", "'p3 cbr lots',"), "actions", 11, "not an amount"),
        (("'d db 2c3d4h',", "'d db 2c3d4x',"), "actions", 15, "is not a card"),
        (("variant = 'NT'", "variant = 'ZZ'"), "variant", 1, "not a PHH variant"),
        (("min_bet = 100\n", ""), "min_bet", 1, "missing"),
        (("antes = [0, 0, 0]", "antes = [0, 0]"), "antes", 3, "2 entries for 3 players"),
        (("[10000, 9000, 8000]", "[10000, -9000, 8000]"), "starting_stacks", 6, "negative"),
        (("players = ['Ann', 'Bob', 'Cy']", "players = ['Ann']"), "players", 21, "names 1 players"),
    ],
)
def test_malformed_input_names_file_hand_field_and_line(
    change: tuple[str, str], field: str, line: int, words: str
) -> None:
    with pytest.raises(PhhError) as caught:
        loads(HOLDEM.replace(*change), "bad.phh")
    error = caught.value
    assert (error.file, error.hand, error.field, error.line) == ("bad.phh", 1, field, line)
    assert words in error.reason
    assert str(error).startswith(f"bad.phh:{line}: hand 1 field {field!r}: ")


def test_a_short_deck_hand_refuses_a_card_the_deck_lacks() -> None:
    text = HOLDEM.replace("'NT'", "'NS'")
    with pytest.raises(PhhError, match="short deck"):
        loads(text.replace("7c7d", "5c7d"), "s.phh")


def test_broken_toml_names_the_line() -> None:
    with pytest.raises(PhhError) as caught:
        loads(HOLDEM.replace("min_bet = 100", "min_bet = = 100"), "bad.phh")
    assert (caught.value.line, caught.value.hand) == (5, None)
    assert "not TOML" in caught.value.reason


def test_a_missing_path_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(PhhError, match="no such file"):
        list(load_hands([tmp_path / "nowhere.phh"]))


def test_an_error_in_a_later_table_of_a_phhs_names_that_hand_and_its_line() -> None:
    with pytest.raises(PhhError) as caught:
        loads(PHHS.replace("'p3 f', 'p1 f'", "'p3 f', 'p1 fold'"), "t.phhs", many=True)
    assert (caught.value.hand, caught.value.field, caught.value.line) == (2, "actions", 18)


def test_a_phhs_file_holds_only_tables_of_hands() -> None:
    with pytest.raises(PhhError, match="not a table of one hand") as caught:
        loads("variant = 'NT'\n" + PHHS, "t.phhs", many=True)
    assert caught.value.hand == 1
