"""Whole hands of every variant, end to end: the 2023 WSOP $50,000 Players Championship final table (nine
games, 83 hands with recorded finishing stacks) and the historical hands of the shared PHH set.

The PHH actions are read here with a few lines of test code, straight into the engine, so that these tests
judge the engine alone (the importer in ingest/ has its own tests): ``cc`` is a check when the engine allows
one, ``cbr`` is whatever aggressive act the engine names, a draw is the discard plus the cards dealt for it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from domain.cards import parse_cards
from domain.errors import HandError, IllegalActionError
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardsDiscarded,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.hand.legal import NextActKind
from domain.hand.state import HandState, Phase
from domain.variants import VARIANTS, BettingStructure

pytestmark = pytest.mark.unit

PHH = Path(__file__).resolve().parents[3] / "shared" / "data" / "phh" / "data"
WSOP = sorted((PHH / "wsop" / "2023" / "43" / "5").glob("*.phh"))
RAZZ_RECORD_BREAKS_THE_LIMIT = "03-50-24.phh"


def read(path: Path) -> dict[str, object]:
    with path.open("rb") as fp:
        return tomllib.load(fp)


def scale_of(doc: dict[str, object]) -> int:
    """Chips are integers: a record with cents is counted in cents."""
    return 1 if all(float(x).is_integer() for x in doc["starting_stacks"]) else 100  # type: ignore[attr-defined]


def started(doc: dict[str, object]) -> HandStarted:
    k = scale_of(doc)
    stacks = [round(x * k) for x in doc["starting_stacks"]]  # type: ignore[attr-defined]
    n = len(stacks)
    variant = VARIANTS[doc["variant"]]  # type: ignore[index]
    antes = [round(x * k) for x in doc.get("antes", [0] * n)]  # type: ignore[attr-defined]
    blinds = [round(x * k) for x in doc.get("blinds_or_straddles", [0] * n)]  # type: ignore[attr-defined]
    if n == 2:  # phh-std: heads-up, the forced-bet arrays are reverse-assigned
        antes, blinds = antes[::-1], blinds[::-1]
        order = [2, 1]
    else:
        order = list(range(1, n + 1))
    blind_list = [(p, blinds[p - 1]) for p in order if blinds[p - 1]]
    return HandStarted(
        table_id="wsop",
        hand_number=1,
        variant=variant.code,
        seats=tuple(SeatEntry(i, f"p{i}", s) for i, s in enumerate(stacks, start=1)),
        button=n if variant.uses_button else None,
        stakes=Stakes(
            antes=tuple((i, a) for i, a in enumerate(antes, start=1) if a),
            blinds=tuple(blind_list),
            bring_in=round(doc.get("bring_in", 0) * k),  # type: ignore[operator]
            small_bet=round(doc.get("small_bet", 0) * k),  # type: ignore[operator]
            big_bet=round(doc.get("big_bet", 0) * k),  # type: ignore[operator]
            min_bet=round(doc.get("min_bet", 0) * k),  # type: ignore[operator]
        ),
        burns_recorded=False,
    )


class PhhReplay:
    def __init__(self, doc: dict[str, object]) -> None:
        self.state = HandState.start(started(doc), pytest_rulebook())
        self.scale = scale_of(doc)
        self.pending: list[list[object]] = []  # [seat, discarded, drawn | None]
        while (nxt := self.state.expected_next()).kind is NextActKind.FORCED_BET:
            assert nxt.seat is not None and nxt.forced_bet is not None
            self.state.apply(ForcedBetPosted(nxt.seat, nxt.forced_bet, nxt.amount))

    def run(self, actions: list[str]) -> None:
        for text in actions:
            self.one(text.split())

    def one(self, words: list[str]) -> None:
        s = self.state
        if words[0] == "d":
            if words[1] == "db":
                s.apply(BoardDealt(parse_cards(words[2])))
                return
            seat, dealt = int(words[2][1:]), parse_cards(words[3])
            for draw in self.pending:
                if draw[0] == seat and draw[2] is None:
                    draw[2] = dealt
                    self.flush()
                    return
            s.apply(HoleCardsDealt(seat, dealt))
            return
        seat, verb = int(words[0][1:]), words[1]
        if verb == "sd":
            thrown = parse_cards(words[2]) if len(words) > 2 else ()
            self.pending.append([seat, thrown, None if thrown else ()])
            self.flush()
        elif verb == "sm":
            shown = parse_cards(words[2]) if len(words) > 2 else ()
            s.apply(HandShown(seat, shown) if shown else HandMucked(seat))
        else:
            s.apply(self.action(seat, verb, words[2:]))

    def flush(self) -> None:
        while self.pending and self.pending[0][2] is not None:
            seat, thrown, drawn = self.pending.pop(0)
            self.state.apply(CardsDiscarded(seat, thrown, drawn))  # type: ignore[arg-type]

    def action(self, seat: int, verb: str, rest: list[str]) -> ReportedEvent:
        if verb == "f":
            return PlayerActed(seat, ActionKind.FOLD)
        if verb == "pb":
            return PlayerActed(seat, ActionKind.BRING_IN)
        legal = self.state.legal_actions() if self.state.actor == seat else None
        if verb == "cc":
            check = legal is not None and legal.can_check
            return PlayerActed(seat, ActionKind.CHECK if check else ActionKind.CALL)
        kind = legal.aggressive_action if legal and legal.aggressive_action else ActionKind.RAISE
        return PlayerActed(seat, kind, round(float(rest[0]) * self.scale))


def pytest_rulebook() -> object:
    from domain.rulebooks import get_rulebook

    return get_rulebook("bfsp")


@pytest.mark.parametrize("path", WSOP, ids=[p.stem for p in WSOP])
def test_every_wsop_final_table_hand_ends_with_the_recorded_stacks(path: Path) -> None:
    doc = read(path)
    replay = PhhReplay(doc)
    if path.name == RAZZ_RECORD_BREAKS_THE_LIMIT:
        with pytest.raises(IllegalActionError) as caught:
            replay.run(doc["actions"])  # type: ignore[arg-type]
        assert (
            caught.value.reason
            == "seat 2 raised to 750,000; in this fixed-limit round it must be to 1,200,000"
        )
        return
    replay.run(doc["actions"])  # type: ignore[arg-type]
    state = replay.state
    assert state.is_over
    stacks = state.final_stacks()
    assert [stacks[i] for i in sorted(stacks)] == doc["finishing_stacks"]
    assert sum(stacks.values()) == sum(doc["starting_stacks"])  # type: ignore[arg-type]


def test_the_wsop_final_table_covers_nine_variants() -> None:
    assert {read(p)["variant"] for p in WSOP} == {
        "FO/8",
        "F7S",
        "NT",
        "FR",
        "F2L3D",
        "F7S/8",
        "FT",
        "N2L1D",
        "PO",
    }


HISTORICAL = {
    # file: (variant, winner seat, chips the winner ends with)
    "dwan-ivey-2009.phh": ("NT", None, None),
    "antonius-blom-2009.phh": ("PO", None, None),
    "phua-xuan-2019.phh": ("NS", None, None),
    "arieh-yockey-2019.phh": ("F2L3D", 4, None),
    "alice-carol-wikipedia.phh": ("FB", 2, None),
}


@pytest.mark.parametrize("name", sorted(HISTORICAL))
def test_the_historical_hands_replay_to_the_end_and_conserve_the_chips(name: str) -> None:
    doc = read(PHH / name)
    variant, winner, _ = HISTORICAL[name]
    assert doc["variant"] == variant
    replay = PhhReplay(doc)
    replay.run(doc["actions"])  # type: ignore[arg-type]
    state = replay.state
    assert state.phase is Phase.OVER
    k = scale_of(doc)
    starting = [round(x * k) for x in doc["starting_stacks"]]  # type: ignore[attr-defined]
    assert sum(state.final_stacks().values()) == sum(starting)
    if winner is not None:
        assert state.final_stacks()[winner] > starting[winner - 1]


def test_badugi_carols_eight_high_badugi_beats_alices_nine_high() -> None:
    doc = read(PHH / "alice-carol-wikipedia.phh")
    replay = PhhReplay(doc)
    replay.run(doc["actions"])  # type: ignore[arg-type]
    # Ted folded first; Bob folded after 2 + 2; Alice and Carol put in 16 each
    assert replay.state.final_stacks() == {1: 196, 2: 220, 3: 200, 4: 184}


def test_every_variant_has_the_right_deck_streets_and_structure() -> None:
    expect = {
        "NT": ("standard", BettingStructure.NO_LIMIT, 4, 2),
        "NS": ("short", BettingStructure.NO_LIMIT, 4, 2),
        "PO": ("standard", BettingStructure.POT_LIMIT, 4, 4),
        "FT": ("standard", BettingStructure.FIXED_LIMIT, 4, 2),
        "FO/8": ("standard", BettingStructure.FIXED_LIMIT, 4, 4),
        "F7S": ("standard", BettingStructure.FIXED_LIMIT, 5, 7),
        "F7S/8": ("standard", BettingStructure.FIXED_LIMIT, 5, 7),
        "FR": ("standard", BettingStructure.FIXED_LIMIT, 5, 7),
        "N2L1D": ("standard", BettingStructure.NO_LIMIT, 2, 5),
        "F2L3D": ("standard", BettingStructure.FIXED_LIMIT, 4, 5),
        "FB": ("standard", BettingStructure.FIXED_LIMIT, 4, 4),
    }
    for code, (deck, betting, streets, cards) in expect.items():
        v = VARIANTS[code]
        assert (v.deck, v.betting, len(v.streets), v.hand_size) == (deck, betting, streets, cards), code
    assert [s.big_bet for s in VARIANTS["F2L3D"].streets] == [False, False, True, True]
    assert [s.big_bet for s in VARIANTS["F7S"].streets] == [False, False, True, True, True]
    assert [s.burn for s in VARIANTS["NT"].streets] == [False, True, True, True]


def test_a_refusal_inside_a_replayed_hand_names_its_rule() -> None:
    doc = read(PHH / "wsop" / "2023" / "43" / "5" / RAZZ_RECORD_BREAKS_THE_LIMIT)
    replay = PhhReplay(doc)
    with pytest.raises(HandError) as caught:
        replay.run(doc["actions"])  # type: ignore[arg-type]
    assert str(caught.value.rule) == "bfsp 4.7.3"
