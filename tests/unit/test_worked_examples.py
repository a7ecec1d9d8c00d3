"""The worked examples of ../shared/rules that decide how a raw act is read, as tests whose ids are the TV ids.

``TV-nn`` are TDA 2022's (§4 of its digest), ``2017/TV-nn`` the TDA 2017 digest's (§3), ``bfsp-…`` the
federation's own examples (4.7, 4.9.6, 4.10–4.14). docs/WORKED_EXAMPLES.md lists every id and its test.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hand_table import Table, start

from domain.errors import HandStateError, RuleRef, RulingRequired
from domain.hand.events import (
    ActionKind,
    ActionObliged,
    HandStarted,
    RawActReported,
    RulingRequested,
    SeatEntry,
    Stakes,
)
from domain.hand.interpretation import (
    BettingContext,
    ChipsPlaced,
    Declaration,
    Declared,
    Interpreted,
    Obligation,
    RawAct,
    ShowRequest,
    Timing,
    Wager,
    answer_show_request,
    interpret,
    parse_declaration,
    pot_limit_maximum,
    pot_limit_pot,
    resolve_out_of_turn,
    skipped_player_ruling,
    substantial_action,
)
from domain.hand.raw_acts import InterpretedAct
from domain.hand.state import HandState
from domain.rulebooks import get_rulebook
from domain.variants import BettingStructure

pytestmark = pytest.mark.unit

FOLD, CHECK, CALL, BET, RAISE = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)


def ctx(
    bet: int,
    last_raise: int,
    *,
    committed: int = 0,
    stack: int = 1_000_000,
    bb: int = 100,
    pot: int = 0,
    structure: BettingStructure = BettingStructure.NO_LIMIT,
    opening: bool = True,
    heads_up: bool = False,
    pending: bool = False,
) -> BettingContext:
    return BettingContext(structure, bet, committed, stack, last_raise, bb, pot, opening, heads_up, pending)


def said(words: str, *, clear: bool = True) -> RawAct:
    return RawAct(declaration=parse_declaration(words, clear=clear))


def pushed(*chips: int, pulled_back: int = 0, in_front: int | None = None) -> RawAct:
    return RawAct(chips=ChipsPlaced.one_motion(*chips, pulled_back=pulled_back, in_front=in_front))


def both(words: str, chips: tuple[int, ...], timing: Timing, *, clear: bool = True) -> RawAct:
    return RawAct(parse_declaration(words, clear=clear), ChipsPlaced.one_motion(*chips), timing)


@dataclass(frozen=True)
class Reads:
    action: ActionKind
    amount: int | None
    returned: int | None = None
    all_in: bool | None = None


@dataclass(frozen=True)
class Binds:
    options: tuple[ActionKind, ...]
    minimum: int | None = None


@dataclass(frozen=True)
class AsksForRuling:
    rule: str


@dataclass(frozen=True)
class Case:
    id: str
    act: RawAct
    context: BettingContext
    expect: Reads | Binds | AsksForRuling
    rulebook: str = "tda-2022"


CASES = [
    # --- TDA 2022 §4.1 betting interpretation ---
    Case("TV-01-words", said("two hundred"), ctx(0, 100), Reads(BET, 200)),
    Case("TV-01-chips", pushed(100, 100), ctx(0, 100), Reads(BET, 200)),
    Case(
        "TV-02-verbal-first", both("raise", (5000,), Timing.VERBAL_FIRST), ctx(2000, 2000), Reads(RAISE, 5000)
    ),
    Case(
        "TV-02-chips-first",
        both("raise", (5000,), Timing.CHIPS_FIRST),
        ctx(2000, 2000),
        Reads(CALL, 2000, 3000),
    ),
    Case("TV-03", both("raise", (5000,), Timing.SIMULTANEOUS), ctx(2000, 2000), Reads(RAISE, 5000)),
    Case(
        "TV-04",
        both("raise", (5000,), Timing.SIMULTANEOUS, clear=False),
        ctx(2000, 2000),
        Reads(CALL, 2000, 3000),
    ),
    Case("TV-05", pushed(1000), ctx(50_000, 50_000, bb=4000), AsksForRuling("41")),
    Case("TV-06-words", said("fourteen hundred"), ctx(1000, 1000), Reads(CALL, 1000)),
    Case("TV-06-chips", pushed(1000, 100, 100, 100, 100), ctx(1000, 1000), Reads(CALL, 1000, 400)),
    Case("TV-07", said("raise, eight thousand"), ctx(2000, 2000), Reads(RAISE, 8000)),
    Case("TV-08", pushed(5000), ctx(2000, 2000), Reads(CALL, 2000, 3000, all_in=False)),
    Case("TV-08-last-chip", pushed(5000), ctx(2000, 2000, stack=5000), Reads(CALL, 2000, 3000, all_in=False)),
    Case("TV-09", both("raise", (5000,), Timing.VERBAL_FIRST), ctx(2000, 2000), Reads(RAISE, 5000)),
    Case("TV-10", pushed(5000), ctx(0, 100), Reads(BET, 5000)),
    Case("TV-11", pushed(500, 1000), ctx(1100, 700), Reads(CALL, 1100, 400)),
    Case(
        "TV-12", pushed(1000, 1000), ctx(1050, 1050, bb=50, stack=2000), Reads(CALL, 1050, 950, all_in=False)
    ),
    Case("TV-13", pushed(1000, 1000), ctx(1200, 1200), Reads(CALL, 1200, 800)),
    Case("TV-14", pushed(500, 1000), ctx(1100, 600, bb=500), Reads(CALL, 1100, 400)),
    Case("TV-15", pushed(1000, 100, 100, 100, 100, 100), ctx(1100, 600, bb=500), Reads(RAISE, 1700, 0)),
    Case("TV-16", pushed(1000, 100, 100, 100), ctx(1100, 600, bb=500), Reads(CALL, 1100, 200)),
    Case("TV-17", pushed(1000, 500, 500, 500), ctx(1400, 1400), Reads(RAISE, 2800, 0)),
    Case("TV-18", pushed(1000, 500, 500), ctx(1400, 1400), Reads(CALL, 1400, 600)),
    Case(
        "TV-19-2500",
        pushed(1000, 500, 500, 500),
        ctx(1400, 1400, stack=2500),
        Reads(RAISE, 2500, all_in=True),
    ),
    Case("TV-19-2000", pushed(1000, 500, 500), ctx(1400, 1400, stack=2000), Reads(RAISE, 2000, all_in=True)),
    Case("TV-20", pushed(500, 25), ctx(325, 325, bb=25), Reads(RAISE, 650, 0)),
    Case("TV-21", said("call"), ctx(0, 100), Reads(CHECK, None)),
    Case("TV-22", said("raise"), ctx(0, 100), Binds((BET,), minimum=100)),
    Case("TV-23", said("check"), ctx(300, 300), Binds((CALL, FOLD))),
    Case("TV-24", said("pot"), ctx(0, 100), Binds((BET,), minimum=100)),
    Case("TV-25", said("pot"), ctx(300, 300), Binds((RAISE,), minimum=600)),
    Case("TV-26", said("I bet five"), ctx(0, 400, bb=400, pot=3000), Reads(BET, 500)),
    Case("TV-27", said("I bet five"), ctx(0, 400, bb=400, pot=5000), Reads(BET, 5000)),
    Case("TV-28-raise", said("raise"), ctx(100, 100), Binds((RAISE,), minimum=200)),
    Case("TV-28-fold", said("fold"), ctx(100, 100, pending=True), Reads(FOLD, None)),
    Case("TV-29", said("call"), ctx(100, 100, pending=True), AsksForRuling("59-B")),
    Case(
        "TV-30",
        both("forty-two thousand", (5000,), Timing.VERBAL_FIRST, clear=False),
        ctx(0, 1000, bb=1000),
        AsksForRuling("40"),
    ),
    # --- TDA 2022 §4.4 undercalls ---
    Case("TV-53", pushed(1000, 1000), ctx(8000, 6000, bb=2000, opening=False), AsksForRuling("51-B")),
    Case("TV-54", pushed(1000, 1000), ctx(8000, 8000, bb=2000), Reads(CALL, 8000)),
    Case("TV-55", said("call"), ctx(8000, 6000, bb=2000, opening=False), Reads(CALL, 8000)),
    Case(
        "TV-56", pushed(1000, 1000), ctx(8000, 6000, bb=2000, opening=False, heads_up=True), Reads(CALL, 8000)
    ),
    # --- TDA 2017 digest §3 ---
    Case("2017/TV-01", pushed(1000, 1000), ctx(1200, 800, bb=400), Reads(CALL, 1200, 800), "tda-2017"),
    Case(
        "2017/TV-04-small-pot", said("I bet five"), ctx(0, 400, bb=400, pot=3000), Reads(BET, 500), "tda-2017"
    ),
    Case(
        "2017/TV-04-big-pot", said("I bet five"), ctx(0, 400, bb=400, pot=5000), Reads(BET, 5000), "tda-2017"
    ),
    Case("2017/TV-05", pushed(500, 25), ctx(325, 325, bb=25), Reads(RAISE, 650), "tda-2017"),
    Case("2017/TV-06", said("raise eight thousand"), ctx(2000, 2000), Reads(RAISE, 8000), "tda-2017"),
    Case("2017/TV-07-words", said("fourteen hundred"), ctx(1000, 1000), Reads(CALL, 1000), "tda-2017"),
    Case(
        "2017/TV-07-chips",
        pushed(1000, 100, 100, 100, 100),
        ctx(1000, 1000),
        Reads(CALL, 1000, 400),
        "tda-2017",
    ),
    Case("2017/TV-08", pushed(1000), ctx(50_000, 50_000, bb=4000), AsksForRuling("D-44"), "tda-2017"),
    Case(
        "2017/TV-09",
        pushed(1000, 1000),
        ctx(8000, 6000, bb=2000, opening=False),
        AsksForRuling("D-41"),
        "tda-2017",
    ),
    Case("2017/TV-10", pushed(1000, 1000), ctx(8000, 8000, bb=2000), Reads(CALL, 8000), "tda-2017"),
    Case("2017/TV-11", said("call"), ctx(8000, 6000, bb=2000, opening=False), Reads(CALL, 8000), "tda-2017"),
    Case("2017/TV-30", pushed(1000, 1000), ctx(1200, 1200), Reads(CALL, 1200), "tda-2017"),
    Case("2017/TV-31", pushed(500, 1000), ctx(1100, 600, bb=500), Reads(CALL, 1100, 400), "tda-2017"),
    Case(
        "2017/TV-32",
        pushed(1000, 100, 100, 100, 100, 100),
        ctx(1100, 600, bb=500),
        Reads(RAISE, 1700),
        "tda-2017",
    ),
    Case(
        "2017/TV-33", pushed(1000, 100, 100, 100), ctx(1100, 600, bb=500), Reads(CALL, 1100, 200), "tda-2017"
    ),
    Case(
        "2017/TV-34-A",
        pushed(1000, 1000),
        ctx(1200, 1200, stack=2000),
        Reads(CALL, 1200, 800, all_in=False),
        "tda-2017",
    ),
    Case(
        "2017/TV-34-B",
        pushed(1000, 500, 500),
        ctx(1400, 1400, stack=2000),
        Reads(RAISE, 2000, all_in=True),
        "tda-2017",
    ),
    Case(
        "2017/TV-35-one-chip", pushed(1000), ctx(600, 550, committed=50, bb=50), Reads(CALL, 600), "tda-2017"
    ),
    Case(
        "2017/TV-35-two-500s",
        pushed(500, 500),
        ctx(600, 550, committed=50, bb=50),
        Reads(CALL, 600),
        "tda-2017",
    ),
    Case(
        "2017/TV-35-100-500",
        pushed(100, 500),
        ctx(600, 550, committed=50, bb=50),
        Reads(CALL, 600),
        "tda-2017",
    ),
    Case(
        "2017/TV-35-1000-500",
        pushed(1000, 500),
        ctx(600, 550, committed=50, bb=50),
        Reads(RAISE, 1550),
        "tda-2017",
    ),
    Case(
        "2017/TV-36-all-back-one-chip",
        pushed(1000, pulled_back=50),
        ctx(600, 550, committed=50, bb=50),
        Reads(CALL, 600, 400),
        "tda-2017",
    ),
    Case(
        "2017/TV-36-all-back-chips",
        pushed(500, 500, 100, pulled_back=50),
        ctx(600, 550, committed=50, bb=50),
        Reads(RAISE, 1150),
        "tda-2017",
    ),
    Case(
        "2017/TV-36-part-back",
        pushed(1000, pulled_back=25),
        ctx(600, 550, committed=50, bb=50),
        Reads(RAISE, 1150),
        "tda-2017",
    ),
    Case(
        "2017/TV-37",
        pushed(100, in_front=1000),
        ctx(700, 600, committed=100, bb=100),
        Reads(RAISE, 1300),
        "tda-2017",
    ),
    Case(
        "2017/TV-38",
        pushed(1000, 1000, 500, 25),
        ctx(600, 550, stack=2525, bb=50),
        Reads(RAISE, 2525, all_in=True),
        "tda-2017",
    ),
    Case(
        "2017/TV-48",
        both("forty-two thousand", (5000,), Timing.VERBAL_FIRST, clear=False),
        ctx(0, 1000, bb=1000),
        AsksForRuling("D-39"),
        "tda-2017",
    ),
    # --- the federation's own examples, bfsp 4.7, 4.9.6, 4.11-4.14 ---
    Case(
        "bfsp-4.11-string-bet",
        RawAct(chips=ChipsPlaced(((100,), (100, 100)))),
        ctx(100, 100),
        Reads(CALL, 100),
        "bfsp",
    ),
    Case("bfsp-4.12-call", pushed(100), ctx(50, 50, bb=50), Reads(CALL, 50, 50), "bfsp"),
    Case("bfsp-4.12-no-limit-open", pushed(1000), ctx(0, 100, pot=150), Reads(BET, 1000), "bfsp"),
    Case(
        "bfsp-4.12-pot-limit-open",
        pushed(1000),
        ctx(0, 100, pot=150, structure=BettingStructure.POT_LIMIT),
        Reads(BET, 150, 850),
        "bfsp",
    ),
    Case(
        "bfsp-4.14.2-fixed-limit",
        pushed(100, 100),
        ctx(120, 60, bb=60, structure=BettingStructure.FIXED_LIMIT),
        Reads(CALL, 120, 80),
        "bfsp",
    ),
    Case(
        "bfsp-4.14.2-pot-limit",
        pushed(500),
        ctx(100, 100, pot=200, structure=BettingStructure.POT_LIMIT),
        Reads(CALL, 100, 400),
        "bfsp",
    ),
    Case(
        "bfsp-4.14.2-no-limit-raise",
        both("raise", (500,), Timing.VERBAL_FIRST),
        ctx(100, 100),
        Reads(RAISE, 500),
        "bfsp",
    ),
    Case(
        "bfsp-4.14.3-pot-limit",
        pushed(100, 100, 100, 100, 100),
        ctx(100, 100, pot=200, structure=BettingStructure.POT_LIMIT),
        Reads(RAISE, 400, 100),
        "bfsp",
    ),
    Case(
        "bfsp-4.13-undercall",
        pushed(100, 100),
        ctx(600, 300, bb=100, opening=False),
        Binds((CALL, FOLD)),
        "bfsp",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_a_raw_act_is_read_the_way_the_worked_example_rules(case: Case) -> None:
    rulebook = get_rulebook(case.rulebook)
    expect = case.expect
    if isinstance(expect, AsksForRuling):
        with pytest.raises(RulingRequired) as asked:
            interpret(case.act, case.context, rulebook)
        assert asked.value.rule.rule == expect.rule
        return
    reading = interpret(case.act, case.context, rulebook)
    if isinstance(expect, Binds):
        assert isinstance(reading, Obligation), reading
        assert reading.options == expect.options
        if expect.minimum is not None:
            assert reading.minimum == expect.minimum
        return
    assert isinstance(reading, Interpreted), reading
    assert (reading.action, reading.amount) == (expect.action, expect.amount), str(reading)
    if expect.returned is not None:
        assert reading.returned == expect.returned, str(reading)
    if expect.all_in is not None:
        assert reading.all_in is expect.all_in, str(reading)


def _hand_in(case: Case) -> tuple[HandState, int] | None:
    """A real hand whose betting, when ``case``'s player is to act, is the example's: no blinds (so a pot of
    nothing but the street's bets), equal antes where the example has dead money, the bets and raises before him
    made as actions. None where the example's situation is not one a hand reaches this way (an amount pending, a
    fixed-limit round, an out-of-turn act, a pot no antes make)."""
    x = case.context
    if x.amount_pending or x.structure is BettingStructure.FIXED_LIMIT or case.act.out_of_turn:
        return None
    bet, full, c, bb = x.current_bet, x.last_full_raise, x.committed, x.big_blind
    opener = bet - full  # the bet a raise to ``bet`` by ``full`` was made over
    if bet == 0:
        street, needed = 0, 2
    elif c:
        street, needed = c + bet, 2
    elif full == max(bb, bet):
        street, needed = bet, 2
    elif bb <= opener <= full and not x.heads_up:
        street, needed = opener + bet, 3
    else:
        return None
    sizes = [2] if x.heads_up else [3, 4, 5, 6]
    ante = 0
    if x.pot:
        fits = [n for n in sizes if n >= needed and x.pot > street and (x.pot - street) % n == 0]
        if not fits:
            return None
        n, ante = fits[0], (x.pot - street) // fits[0]
    else:
        n = max(needed, sizes[0])
    actor = 1 if bet == 0 or c else (2 if opener <= 0 or full == max(bb, bet) else 3)
    stacks = {s: 100_000_000 for s in range(1, n + 1)}
    stacks[actor] = x.stack + c + ante
    started = HandStarted(
        "t", 1, "PT" if x.structure is BettingStructure.POT_LIMIT else "NT",
        tuple(SeatEntry(s, f"P{s}", stacks[s]) for s in range(1, n + 1)), n,
        Stakes(antes=tuple((s, ante) for s in range(1, n + 1)) if ante else (), min_bet=bb),
        rulebook=case.rulebook, burns_recorded=False,
    )  # fmt: skip
    table = Table(HandState.start(started, get_rulebook(case.rulebook)), get_rulebook(case.rulebook)).post().deal()
    if c:
        table.acts((1, BET, c), (2, RAISE, bet), *((s, FOLD) for s in range(3, n + 1)))
    elif bet and actor == 2:
        table.act(1, BET, bet)
    elif bet:
        table.acts((1, BET, opener), (2, RAISE, bet))
    seen = table.state.betting_context(actor)
    same = (seen.current_bet, seen.last_full_raise, seen.committed, seen.stack) == (bet, full, c, x.stack)
    if not same or (x.pot and seen.pot != x.pot) or table.state.actor != actor:
        return None
    return table.state, actor


#: the examples a hand reaches as :func:`_hand_in` builds it; the rest are read by ``interpret`` alone
ENGINE_CASES = [case for case in CASES if _hand_in(case) is not None]


@pytest.mark.parametrize("case", ENGINE_CASES, ids=[c.id for c in ENGINE_CASES])
def test_the_engine_reads_the_raw_act_in_a_real_hand_as_the_worked_example_rules(case: Case) -> None:
    """The same examples, each as a ``RawActReported`` applied to a hand in the example's situation."""
    built = _hand_in(case)
    assert built is not None
    state, seat = built
    state.apply(RawActReported(seat, case.act))
    (reading,) = state.readings
    expect = case.expect
    if isinstance(expect, AsksForRuling):
        assert isinstance(reading, RulingRequested) and reading.rule.split(" ")[1] == expect.rule, reading
        return
    if isinstance(expect, Binds):
        assert isinstance(reading, ActionObliged) and reading.options == expect.options, reading
        assert expect.minimum is None or reading.minimum == expect.minimum
        return
    assert isinstance(reading, InterpretedAct), reading
    assert (reading.event.action, reading.event.amount) == (expect.action, expect.amount), reading
    assert expect.returned is None or reading.returned == expect.returned
    assert expect.all_in is None or (state.stacks[seat] == 0) is expect.all_in


