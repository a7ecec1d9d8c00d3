"""Corrections of dealing errors and other irregularities, as the engine checks and applies them.

A button dealt short (TDA 2022 37), a hand with the wrong number of cards ruled dead (bfsp 6.3.7-6.3.9; TDA 2022
38), a hole card exposed in the deal (bfsp 6.3.6, 6.6.1; TDA 2022 35-A), a four-card flop (bfsp 6.6.3; TDA 2022
39-A), a flop dealt without its burn (bfsp 6.6.2, 6.4.6; TDA 2022 39-B), premature board cards (bfsp 6.6.5-6.6.7;
TDA RP-5), a short stub on stud's last street (bfsp 6.5.3; TDA 2022 RP-10-h), a hand mucked by mistake (TDA 2022
15-B, 65-A) and a card from outside the deck (TDA 2022 35-A, 35-D). Each reported correction has its check
(raises, changes nothing) and its application, as in :mod:`domain.hand.deal_acts`; the burn and the board go
through checks here too, because a correction can decide which card the next burn is or that it is already
down. A random pick by the floor is an input of the event that reports it, never a computation. What the rules
leave to the director (whether mucked cards can be recovered, whether chips found behind an all-in were part of
the action) raises :class:`domain.errors.RulingRequired`.

Where the federation's text is silent, the TDA rule it follows is cited (``tda-2022 37``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from domain.cards import Card
from domain.errors import DealingError, HandStateError, IllegalActionError, RuleRef, RulingRequired, chips
from domain.hand.deal_acts import after_deal, check_board, check_burn, do_board, do_burn
from domain.hand.events import (
    BoardDealt,
    BurnsShuffledIntoStub,
    CardBurned,
    CommunityCardDealt,
    DealtShort,
    DerivedEvent,
    ExposedCardReplaced,
    FlopDealtUnburned,
    FlopReformed,
    ForeignCardFound,
    FourCardFlopDealt,
    HandKilled,
    HandMuckedByMistake,
    HoleCardExposed,
    MissingCardDealt,
    MuckShuffledIntoStub,
    PenaltyHandKilled,
    PrematureCardsDealt,
    PrematureCardsReturned,
    UncalledBetReturned,
)
from domain.hand.in_play import Corrections, HandInPlay
from domain.hand.misdeals import dealt_out, do_dealt_out, recognise_by
from domain.hand.phase import Phase

if TYPE_CHECKING:
    from collections.abc import Sequence

    from domain.hand.events import ActionKind
    from domain.rulebooks import Rulebook
from domain.hand.tabling import award_to, finish, showdown_awards

_NO_EVENTS: tuple[DerivedEvent, ...] = ()

#: the rule each rulebook applies to each correction; "<rulebook> <rule>" where it is silent and follows another
_RULES: dict[str, dict[str, str]] = {
    "bfsp": {
        "exposed_misdeal": "6.3.6",
        "exposed_replaced": "6.6.1",
        "short_stub": "6.5.3",
        "button_short": "tda-2022 37",
        "unburned_flop": "6.6.2",
        "unburned_flop_stands": "6.4.6",
        "mucked_cards_returned": "4.9.1",
        "chips_found": "tda-2022 62",
        "foreign_card": "tda-2022 35-D",
    },
    "tda-2022": {
        "exposed_misdeal": "35-A",
        "exposed_replaced": "bfsp 6.6.1",
        "short_stub": "RP-10-h",
        "button_short": "37",
        "unburned_flop": "39-B",
        "unburned_flop_stands": "39-B",
        "mucked_cards_returned": "15-B",
        "chips_found": "62",
        "foreign_card": "35-D",
    },
    "tda-2017": {
        "exposed_misdeal": "tda-2022 35-A",
        "exposed_replaced": "bfsp 6.6.1",
        "short_stub": "tda-2022 RP-10-h",
        "button_short": "D-36",
        "unburned_flop": "D-38",
        "unburned_flop_stands": "D-38",
        "mucked_cards_returned": "tda-2022 15-B",
        "chips_found": "D-61",
        "foreign_card": "tda-2022 35-D",
    },
    "tda-club": {
        "exposed_misdeal": "tda-2022 35-A",
        "exposed_replaced": "bfsp 6.6.1",
        "short_stub": "tda-2022 RP-10-h",
        "button_short": "tda-2022 37",
        "unburned_flop": "37",
        "unburned_flop_stands": "37",
        "mucked_cards_returned": "tda-2022 15-B",
        "chips_found": "58",
        "foreign_card": "tda-2022 35-D",
    },
}


@dataclass(frozen=True, slots=True)
class PrematureProcedure:
    """How a rulebook handles board cards dealt early.

    ``turn_waits``: a premature turn is set aside, the next card is the turn and the premature card goes back
    into the stub only for the river (bfsp 6.6.6, TDA 2017 RP-5-B); otherwise it goes back at once and the
    street is dealt again from the shuffled stub (TDA 2022 RP-5-B). ``burn_down``: the burn dealt before the
    premature cards is the burn of the street dealt after the reshuffle, so no new one is taken (TDA RP-5);
    otherwise a new card is burned (bfsp 6.6.4-6.6.7), and a premature flop's burn goes back with it (6.6.4).
    """

    rule: str
    turn_waits: bool
    burn_down: bool


_PREMATURE: dict[str, PrematureProcedure] = {
    "bfsp": PrematureProcedure("6.6.6", turn_waits=True, burn_down=False),
    "tda-2022": PrematureProcedure("RP-5", turn_waits=False, burn_down=True),
    "tda-2017": PrematureProcedure("RP-5", turn_waits=True, burn_down=True),
    "tda-club": PrematureProcedure("tda-2022 RP-5", turn_waits=False, burn_down=True),
}
#: bfsp's rule for each premature street: a flop (6.6.5, as 6.6.4), a turn (6.6.6), a river (6.6.7)
_BFSP_PREMATURE = {"flop": "6.6.5", "turn": "6.6.6", "river": "6.6.7"}

#: rulebooks whose unburned flop goes back into the stub to be burned and dealt again (bfsp 6.6.2); the TDA's
#: keep two of its cards and burn the floor's pick among the three (TDA 2022 39-B)
_FLOP_BACK_TO_STUB = frozenset({"bfsp"})


def cite(hand: HandInPlay, topic: str) -> RuleRef:
    """The rule the hand's rulebook applies to a correction ``topic``."""
    rulebook = hand.rulebook
    rule = _RULES.get(rulebook.name, _RULES["tda-2022"]).get(topic)
    if rule is None:
        return rulebook.cite(topic)
    book, _, borrowed = rule.partition(" ")
    if borrowed:
        return RuleRef(book, borrowed)
    return RuleRef(rulebook.name, rule)


