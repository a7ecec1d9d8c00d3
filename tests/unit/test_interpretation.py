"""Reading raw acts beyond the worked examples: structures, rulebook differences, the words themselves."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.errors import RulingRequired
from domain.hand.events import ActionKind, PlayerActed
from domain.hand.interpretation import (
    BettingContext,
    ChipsPlaced,
    Declaration,
    Declared,
    Interpreted,
    Obligation,
    RawAct,
    Reading,
    Timing,
    interpret,
    parse_declaration,
    resolve_out_of_turn,
    substantial_action,
    undercalls_in_a_row,
)
from domain.rulebooks import get_rulebook
from domain.variants import BettingStructure

pytestmark = pytest.mark.unit

NL, PL, FL = BettingStructure.NO_LIMIT, BettingStructure.POT_LIMIT, BettingStructure.FIXED_LIMIT
TDA = get_rulebook("tda-2022")


def context(
    bet: int, last_raise: int, *, structure: BettingStructure = NL, stack: int = 100_000, pot: int = 0
) -> BettingContext:
    return BettingContext(structure, bet, 0, stack, last_raise, 100, pot)


def read(act: RawAct, ctx: BettingContext, book: str = "tda-2022") -> Interpreted:
    reading = interpret(act, ctx, get_rulebook(book))
    assert isinstance(reading, Interpreted), reading
    return reading


def words(text: str) -> RawAct:
    return RawAct(declaration=parse_declaration(text))


def chips(*denominations: int) -> RawAct:
    return RawAct(chips=ChipsPlaced.one_motion(*denominations))


def test_a_reading_cites_its_rule_and_says_why_in_one_sentence() -> None:
    reading = read(chips(5000), context(2000, 2000))
    assert str(reading) == "a single 5,000 chip without a declaration is a call (tda-2022 44)"


def test_a_reading_becomes_the_interpreted_action_event() -> None:
    assert read(words("raise, eight thousand"), context(2000, 2000)).as_event(6) == PlayerActed(
        6, ActionKind.RAISE, 8000
    )


def test_an_act_with_neither_words_nor_chips_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="needs a declaration"):
        interpret(RawAct(), context(0, 100), TDA)


@pytest.mark.parametrize(
    ("text", "declaration"),
    [
        ("two hundred", Declaration(None, 200)),
        ("fourteen hundred", Declaration(None, 1400)),
        ("Raise, 1,400", Declaration(Declared.RAISE, 1400)),
        ("all in", Declaration(Declared.ALL_IN)),
        ("I bet five", Declaration(Declared.BET, 5, bare=True)),
        ("bet twelve thousand five hundred", Declaration(Declared.BET, 12_500)),
        ("pot", Declaration(Declared.POT)),
    ],
)
def test_what_a_player_says_is_read_into_a_kind_and_an_amount(text: str, declaration: Declaration) -> None:
    assert parse_declaration(text) == declaration


def test_words_that_say_neither_an_action_nor_a_number_are_refused() -> None:
    with pytest.raises(ValueError, match="not a number word"):
        parse_declaration("raise a lot")


def test_pot_in_pot_limit_is_the_pot_sized_raise() -> None:
    reading = read(words("pot"), context(100, 100, structure=PL, pot=250))
    assert (reading.action, reading.amount) == (ActionKind.RAISE, 450)


def test_all_in_in_pot_limit_is_cut_to_the_pot() -> None:
    reading = read(words("all in"), context(0, 100, structure=PL, pot=300, stack=5000))
    assert (reading.action, reading.amount, reading.all_in) == (ActionKind.BET, 300, False)


def test_all_in_for_less_than_the_call_is_a_call() -> None:
    reading = read(words("all in"), context(1000, 1000, stack=600))
    assert (reading.action, reading.amount, reading.all_in) == (ActionKind.CALL, 600, True)


def test_raise_in_fixed_limit_is_the_fixed_size_whatever_the_amount_said() -> None:
    reading = read(words("raise, five hundred"), context(20, 20, structure=FL))
    assert (reading.action, reading.amount) == (ActionKind.RAISE, 40)
    assert str(reading.rule) == "tda-2022 52-A"


def test_a_declared_raise_below_the_minimum_must_be_a_full_raise() -> None:
    reading = read(words("raise, three hundred"), context(200, 200))
    assert (reading.action, reading.amount) == (ActionKind.RAISE, 400)


def test_an_opening_chip_below_the_minimum_bet_is_brought_up_to_the_big_blind() -> None:
    reading = read(chips(25), context(0, 100))
    assert (reading.action, reading.amount) == (ActionKind.BET, 100)


def test_the_clubs_ambiguous_amount_is_the_smaller_reading() -> None:
    reading = read(words("I bet five"), context(0, 400, pot=8000), "tda-club")
    assert (reading.action, reading.amount) == (ActionKind.BET, 500)
    assert str(reading.rule) == "tda-club 53"


def test_an_amount_that_no_scale_makes_legal_goes_to_the_director() -> None:
    with pytest.raises(RulingRequired, match="no legal amount"):
        interpret(words("I bet five"), context(0, 400, stack=300), TDA)


def test_at_the_club_last_chips_that_raise_by_less_than_half_are_a_call_not_an_all_in() -> None:
    reading = read(chips(1000, 500, 500), BettingContext(NL, 1400, 0, 2000, 1400, 100), "tda-club")
    assert (reading.action, reading.amount, reading.returned) == (ActionKind.CALL, 1400, 600)


def test_a_string_bet_counts_only_its_first_motion_and_cites_the_string_bet_rule() -> None:
    act = RawAct(chips=ChipsPlaced(((500,), (500, 500))))
    reading = read(act, context(300, 300), "bfsp")
    assert (reading.action, reading.amount, reading.returned) == (ActionKind.CALL, 300, 200)
    assert str(reading.rule) == "bfsp 4.11"


def test_raise_then_the_exact_call_then_one_more_motion_is_a_raise_where_the_rulebook_allows_it() -> None:
    act = RawAct(Declaration(Declared.RAISE), ChipsPlaced(((300,), (700,))), Timing.VERBAL_FIRST)
    assert read(act, context(300, 300), "tda-2017").amount == 1000
    assert read(act, context(300, 300), "tda-2022").amount == 600  # first motion alone: the minimum raise


def test_raise_then_less_than_the_call_in_the_first_motion_is_the_minimum_raise_at_the_club() -> None:
    act = RawAct(Declaration(Declared.RAISE), ChipsPlaced(((100,), (1000,))), Timing.VERBAL_FIRST)
    assert read(act, context(300, 300), "tda-club").amount == 600


def test_words_after_the_chips_landed_do_not_change_the_chips_reading() -> None:
    act = RawAct(Declaration(Declared.RAISE, 8000), ChipsPlaced.one_motion(5000), Timing.CHIPS_FIRST)
    assert read(act, context(2000, 2000)).action is ActionKind.CALL


def test_a_clear_call_with_an_oversized_chip_gets_its_change() -> None:
    act = RawAct(Declaration(Declared.CALL), ChipsPlaced.one_motion(1000), Timing.VERBAL_FIRST)
    reading = read(act, context(300, 300))
    assert (reading.action, reading.amount, reading.returned) == (ActionKind.CALL, 300, 700)


def test_unclear_words_that_agree_with_the_chips_need_no_ruling() -> None:
    act = RawAct(Declaration(None, 5000, clear=False), ChipsPlaced.one_motion(5000), Timing.VERBAL_FIRST)
    reading = read(act, context(0, 1000))
    assert (reading.action, reading.amount) == (ActionKind.BET, 5000)


def test_the_big_blind_saying_call_with_his_option_checks() -> None:
    ctx = BettingContext(NL, 100, 100, 5000, 100, 100, 150)
    assert read(words("call"), ctx).action is ActionKind.CHECK


def test_a_fold_facing_no_bet_is_binding_and_says_the_cards_are_dead() -> None:
    reading = read(words("fold"), context(0, 100))
    assert reading.action is ActionKind.FOLD
    assert str(reading.rule) == "tda-2022 58"


def test_an_out_of_turn_reading_says_it_binds_unless_the_action_changes() -> None:
    reading = read(RawAct(parse_declaration("call"), out_of_turn=True), context(300, 300))
    assert reading.out_of_turn
    assert "binds unless the action to him changes" in reading.reason


def test_under_bfsp_an_undercall_is_complete_or_forfeit_even_facing_the_opening_bet() -> None:
    ctx = BettingContext(NL, 8000, 0, 50_000, 8000, 2000, 0, opening_bet_only=True)
    reading = interpret(chips(1000, 1000), ctx, get_rulebook("bfsp"))
    assert isinstance(reading, Obligation)
    assert (reading.options, reading.forfeit_on_fold) == ((ActionKind.CALL, ActionKind.FOLD), 2000)


def test_a_single_small_chip_under_bfsp_is_an_insufficient_call_not_a_ruling() -> None:
    reading: Reading = interpret(chips(1000), context(50_000, 50_000), get_rulebook("bfsp"))
    assert isinstance(reading, Obligation)


def test_an_out_of_turn_fold_binds_even_when_the_action_changed() -> None:
    fold = read(RawAct(parse_declaration("fold"), out_of_turn=True), context(300, 300))
    result = resolve_out_of_turn(fold, [ActionKind.RAISE], TDA)
    assert isinstance(result, Interpreted)
    assert result.action is ActionKind.FOLD


def test_one_undercall_needs_no_ruling_for_others() -> None:
    assert undercalls_in_a_row([4], TDA) == (4, None)


def test_check_and_fold_is_substantial_action_under_the_literal_reading() -> None:
    from dataclasses import replace

    literal = replace(TDA, substantial_action_pair_needs_chips=False)
    assert substantial_action([ActionKind.CHECK, ActionKind.FOLD], literal)
    assert not substantial_action([ActionKind.CHECK, ActionKind.CHECK], literal)


STUD_THIRD_STREET = BettingContext(FL, 5, 0, 1000, 20, 20, 0, completing=True)


def test_complete_facing_a_bring_in_raises_it_to_the_small_bet() -> None:
    reading = read(words("complete"), STUD_THIRD_STREET)
    assert (reading.action, reading.amount) == (ActionKind.COMPLETE, 20)
    assert str(reading.rule) == "tda-2022 3"


def test_chips_half_way_to_the_completion_must_complete_and_less_is_a_call_of_the_bring_in() -> None:
    assert read(chips(10, 5), STUD_THIRD_STREET).as_event(3) == PlayerActed(3, ActionKind.COMPLETE, 20)
    short = read(chips(10, 1, 1), STUD_THIRD_STREET)
    assert (short.action, short.amount, short.returned) == (ActionKind.CALL, 5, 7)


def test_all_in_in_fixed_limit_is_the_fixed_raise_and_cites_the_bet_size_rule() -> None:
    reading = read(words("all in"), context(20, 20, structure=FL, stack=1000))
    assert (reading.action, reading.amount) == (ActionKind.RAISE, 40)
    assert str(reading.rule) == "tda-2022 52-A"


@pytest.mark.parametrize(
    ("text", "declaration"),
    [
        ("I'm all in", Declaration(Declared.ALL_IN)),
        ("raise 8k", Declaration(Declared.RAISE, 8000)),
        ("four hundred and fifty", Declaration(None, 450)),
        ("make it twelve hundred", Declaration(None, 1200)),
    ],
)
def test_table_talk_around_the_words_is_ignored(text: str, declaration: Declaration) -> None:
    assert parse_declaration(text) == declaration


# --- every reading stays within the rules, whatever the chips ---------------------------------------------


DENOMINATIONS = (25, 100, 500, 1000, 5000)


@st.composite
def betting_moments(draw: st.DrawFn) -> tuple[BettingContext, RawAct, str]:
    structure = draw(st.sampled_from(list(BettingStructure)))
    big_blind = draw(st.sampled_from((100, 200, 400)))
    opened = draw(st.booleans())
    last_raise = draw(st.integers(1, 10)) * big_blind if opened else big_blind
    current = draw(st.integers(1, 20)) * big_blind if opened else 0
    committed = draw(st.integers(0, current)) if opened else 0
    stack = draw(st.integers(1, 200)) * 100
    pot = current + draw(st.integers(0, 100)) * 100
    ctx = BettingContext(
        structure, current, committed, stack, last_raise, big_blind, pot, heads_up=draw(st.booleans())
    )
    pushed = draw(st.lists(st.sampled_from(DENOMINATIONS), min_size=1, max_size=8))
    if sum(pushed) > stack:
        pushed = pushed[:1] if pushed[0] <= stack else [stack]
    book = draw(st.sampled_from(("bfsp", "tda-2022", "tda-2017", "tda-club")))
    return ctx, RawAct(chips=ChipsPlaced.one_motion(*pushed)), book


@given(betting_moments())
def test_silent_chips_always_read_as_a_legal_action_with_honest_change(
    moment: tuple[BettingContext, RawAct, str],
) -> None:
    ctx, act, book = moment
    try:
        reading = interpret(act, ctx, get_rulebook(book))
    except RulingRequired:
        return
    if isinstance(reading, Obligation):
        assert set(reading.options) <= {ActionKind.CALL, ActionKind.FOLD}
        return
    assert reading.returned >= 0
    assert act.chips is not None
    paid = ctx.committed + sum(act.chips.motions[0])
    if reading.amount is None:
        assert reading.action is ActionKind.CHECK
        return
    assert reading.amount <= ctx.all_in_total
    if reading.action is ActionKind.CALL:
        assert reading.amount == ctx.call_total
    else:
        assert min(ctx.minimum_total, ctx.all_in_total) <= reading.amount <= ctx.maximum_total
    assert (
        reading.amount + reading.returned >= min(paid, ctx.all_in_total)
        or reading.action is not ActionKind.CALL
    )


@given(
    betting_moments(), st.sampled_from([None, *Declared]), st.none() | st.integers(1, 50_000), st.booleans()
)
def test_declarations_always_read_as_a_legal_action(
    moment: tuple[BettingContext, RawAct, str], kind: Declared | None, amount: int | None, bare: bool
) -> None:
    ctx, _, book = moment
    if kind is None and amount is None:
        amount = 500
    said = Declaration(kind, amount, bare=bare and amount is not None and amount < 100)
    try:
        reading = interpret(RawAct(said), ctx, get_rulebook(book))
    except RulingRequired:
        return
    if isinstance(reading, Obligation):
        if reading.minimum is not None:
            assert reading.maximum is not None and reading.minimum <= reading.maximum
        return
    if reading.amount is None:
        assert reading.action in (ActionKind.CHECK, ActionKind.FOLD)
        return
    assert reading.amount <= ctx.all_in_total
    if reading.action is ActionKind.CALL:
        assert reading.amount == ctx.call_total
    else:
        assert min(ctx.minimum_total, ctx.all_in_total) <= reading.amount <= ctx.maximum_total