def test_most_worked_examples_of_raw_acts_are_driven_through_the_engine() -> None:
    assert len(ENGINE_CASES) >= 0.8 * len(CASES), [c.id for c in CASES if c not in ENGINE_CASES]


@pytest.mark.parametrize("case", [c for c in CASES if c.id in ("TV-28-fold", "TV-29")], ids=["TV-28-fold", "TV-29"])
def test_an_act_before_the_bets_amount_is_stated_waits_for_it_then_binds_or_goes_to_the_director(case: Case) -> None:
    """TDA 2022 50-B, 59-B in a hand: NLHE 50-100, seat 3 first to act says "raise" and has not said how much
    when seat 4 speaks. Seat 4's act waits for the amount; then a fold binds (50-A) and a "call" is the
    director's, who knows by then what the call is and may hold him to it."""
    rulebook = get_rulebook(case.rulebook)
    table = start(stacks=(10_000,) * 4, rulebook=rulebook).post().deal()
    table.apply(RawActReported(3, said("raise")))  # bound to raise, the amount still to come
    assert table.state.obligation is not None and table.state.betting_context(4).current_bet == 100
    assert table.apply(RawActReported(4, case.act)) == () and table.state.readings == []
    assert (table.state.actor, table.state.bets[4], table.state.folded) == (3, 0, set())
    table.apply(RawActReported(3, said("raise, six hundred")))  # the amount: now it is seat 4's turn
    stated, reading = table.state.readings
    assert isinstance(stated, InterpretedAct) and (stated.event.action, stated.event.amount) == (RAISE, 600)
    if isinstance(case.expect, Reads):
        assert isinstance(reading, InterpretedAct) and reading.event.action is FOLD
        assert reading.rule == RuleRef("tda-2022", "50-A") and "before the bet's amount" in reading.reason
        assert 4 in table.state.folded and table.state.actor == 1
        return
    assert isinstance(case.expect, AsksForRuling)
    assert isinstance(reading, RulingRequested) and (reading.seat, reading.rule) == (4, "tda-2022 59-B")
    assert "600" in reading.reason and table.state.ruling is not None
    with pytest.raises(HandStateError, match="ruling"):
        table.apply(RawActReported(1, said("fold")))  # the hand waits for the director
    table.act(4, CALL)  # his ruling, entered: he is held to the call of 600
    assert table.state.bets[4] == 600 and table.state.ruling is None and table.state.actor == 1