def corrections(hand: HandInPlay) -> Corrections:
    found: Corrections | None = hand.corrections
    if found is None:
        found = hand.corrections = Corrections()
    return found


def _due(hand: HandInPlay) -> int:
    """Hole cards each seat holds once this street's deal is complete (a draw keeps the count)."""
    return sum(st.hole_cards for st in hand.variant.streets[: hand.street_index + 1])


def _has_acted(hand: HandInPlay, seat: int) -> bool:
    if hand.street_index > 0:
        return True
    rnd = hand.round
    return rnd is not None and seat in rnd.acted_at


def _live(hand: HandInPlay, seat: int, what: str) -> None:
    if seat not in hand.hole or seat in hand.folded or seat in hand.mucked:
        raise IllegalActionError(f"{what}: seat {seat} has no live hand", hand.rulebook.cite("fold"))


# --- a seat dealt short, its missing card, a hand ruled dead -----------------------------------------------


def check_dealt_short(hand: HandInPlay, e: DealtShort) -> None:
    cite_ = hand.rulebook.cite
    owed = hand.owed_hole.get(e.seat, 0)
    if hand.phase is not Phase.DEALING or not owed:
        raise DealingError(
            f"seat {e.seat} was reported dealt short, but it is owed no card now", cite_("deal_count")
        )
    if dealt_out(hand, e):
        return  # a seat given no card of the first deal: the deal is a misdeal (TDA 2022 35-A-4)
    if e.missing != owed or e.missing >= hand.street.hole_cards:
        raise DealingError(
            f"seat {e.seat} was reported {e.missing} card(s) short; it is owed {owed} of the "
            f"{hand.street.hole_cards} the {hand.street.name} deals (a seat dealt no card was dealt out: a misdeal)",
            cite_("deal_count"),
        )


def do_dealt_short(hand: HandInPlay, e: DealtShort, _: None) -> tuple[DerivedEvent, ...]:
    if dealt_out(hand, e):
        return do_dealt_out(hand, e)
    del hand.owed_hole[e.seat]
    corrections(hand).short[e.seat] = e.missing
    return after_deal(hand)


