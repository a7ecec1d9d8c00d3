"""PHH action notation (phh-std, "Actions"), parsed into typed values before any chips move.

``d db Jd7sKc``, ``d dh p3 ????``, ``p2 pb``, ``p1 f``, ``p4 cc``, ``p6 cbr 0.75``, ``p4 sd AsQs``, ``p1 sd``,
``p3 sm JsAs``, ``p2 sm``, ``p1 sm -``; a ``# commentary`` may follow, and an empty or commentary-only
string is a no-op. Amounts stay decimals here: the hand decides its chip scale once it has seen them all.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import NamedTuple, cast

from domain.cards import CardParseError, MaybeCard, parse_cards


class PhhVerb(StrEnum):
    DEAL_BOARD = "db"
    DEAL_HOLE = "dh"
    BRING_IN = "pb"
    FOLD = "f"
    CHECK_OR_CALL = "cc"
    COMPLETE_BET_OR_RAISE = "cbr"
    STAND_PAT_OR_DISCARD = "sd"
    SHOW_OR_MUCK = "sm"


class PhhAction(NamedTuple):
    """One action of the ``actions`` array. ``player`` is PHH's 1-based ``pN`` (``None`` for the dealer's
    board deal); ``cards`` is ``None`` where the notation gave none (muck, stand pat) and ``show_dealt``
    marks ``sm -`` (show the cards already dealt).

    A named tuple, not a frozen dataclass: every action of every hand read is a new one (the importer tells
    actions apart by identity), and a tuple is made in a third of the time a frozen dataclass sets its seven
    fields one ``object.__setattr__`` at a time (issue 17). Immutable, compared and shown field by field alike."""

    text: str
    verb: PhhVerb
    player: int | None = None
    cards: tuple[MaybeCard, ...] | None = None
    amount: Decimal | None = None
    show_dealt: bool = False
    line: int | None = None


class ActionSyntaxError(ValueError):
    """An action string that is not PHH notation (the reader adds file, hand and line)."""


_PLAYER_VERBS = {PhhVerb.BRING_IN, PhhVerb.FOLD, PhhVerb.CHECK_OR_CALL}
#: a dictionary, not ``PhhVerb(word)``: the enum's call costs more than the rest of a short action's parse
_VERBS = {verb.value: verb for verb in PhhVerb}
# module names for the members compared per action: reading one off the enum class is slow on Python 3.11
_DEAL_BOARD, _DEAL_HOLE = PhhVerb.DEAL_BOARD, PhhVerb.DEAL_HOLE
_BET, _DRAW, _SHOW = PhhVerb.COMPLETE_BET_OR_RAISE, PhhVerb.STAND_PAT_OR_DISCARD, PhhVerb.SHOW_OR_MUCK


#: ``PhhAction``'s fields, all seven in order, as its generated ``__new__`` passes them (``tuple.__new__``)
_ActionFields = tuple[str, PhhVerb, int | None, tuple[MaybeCard, ...] | None, Decimal | None, bool, int | None]
#: a named tuple made as its own ``__new__`` makes it, without that Python function's call (keywords, defaults)
#: around it: an action is made for every action of every hand read (issue 17)
_new_action = cast("Callable[[type[PhhAction], _ActionFields], PhhAction]", tuple.__new__)


def _action(
    text: str,
    verb: PhhVerb,
    player: int | None = None,
    cards: tuple[MaybeCard, ...] | None = None,
    amount: Decimal | None = None,
    show_dealt: bool = False,
    line: int | None = None,
) -> PhhAction:
    """``PhhAction(...)``, made as above."""
    return _new_action(PhhAction, (text, verb, player, cards, amount, show_dealt, line))


def parse_action(text: str, player_count: int, line: int | None = None) -> PhhAction | None:
    """The action, or ``None`` for a no-op (empty or commentary only)."""
    known_here = _KNOWN_ACTIONS.get(player_count)
    if known_here is None:
        known_here = _KNOWN_ACTIONS[player_count] = {}
    known = known_here.get(text)
    if known is not None:
        verb, player, cards, amount, show_dealt = known
        return _new_action(PhhAction, (text, verb, player, cards, amount, show_dealt, line))
    action = _parse_action(text, player_count, line)
    global _known_count
    if action is not None and _known_count < _KNOWN_ACTIONS_MAX:
        known_here[text] = (action.verb, action.player, action.cards, action.amount, action.show_dealt)
        _known_count += 1
    return action


def _parse_action(text: str, player_count: int, line: int | None) -> PhhAction | None:
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    if words[0] == "d":
        return _dealer_action(text, words, player_count, line)
    player = _player(words[0], player_count)
    verb = _verb(words, 1)
    args = words[2:]
    if verb in _PLAYER_VERBS and not args:
        return _action(text, verb, player, line=line)
    if verb is _BET and len(args) == 1:
        return _action(text, verb, player, amount=_amount(args[0]), line=line)
    if verb is _DRAW and len(args) <= 1:
        return _action(text, verb, player, cards=_cards(args[0]) if args else (), line=line)
    if verb is _SHOW and not args:
        return _action(text, verb, player, line=line)
    if verb is _SHOW and args == ["-"]:
        return _action(text, verb, player, show_dealt=True, line=line)
    if verb is _SHOW and len(args) == 1:
        return _action(text, verb, player, cards=_cards(args[0]), line=line)
    raise ActionSyntaxError(f"{text!r}: wrong arguments for {verb.value!r}")


def _dealer_action(text: str, words: list[str], player_count: int, line: int | None) -> PhhAction:
    verb = _verb(words, 1)
    if verb is _DEAL_BOARD and len(words) == 3:
        return _action(text, verb, cards=_cards(words[2]), line=line)
    if verb is _DEAL_HOLE and len(words) == 4:
        return _action(text, verb, _player(words[2], player_count), cards=_cards(words[3]), line=line)
    raise ActionSyntaxError(f"{text!r}: the dealer writes 'd db CARDS' or 'd dh pN CARDS'")


def _verb(words: list[str], at: int) -> PhhVerb:
    if len(words) <= at:
        raise ActionSyntaxError(f"{' '.join(words)!r} has no action")
    verb = _VERBS.get(words[at])
    if verb is None:
        known = ", ".join(v.value for v in PhhVerb)
        raise ActionSyntaxError(f"{words[at]!r} is not a PHH action ({known})")
    return verb


def _player(word: str, player_count: int) -> int:
    if word[:1] != "p" or not word[1:].isdigit():
        raise ActionSyntaxError(f"{word!r} is not an actor: write d for the dealer or p1..p{player_count}")
    index = int(word[1:])
    if not 1 <= index <= player_count:
        raise ActionSyntaxError(f"{word!r} is not one of the {player_count} players")
    return index


def _amount(word: str) -> Decimal:
    try:
        amount = Decimal(word)
    except InvalidOperation:
        raise ActionSyntaxError(f"{word!r} is not an amount") from None
    if not amount.is_finite() or amount <= 0:
        raise ActionSyntaxError(f"{word!r} is not a positive amount")
    return amount


def _cards(word: str) -> tuple[MaybeCard, ...]:
    cards = _KNOWN_CARDS.get(word)
    if cards is not None:
        return cards
    try:
        cards = parse_cards(word)
    except CardParseError as error:
        raise ActionSyntaxError(str(error)) from None
    if len(_KNOWN_CARDS) < _KNOWN_CARDS_MAX:
        _KNOWN_CARDS[word] = cards
    return cards


#: runs of cards already read (cards are immutable values): a file of hands deals the same holdings again and
#: again, and reading a run of cards was a fifth of reading an action. Bounded, so memory stays flat.
_KNOWN_CARDS: dict[str, tuple[MaybeCard, ...]] = {}
_KNOWN_CARDS_MAX = 50_000

#: what an action's text says, by number of players and text (its line aside): a file of hands writes the same
#: folds, calls and bets again and again, and each is a new PhhAction (the importer tells actions apart by
#: identity) made from the values read once. Bounded (``_known_count`` texts in all), so memory stays flat.
_KNOWN_ACTIONS: dict[
    int, dict[str, tuple[PhhVerb, int | None, tuple[MaybeCard, ...] | None, Decimal | None, bool]]
] = {}
_KNOWN_ACTIONS_MAX = 50_000
_known_count = 0