@pytest.mark.parametrize("example", ["bfsp-4.14.2-fixed-limit"])
def test_in_fixed_limit_two_100s_silently_raise_to_120_then_call_it_and_each_takes_80_back(example: str) -> None:
    """bfsp 4.14.2 in a fixed-limit hand (30-60 blinds, a 60 small bet): P1 bets 60; P2 puts in two 100s, a raise
    to the limit's 120; P3 puts in two 100s too, with no raise gesture: a call of 120. Both take back 80."""
    bfsp = get_rulebook("bfsp")
    table = start("FT", stacks=(10_000,) * 3, blinds=(30, 60), small_bet=60, big_bet=120, rulebook=bfsp)
    table.post().deal().acts((3, CALL), (1, CALL), (2, CHECK))
    table.board("QhJh4c")
    table.act(1, BET, 60)
    for seat, action in ((2, RAISE), (3, CALL)):
        table.apply(RawActReported(seat, pushed(100, 100)))
        (reading,) = table.state.readings
        assert isinstance(reading, InterpretedAct)
        assert (reading.event.action, reading.event.amount, reading.returned) == (action, 120, 80)
        assert table.state.stacks[seat] == 10_000 - 60 - 120
    assert table.state.actor == 1


# --- pot-limit pot size: TDA 2022 §4.2, TDA 2017 TV-02, bfsp 4.7.2 and 4.9.6 -----------------------------