def check_missing_card(hand: HandInPlay, e: MissingCardDealt) -> None:
    rule = cite(hand, "button_short")
    short = corrections(hand).short.get(e.seat)
    if short is None:
        raise DealingError(f"seat {e.seat} was given a missing card, but it was not dealt short", rule)
    _live(hand, e.seat, f"seat {e.seat} was given a missing card")
    if e.seat != hand.started.button:
        raise HandStateError(
            f"seat {e.seat} was given a missing card; only the button, dealt the last card, may be (a short hand "
            f"elsewhere is a misdeal before the action, a dead hand after it)",
            rule,
        )
    if _has_acted(hand, e.seat):
        raise HandStateError(
            f"seat {e.seat}, the button, has acted holding {len(hand.hole[e.seat])} card(s): his hand is dead, "
            f"not completed",
            rule,
        )
    if len(e.cards) != short:
        raise DealingError(f"seat {e.seat} is {short} card(s) short and was given {len(e.cards)}", rule)
    hand.deck.verify(e.cards, "the missing card to seat {seat}", e.seat)


def do_missing_card(hand: HandInPlay, e: MissingCardDealt, _: None) -> tuple[DerivedEvent, ...]:
    hand.hole[e.seat].extend(e.cards)
    hand.face_up[e.seat].extend([False] * len(e.cards))
    hand.deck.add(e.cards)
    del corrections(hand).short[e.seat]
    return _NO_EVENTS


def check_kill(hand: HandInPlay, e: HandKilled) -> None:
    rulebook = hand.rulebook
    _live(hand, e.seat, f"seat {e.seat}'s hand was ruled dead")
    short = corrections(hand).short
    due = _due(hand)
    if e.seat in short:
        held = len(hand.hole[e.seat])
        if e.cards_held != held:
            raise DealingError(
                f"seat {e.seat}'s hand was ruled dead holding {e.cards_held} card(s); it was dealt {held}",
                rulebook.cite("deal_count"),
            )
        if e.seat == hand.started.button and not _has_acted(hand, e.seat):
            raise HandStateError(
                f"seat {e.seat}, the button, is short and has not acted: he is given the missing card, his hand "
                f"is not dead",
                cite(hand, "button_short"),
            )
    else:
        held = len(hand.hole[e.seat]) + hand.extra.get(e.seat, 0)
        if held == due:
            raise DealingError(
                f"seat {e.seat} holds {due} card(s), the number the game deals: the hand is not dead for its count",
                rulebook.cite("deal_count"),
            )
        if e.cards_held != held:
            raise DealingError(
                f"seat {e.seat}'s hand was ruled dead holding {e.cards_held} card(s); the record dealt it {held} "
                f"(a seat dealt short is reported DealtShort, a card too many ExtraCardDealt)",
                rulebook.cite("deal_count"),
            )
    if rulebook.misdeal_until_substantial_action:
        if not _substantial_action(hand.actions, rulebook):
            raise HandStateError(
                f"seat {e.seat} holds {e.cards_held} card(s) before substantial action: that is a misdeal, not a "
                f"dead hand",
                rulebook.cite("deal_count"),
            )
    elif not hand.acted:
        raise HandStateError(
            f"seat {e.seat} holds {e.cards_held} card(s) before the first action: that is a misdeal, not a dead "
            f"hand",
            rulebook.cite("deal_count"),
        )


def do_kill(hand: HandInPlay, e: HandKilled, _: None) -> tuple[DerivedEvent, ...]:
    return kill(hand, e.seat, refund=False)


def check_penalty_kill(hand: HandInPlay, e: PenaltyHandKilled) -> None:
    _live(hand, e.seat, f"seat {e.seat}'s hand was killed for a penalty")
    if not e.rule.strip():
        raise HandStateError(
            f"seat {e.seat}'s hand was killed for a penalty without naming the rule it applies",
            RuleRef("bfsp", "7.2.1"),
        )
    if not hand.hole[e.seat]:
        raise HandStateError(
            f"seat {e.seat} has not been dealt in yet: a penalised player is dealt in and then his hand is killed",
            RuleRef("bfsp", "6.4.4"),
        )


def do_penalty_kill(hand: HandInPlay, e: PenaltyHandKilled, _: None) -> tuple[DerivedEvent, ...]:
    # Like any dead hand, its chips stay: a killed big blind is still the bet the others must call.
    return kill(hand, e.seat, refund=False)