def test_tv_31_a_short_all_in_big_blind_counts_as_a_full_blind_before_the_flop() -> None:
    pot, bet = pot_limit_pot(0, [Wager(50), Wager(75, full_blind=100)], preflop=True)
    assert (pot, bet) == (150, 100)
    assert pot_limit_maximum(pot, bet, committed=0) == 350


def test_2017_tv_02_the_next_players_pot_raise_over_a_short_big_blind_is_350() -> None:
    pot, bet = pot_limit_pot(0, [Wager(50), Wager(75, full_blind=100)], preflop=True)
    reading = interpret(
        said("pot"), ctx(bet, 100, pot=pot, structure=BettingStructure.POT_LIMIT), get_rulebook("tda-2017")
    )
    assert isinstance(reading, Interpreted)
    assert (reading.action, reading.amount) == (RAISE, 350)


def test_tv_32_after_the_flop_the_actual_amounts_size_the_pot() -> None:
    pot, bet = pot_limit_pot(500, [Wager(75, full_blind=100)], preflop=False)
    assert (pot, bet) == (575, 75)
    assert pot_limit_maximum(pot, bet, committed=0) == 725


@pytest.mark.parametrize(
    ("pot", "bet", "committed", "maximum"),
    [
        pytest.param(100, 0, 0, 100, id="bfsp-4.7.2-bet"),
        pytest.param(200, 100, 0, 400, id="bfsp-4.7.2-raise"),
        pytest.param(310, 180, 0, 670, id="bfsp-4.9.6-reraise"),
    ],
)
def test_the_federations_pot_limit_maximum_is_the_call_then_the_pot(
    pot: int, bet: int, committed: int, maximum: int
) -> None:
    assert pot_limit_maximum(pot, bet, committed) == maximum


# --- out of turn: TDA 2022 §4.5, TDA 2017 TV-15 to TV-18, bfsp 4.10 and 4.13 -------------------------------


def _oot(words: str, context: BettingContext, book: str = "tda-2022") -> Interpreted:
    reading = interpret(RawAct(parse_declaration(words), out_of_turn=True), context, get_rulebook(book))
    assert isinstance(reading, Interpreted)
    assert reading.out_of_turn
    return reading


@pytest.mark.parametrize(
    ("words", "bet", "skipped", "binds_as"),
    [
        pytest.param("raise, eight hundred", 300, [CALL], (RAISE, 800), id="TV-58-skipped-calls"),
        pytest.param("raise, eight hundred", 300, [FOLD], (RAISE, 800), id="TV-58-skipped-folds"),
        pytest.param("check", 0, [CHECK], (CHECK, None), id="TV-60"),
        pytest.param("fold", 300, [RAISE], (FOLD, None), id="TV-62"),
        pytest.param("raise, eight hundred", 300, [CALL], (RAISE, 800), id="2017/TV-15-skipped-calls"),
        pytest.param("check", 0, [CHECK], (CHECK, None), id="2017/TV-16-skipped-checks"),
    ],
)
def test_an_out_of_turn_act_binds_when_the_action_to_him_did_not_change(
    words: str, bet: int, skipped: list[ActionKind], binds_as: tuple[ActionKind, int | None]
) -> None:
    rulebook = get_rulebook("tda-2022")
    result = resolve_out_of_turn(_oot(words, ctx(bet, max(bet, 100))), skipped, rulebook)
    assert isinstance(result, Interpreted)
    assert (result.action, result.amount) == binds_as
    assert str(result.rule) == "tda-2022 53"