def kill(hand: HandInPlay, seat: int, refund: bool) -> tuple[DerivedEvent, ...]:
    """Take the seat's cards away; his chips stay in the pot, but for a bet nobody called when ``refund``."""
    out: list[DerivedEvent] = []
    corrections(hand).short.pop(seat, None)
    hand.folded.add(seat)
    owed = hand.owed_hole.pop(seat, 0)
    if seat in hand.draw_order:
        hand.draw_order.remove(seat)
    rnd = hand.round
    if hand.phase is Phase.BETTING and rnd is not None:
        if hand.stacks[seat]:
            rnd.able_count -= 1
        if refund:
            others = max((b for s, b in hand.bets.items() if s != seat), default=0)
            back = hand.bets[seat] - others
            if back > 0:
                hand.bets[seat] -= back
                hand.stacks[seat] += back
                hand.contributions[seat] -= back
                rnd.call_level = min(rnd.call_level, max(hand.bets.values()))
                out.append(UncalledBetReturned(seat, back))
        if rnd.actor == seat:
            rnd.actor = rnd.seat_after(seat)
        if rnd.actor is None or len(hand.in_hand) == 1:
            out.extend(hand.end_round())
        return tuple(out)
    live = hand.in_hand
    if len(live) == 1:
        out.extend(award_to(hand, live[0], hand.folded))
    elif hand.phase is Phase.SHOWDOWN and all(s in hand.shown for s in live):
        awards, undetermined = showdown_awards(hand, hand.hole, set())
        out.extend(finish(hand, awards, undetermined))
    elif hand.phase is Phase.DEALING and owed:
        out.extend(after_deal(hand))
    elif hand.phase is Phase.DRAW and not hand.draw_order:
        out.extend(hand.begin_betting())
    return tuple(out)


# --- irregular flops -----------------------------------------------------------------------------------------


def _check_flop_street(hand: HandInPlay, what: str, rule: RuleRef) -> None:
    street = hand.street
    if hand.phase is not Phase.DEALING or street.board_cards != 3 or hand.board or hand.dealt_on_street:
        raise DealingError(f"{what}, but no flop is due now: {hand.waiting_for()}", rule)


def check_four_card_flop(hand: HandInPlay, e: FourCardFlopDealt) -> None:
    rule = hand.rulebook.cite("irregular_flop")
    _check_flop_street(hand, "a four-card flop was reported", rule)
    if hand.burn_owed():
        raise DealingError(
            "a four-card flop was reported before the burn: the flop was dealt without a burn", rule
        )
    if len(e.cards) != 4:
        raise DealingError(f"a four-card flop was reported with {len(e.cards)} card(s)", rule)
    if e.next_burn is not None and e.next_burn not in e.cards:
        raise DealingError(
            f"the judge's pick for the next burn, {e.next_burn}, is not one of the four flop cards", rule
        )
    hand.deck.verify(e.cards, "the four-card flop")


def do_four_card_flop(hand: HandInPlay, e: FourCardFlopDealt, _: None) -> tuple[DerivedEvent, ...]:
    flop = list(e.cards)
    flop.remove(e.next_burn)
    hand.board.extend(flop)
    hand.deck.add(e.cards)
    hand.dealt_on_street = True
    hand.owed_board = 0
    fix = corrections(hand)
    fix.burn_picked, fix.picked = True, e.next_burn
    return after_deal(hand)


def check_burn_corrected(hand: HandInPlay, e: CardBurned) -> None:
    """A burn after a correction: the judge's pick from a four-card flop (bfsp 6.6.3); none while premature
    cards are still to go back into the stub, nor where the premature cards' burn is already down (RP-5)."""
    fix = hand.corrections
    if fix is None:
        check_burn(hand, e)
        return
    _check_premature_pending(hand, fix, "a card was burned")
    if fix.burn_down_street == hand.street_index and hand.burn_due and not hand.burned:
        raise DealingError(
            f"a card was burned before the {hand.street.name}, but its burn is already down: {fix.burn_down_card}",
            fix.burn_down_rule or premature_rule(hand),
        )
    if not fix.burn_picked:
        check_burn(hand, e)
        return
    check_burn(hand, CardBurned(None))
    if e.card is not None and fix.picked is not None and e.card != fix.picked:
        raise DealingError(
            f"{e.card} was burned; the burn is {fix.picked}, the card the judge picked from the four-card flop",
            hand.rulebook.cite("irregular_flop"),
        )


def do_burn_corrected(hand: HandInPlay, e: CardBurned, _: None) -> tuple[DerivedEvent, ...]:
    fix = hand.corrections
    if fix is None or not fix.burn_picked:
        return do_burn(hand, e, None)
    fix.burn_picked, fix.picked = False, None
    hand.burned = True
    return _NO_EVENTS


def check_board_corrected(hand: HandInPlay, e: BoardDealt) -> None:
    """Board cards after premature ones: not before those go back into the stub (bfsp 6.6.6, 6.6.7; RP-5). Where
    a correction put the street's burn down already, no burn is owed (``HandInPlay.burn_owed``)."""
    fix = hand.corrections
    if fix is not None:
        _check_premature_pending(hand, fix, "board cards were dealt")
    check_board(hand, e)