@pytest.mark.parametrize(
    ("words", "bet", "skipped"),
    [
        pytest.param("raise, eight hundred", 300, [RAISE], id="TV-59"),
        pytest.param("check", 0, [BET], id="TV-61"),
        pytest.param("raise, eight hundred", 300, [RAISE], id="2017/TV-15-skipped-raises"),
        pytest.param("check", 0, [BET], id="2017/TV-16-skipped-bets"),
    ],
)
def test_an_out_of_turn_act_is_released_with_every_option_when_the_action_changed(
    words: str, bet: int, skipped: list[ActionKind]
) -> None:
    reading = _oot(words, ctx(bet, max(bet, 100)))
    result = resolve_out_of_turn(reading, skipped, get_rulebook("tda-2022"))
    assert isinstance(result, Obligation)
    assert set(result.options) == {FOLD, CALL, RAISE}
    assert result.returned == (reading.amount or 0)
    assert result.forfeit_on_fold == 0


@pytest.mark.parametrize("tv", ["TV-63", "2017/TV-17", "2017/TV-18"])
def test_silence_through_substantial_action_binds_the_out_of_turn_act_and_the_floor_rules_on_the_skipped_seat(
    tv: str,
) -> None:
    book = "tda-2017" if tv.startswith("2017") else "tda-2022"
    rulebook = get_rulebook(book)
    after = [CHECK, CALL] if tv == "2017/TV-18" else [CALL, FOLD]
    assert substantial_action(after, rulebook)
    call = resolve_out_of_turn(_oot("call", ctx(600, 400, bb=200), book), [], rulebook)
    assert isinstance(call, Interpreted)
    assert (call.action, call.amount) == (CALL, 600)
    ruling = skipped_player_ruling(4, rulebook)
    assert isinstance(ruling, RulingRequired)
    assert ruling.rule.rule == ("53-B" if book == "tda-2022" else "D-43")


def test_bfsp_4_10_an_out_of_turn_bet_stays_in_the_pot_when_the_action_changes() -> None:
    reading = _oot("raise, eight hundred", ctx(300, 300), "bfsp")
    result = resolve_out_of_turn(reading, [RAISE], get_rulebook("bfsp"))
    assert isinstance(result, Obligation)
    assert set(result.options) == {FOLD, CALL, RAISE}
    assert (result.returned, result.forfeit_on_fold) == (0, 800)
    assert str(result.rule) == "bfsp 4.10"


def test_bfsp_4_13_a_call_the_dealer_invited_too_early_may_be_taken_back_when_a_reraise_follows() -> None:
    reading = _oot("call", ctx(600, 400, bb=200), "bfsp")
    result = resolve_out_of_turn(reading, [RAISE], get_rulebook("bfsp"), invited_by_dealer=True)
    assert isinstance(result, Obligation)
    assert result.options == (CALL, FOLD)
    assert result.returned == 600


# --- asking to see a hand: TDA 2022 18 (TV-88, TV-89), TDA 2017 TV-42, TV-43 ------------------------------------

NO_RIGHT, RIGHT, DIRECTOR = "no right", "right", "director"


@pytest.mark.parametrize(
    ("request_", "answer"),
    [
        pytest.param(ShowRequest(False, False, False, False), NO_RIGHT, id="TV-88-A-mucked"),
        pytest.param(ShowRequest(True, False, False, False), DIRECTOR, id="TV-88-B-asks-to-see-C"),
        pytest.param(ShowRequest(False, False, False, False), NO_RIGHT, id="TV-88-C-pushed-face-down"),
        pytest.param(ShowRequest(True, True, True, True), RIGHT, id="TV-89-A-and-B-see-C"),
        pytest.param(ShowRequest(False, True, True, True), NO_RIGHT, id="TV-89-D-mucked"),
        pytest.param(ShowRequest(True, True, False, True), DIRECTOR, id="TV-89-B-asks-to-see-A"),
        pytest.param(ShowRequest(True, False, False, False), DIRECTOR, id="2017/TV-42"),
        pytest.param(ShowRequest(True, True, True, True), RIGHT, id="2017/TV-43-A-and-B-see-C"),
        pytest.param(ShowRequest(False, True, True, True), NO_RIGHT, id="2017/TV-43-D-mucked"),
    ],
)
def test_only_a_caller_who_kept_his_cards_may_insist_on_seeing_the_last_aggressor(
    request_: ShowRequest, answer: str
) -> None:
    rulebook = get_rulebook("tda-2022")
    if answer == DIRECTOR:
        with pytest.raises(RulingRequired) as asked:
            answer_show_request(request_, rulebook)
        assert str(asked.value.rule) == "tda-2022 18"
        return
    assert answer_show_request(request_, rulebook).granted is (answer == RIGHT)