def do_board_corrected(hand: HandInPlay, e: BoardDealt, _: None) -> tuple[DerivedEvent, ...]:
    fix = hand.corrections
    if fix is not None and fix.burn_down_street == hand.street_index:
        fix.burn_down_street = None
        hand.burned = True
    return do_board(hand, e, None)


# --- premature board cards (bfsp 6.6.5-6.6.7; TDA 2022 RP-5) --------------------------------------------------


def _procedure(hand: HandInPlay) -> PrematureProcedure:
    return _PREMATURE.get(hand.rulebook.name, _PREMATURE["tda-2022"])


def premature_rule(hand: HandInPlay, street: str | None = None) -> RuleRef:
    """bfsp 6.6.5 / 6.6.6 / 6.6.7 by the street dealt early; RP-5 in the TDA's books."""
    rulebook = hand.rulebook
    if rulebook.name == "bfsp":
        fix = hand.corrections
        if street is None and fix is not None and fix.premature_street:
            street = hand.variant.streets[fix.premature_street].name
        return RuleRef("bfsp", _BFSP_PREMATURE.get(street or "", "6.6.6"))
    rule = _procedure(hand).rule
    book, _, borrowed = rule.partition(" ")
    return RuleRef(book, borrowed) if borrowed else RuleRef(rulebook.name, rule)


def _check_premature_pending(hand: HandInPlay, fix: Corrections, what: str) -> None:
    if fix.premature and fix.return_street == hand.street_index:
        raise DealingError(
            f"{what} before the premature card(s) went back into the stub; they are shuffled in first",
            premature_rule(hand),
        )


def check_premature(hand: HandInPlay, e: PrematureCardsDealt) -> None:
    rnd = hand.round
    nxt = hand.street_index + 1
    streets = hand.variant.streets
    rule = premature_rule(hand, streets[nxt].name if nxt < len(streets) else None)
    if hand.phase is not Phase.BETTING or rnd is None or nxt >= len(streets) or not streets[nxt].board_cards:
        raise DealingError(f"board cards were reported dealt early, but {hand.waiting_for()}", rule)
    if corrections(hand).premature:
        raise DealingError("board cards were dealt early while earlier premature cards are still aside", rule)
    due = streets[nxt].board_cards
    if not 0 < len(e.cards) <= due:
        raise DealingError(
            f"{len(e.cards)} card(s) were reported dealt early; the {streets[nxt].name} has {due}", rule
        )
    if e.burn is not None and not hand.started.burns_recorded:
        raise DealingError("a burn was reported with the premature cards, but this record has no burns", rule)
    hand.deck.verify((*e.cards, e.burn), "the premature cards")


def do_premature(hand: HandInPlay, e: PrematureCardsDealt, _: None) -> tuple[DerivedEvent, ...]:
    fix = corrections(hand)
    procedure = _procedure(hand)
    nxt = hand.street_index + 1
    streets = hand.variant.streets
    burns = (e.burn,) if hand.started.burns_recorded else ()
    hand.deck.add((*burns, *e.cards))
    fix.premature, fix.premature_burn = tuple(e.cards), burns
    fix.premature_flop = streets[nxt].board_cards > 1
    fix.premature_street = nxt
    turn = not fix.premature_flop and nxt + 1 < len(streets)
    fix.return_street = nxt + 1 if turn and procedure.turn_waits else nxt
    fix.burn_down_street = fix.return_street if procedure.burn_down and burns else None
    fix.burn_down_card, fix.burn_down_rule = (
        "the one dealt before the premature card(s)",
        premature_rule(hand),
    )
    return _NO_EVENTS


def check_premature_return(hand: HandInPlay, e: PrematureCardsReturned) -> None:
    fix = corrections(hand)
    rule = premature_rule(hand)
    if not fix.premature:
        raise DealingError("premature cards were shuffled back, but none are aside", rule)
    if fix.return_street != hand.street_index or hand.phase is not Phase.DEALING or hand.dealt_on_street:
        street = hand.variant.streets[fix.return_street or 0].name
        raise DealingError(
            f"the premature card(s) go back into the stub just before the {street} is dealt, not now", rule
        )
    if hand.burned and fix.burn_down_street != hand.street_index:
        raise DealingError("the premature card(s) go back into the stub before the burn, not after it", rule)


def do_premature_return(hand: HandInPlay, e: PrematureCardsReturned, _: None) -> tuple[DerivedEvent, ...]:
    fix = corrections(hand)
    back = list(fix.premature)
    if fix.premature_flop and not _procedure(hand).burn_down:
        back.extend(fix.premature_burn)  # bfsp 6.6.4: the flop goes back with its burn
    deck = hand.deck
    for card in back:
        deck.seen.discard(card)
    deck.dealt -= len(back)
    fix.premature, fix.premature_burn, fix.return_street = (), (), None
    return _NO_EVENTS


def check_unburned_flop(hand: HandInPlay, e: FlopDealtUnburned) -> None:
    rule = cite(hand, "unburned_flop")
    _check_flop_street(hand, "a flop was reported dealt without a burn", rule)
    if not hand.burn_owed():
        raise DealingError("a flop was reported dealt without a burn, but the burn was taken", rule)
    if len(e.cards) != 3:
        raise DealingError(f"a flop of {len(e.cards)} card(s) was reported dealt without a burn", rule)
    hand.deck.verify(e.cards, "the flop")


def do_unburned_flop(hand: HandInPlay, e: FlopDealtUnburned, _: None) -> tuple[DerivedEvent, ...]:
    hand.board.extend(e.cards)
    hand.deck.add(e.cards)
    hand.dealt_on_street = True
    hand.burned = True  # no burn is owed any more on this street: the flop is out
    hand.owed_board = 0
    corrections(hand).unburned_flop = True
    return after_deal(hand)


def check_reform(hand: HandInPlay, e: FlopReformed) -> None:
    fix = corrections(hand)
    rule = cite(hand, "unburned_flop")
    if not fix.unburned_flop or hand.street.board_cards != 3:
        raise DealingError("the flop was re-formed, but it was not dealt without a burn", rule)
    rnd = hand.round
    if hand.phase is not Phase.BETTING or rnd is None or rnd.acted_at:
        raise HandStateError(
            "there has been action on the flop dealt without a burn: play continues with those three cards, and "
            "one card is burned before each later street",
            cite(hand, "unburned_flop_stands"),
        )
    back_to_stub = hand.rulebook.name in _FLOP_BACK_TO_STUB
    if back_to_stub and e.burn is not None:
        raise DealingError(
            f"the flop dealt without a burn goes back into the stub, to be burned and dealt again; {e.burn} "
            f"cannot be picked from it as the burn",
            rule,
        )
    if not back_to_stub and e.burn is not None and e.burn not in hand.board:
        raise DealingError(f"the floor's pick for the burn, {e.burn}, is not one of the flop's cards", rule)


def do_reform(hand: HandInPlay, e: FlopReformed, _: None) -> tuple[DerivedEvent, ...]:
    fix = corrections(hand)
    fix.unburned_flop = False
    hand.round = None
    hand.phase = Phase.DEALING
    if hand.rulebook.name in _FLOP_BACK_TO_STUB:
        flop, hand.board[:] = list(hand.board), []
        deck = hand.deck
        for card in flop:
            deck.seen.discard(card)
        deck.dealt -= len(flop)
        hand.burned = False
        hand.dealt_on_street = False
        hand.owed_board = 3
    else:
        hand.board.remove(e.burn)
        hand.owed_board = 1
    return _NO_EVENTS


# --- stud: a short stub on the last street (bfsp 6.5.3; TDA 2022 RP-10-h) ---------------------------------------


def _earlier_burns(hand: HandInPlay) -> int:
    """Cards burned before the streets already dealt (the last street's own burn not included)."""
    return sum(1 for st in hand.variant.streets[: hand.street_index] if st.burn)


def _stub(hand: HandInPlay) -> int:
    """Cards left in the stub (burns a record leaves out were taken all the same)."""
    stub = hand.deck.stub()
    if not hand.started.burns_recorded:
        stub -= _earlier_burns(hand) + (1 if hand.street.burn and hand.burned else 0)
    return stub


def _last_stud_street(hand: HandInPlay, what: str, rule: RuleRef) -> None:
    streets = hand.variant.streets
    street = hand.street
    if hand.phase is not Phase.DEALING or hand.street_index != len(streets) - 1 or not street.hole_cards:
        raise DealingError(f"{what}, but it is not the deal of a stud hand's last street", rule)


def check_burns_shuffled(hand: HandInPlay, e: BurnsShuffledIntoStub) -> None:
    rule = cite(hand, "short_stub")
    _last_stud_street(hand, "the burns were shuffled into the stub", rule)
    if corrections(hand).burns_back:
        raise DealingError("the burns were already shuffled into the stub", rule)
    if hand.burned or hand.dealt_on_street:
        raise DealingError(
            "the earlier burns are shuffled into the stub before this street's burn and its first card", rule
        )
    stub, needed = _stub(hand), sum(hand.owed_hole.values()) + 2
    if stub >= needed:
        raise DealingError(
            f"the stub holds {stub} cards, enough for the {needed - 2} card(s) the {hand.street.name} deals, its "
            f"burn and the last card: the burns stay out",
            rule,
        )