def test_bfsp_5_9_2_a_hand_mucked_unshown_is_not_turned_up() -> None:
    shown = answer_show_request(ShowRequest(True, True, True, True, target_mucked=True), get_rulebook("bfsp"))
    assert not shown.granted
    assert str(shown.rule) == "bfsp 5.9.2"


# --- substantial action, TDA 2022 §4.6 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("actions", "substantial"),
    [
        pytest.param([FOLD, CALL], True, id="TV-64"),
        pytest.param([CHECK, CHECK], False, id="TV-65"),
        pytest.param([FOLD, FOLD], False, id="TV-66"),
        pytest.param([CHECK, FOLD], False, id="TV-67"),
        pytest.param([FOLD, FOLD, FOLD], True, id="TV-68"),
        pytest.param([CALL], False, id="TV-69"),
    ],
)
def test_substantial_action_is_two_actions_one_with_chips_or_any_three(
    actions: list[ActionKind], substantial: bool
) -> None:
    assert substantial_action(actions, get_rulebook("tda-2022")) is substantial


def test_the_declared_words_parse_into_kind_and_amount() -> None:
    assert parse_declaration("raise, eight thousand") == Declaration(Declared.RAISE, 8000)
    assert parse_declaration("forty-two thousand") == Declaration(None, 42_000)
    assert parse_declaration("I bet five") == Declaration(Declared.BET, 5, bare=True)