def do_burns_shuffled(hand: HandInPlay, e: BurnsShuffledIntoStub, _: None) -> tuple[DerivedEvent, ...]:
    deck = hand.deck
    held = {c for cards in hand.hole.values() for c in cards if c is not None}
    burns = [c for c in deck.seen if c not in held and c not in hand.board]
    for c in burns:
        deck.seen.discard(c)
    deck.dealt -= _earlier_burns(hand) if hand.started.burns_recorded else 0
    corrections(hand).burns_back = True
    return _NO_EVENTS


def check_muck_shuffled(hand: HandInPlay, e: MuckShuffledIntoStub) -> None:
    rule = cite(hand, "short_stub")
    _last_stud_street(hand, "the muck was shuffled into the stub", rule)
    fix = corrections(hand)
    if fix.muck_back:
        raise DealingError("the muck was already shuffled into the stub", rule)
    if not fix.burns_back:
        raise DealingError(
            "the burns are shuffled into a short stub first, then the muck if still short", rule
        )
    if hand.burned or hand.dealt_on_street:
        raise DealingError(
            "the muck is shuffled into the stub before this street's burn and its first card", rule
        )
    stub, needed = _stub(hand), sum(hand.owed_hole.values()) + 2
    if stub >= needed:
        raise DealingError(
            f"the stub holds {stub} cards with the burns, enough for the {needed - 2} card(s) the "
            f"{hand.street.name} deals, its burn and the last card: the muck stays out",
            rule,
        )


def do_muck_shuffled(hand: HandInPlay, e: MuckShuffledIntoStub, _: None) -> tuple[DerivedEvent, ...]:
    deck = hand.deck
    folded = [c for s in hand.folded for c in hand.hole[s]]
    for c in folded:
        if c is not None:
            deck.seen.discard(c)
    deck.dealt -= len(folded)
    corrections(hand).muck_back = True
    return _NO_EVENTS


def check_community_card(hand: HandInPlay, e: CommunityCardDealt) -> None:
    rule = cite(hand, "short_stub")
    if hand.rulebook.name == "bfsp":
        raise DealingError(
            "a stud hand is finished without a community card: the burns, then the muck, are shuffled to "
            "complete the deal",
            rule,
        )
    _last_stud_street(hand, "a community card was dealt", rule)
    if hand.dealt_on_street:
        raise DealingError("a community card was dealt after some seats had their last card", rule)
    if hand.burn_owed():
        raise DealingError("a community card was dealt before the burn; one card is burned first", rule)
    players = len(hand.owed_hole)
    stub = _stub(hand) + (1 if hand.burned else 0)  # as it was before the burn
    fix = corrections(hand)
    burns = 0 if fix.burns_back else _earlier_burns(hand)
    if stub + burns >= players + 2:
        raise DealingError(
            f"the stub ({stub}) and the burns ({burns}) give one card to each of the {players} players, the burn "
            f"and the last card: no community card",
            rule,
        )
    if stub < 3 and not fix.burns_back:
        raise DealingError(
            f"the stub holds {stub} card(s), fewer than three: it is scrambled with the burns before the "
            f"community card",
            rule,
        )
    hand.deck.verify((e.card,), "the community card")


def do_community_card(hand: HandInPlay, e: CommunityCardDealt, _: None) -> tuple[DerivedEvent, ...]:
    hand.board.append(e.card)
    hand.deck.add((e.card,))
    hand.owed_hole.clear()
    hand.dealt_on_street = True
    return after_deal(hand)


# --- a hole card exposed in the deal (bfsp 6.3.6, 6.6.1; TDA 2022 35-A) -------------------------------------------


def _deal_position(hand: HandInPlay, seat: int, card: Card) -> int:
    """The card's place in the deal, 1 for the first card: one card at a time, from the button's left."""
    order = hand.from_button
    return hand.hole[seat].index(card) * len(order) + order.index(seat) + 1


def check_exposed(hand: HandInPlay, e: HoleCardExposed) -> None:
    rule = cite(hand, "exposed_misdeal")
    if not any(st.board_cards for st in hand.variant.streets) or hand.street_index or hand.acted:
        raise DealingError(
            f"seat {e.seat}'s {e.card} was reported exposed; this rule is for the first deal of a flop game, "
            f"before any action",
            rule,
        )
    if e.card not in hand.hole.get(e.seat, ()):
        raise DealingError(f"seat {e.seat} was not dealt {e.card}", rule)


def do_exposed(hand: HandInPlay, e: HoleCardExposed, _: None) -> tuple[DerivedEvent, ...]:
    """The first or second card of the deal, or a second card exposed: a misdeal, every chip back."""
    fix = corrections(hand)
    fix.exposures += 1
    if fix.exposures > 1 or _deal_position(hand, e.seat, e.card) <= 2:
        which = "a second card" if fix.exposures > 1 else f"card {_deal_position(hand, e.seat, e.card)} of the deal"
        return recognise_by(hand, f"{e.card} exposed in the deal, {which}", cite(hand, "exposed_misdeal"))
    fix.exposed[e.seat] = e.card
    return _NO_EVENTS


def check_exposed_replaced(hand: HandInPlay, e: ExposedCardReplaced) -> None:
    rule = cite(hand, "exposed_replaced")
    exposed = corrections(hand).exposed.get(e.seat)
    if exposed is None:
        raise DealingError(f"seat {e.seat}'s card was replaced, but none of its cards was exposed", rule)
    if hand.owed_hole or hand.phase is Phase.DEALING and hand.street_index == 0:
        raise DealingError("the exposed card is replaced once the deal is complete", rule)
    if hand.acted:
        raise DealingError("the exposed card is replaced before any action", rule)
    hand.deck.verify((e.card,), "the replacement for seat {seat}'s exposed card", e.seat)


def do_exposed_replaced(hand: HandInPlay, e: ExposedCardReplaced, _: None) -> tuple[DerivedEvent, ...]:
    fix = corrections(hand)
    exposed = fix.exposed.pop(e.seat)
    held = hand.hole[e.seat]
    held[held.index(exposed)] = e.card
    hand.deck.add((e.card,))
    if hand.started.burns_recorded:  # the exposed card is the first burn
        fix.burn_down_street = next(i for i, st in enumerate(hand.variant.streets) if st.burn)
        fix.burn_down_card = f"{exposed}, the card exposed in the deal"
        fix.burn_down_rule = cite(hand, "exposed_replaced")
    return _NO_EVENTS


# --- a hand mucked by mistake, a foreign card, chips found ----------------------------------------------------


def check_mistaken_muck(hand: HandInPlay, e: HandMuckedByMistake) -> None:
    _live(hand, e.seat, f"seat {e.seat} mucked by mistake")


def do_mistaken_muck(hand: HandInPlay, e: HandMuckedByMistake, _: None) -> tuple[DerivedEvent, ...]:
    return kill(hand, e.seat, refund=True)


def recover_mucked_hand(hand: HandInPlay, seat: int) -> None:
    """Whether a hand mucked by mistake can be restored is the director's finding (TDA 2022 15-B: only if 100 %
    identifiable; bfsp 4.9.1 note 1: at the Chief Judge's discretion, cards clearly separable from the muck):
    the engine asks for it."""
    raise RulingRequired(
        f"seat {seat}'s cards went into the muck: whether they can be identified with certainty and returned to "
        f"play is the director's ruling",
        cite(hand, "mucked_cards_returned"),
    )


def check_foreign_card(hand: HandInPlay, e: ForeignCardFound) -> None:
    return None


def do_foreign_card(hand: HandInPlay, e: ForeignCardFound, _: None) -> tuple[DerivedEvent, ...]:
    """Before substantial action a card outside the deck is a misdeal (TDA 2022 35-A-6): every chip goes back;
    after it, a scrap of paper passed over (35-D): nothing changes."""
    if _substantial_action(hand.actions, hand.rulebook):
        return _NO_EVENTS
    return recognise_by(hand, f"a card outside the deck: {e.description}", cite(hand, "foreign_card"))


def found_chips_ruling(hand: HandInPlay, seat: int, amount: int) -> None:
    """Chips of an all-in player found after he was called: whether they were part of the action is the
    director's decision (TDA 2022 62)."""
    raise RulingRequired(
        f"{chips(amount)} more of seat {seat}'s chips were found after his all-in was called: whether they were "
        f"part of the accepted action is the director's ruling",
        cite(hand, "chips_found"),
    )


def _substantial_action(actions: Sequence[ActionKind], rulebook: Rulebook) -> bool:
    # imported when a misdeal is weighed: domain/hand/interpretation.py reads raw acts, which a plain hand
    # history never reports, and was a twentieth of a second of every process's start (issue 17)
    from domain.hand.interpretation import substantial_action

    return substantial_action(actions, rulebook)
