"""Rulebooks as versioned data (DESIGN decision 5).

Each preset is a :class:`Rulebook`: the parameters where the federation's and the TDA's texts differ, each
documented with the rule it comes from. Every rejection cites ``rulebook.cite(topic)``.

The presets are :data:`RULEBOOKS` — ``bfsp`` (the default), ``tda-2022``, ``tda-2017``, ``tda-club`` — and
:func:`get_rulebook` finds one by name. docs/RULEBOOKS.md tables every parameter by rulebook with its source
rule and the readings chosen where a text is ambiguous.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from domain.errors import RuleRef


class OddChipRule(StrEnum):
    #: the first winner clockwise from the button (bfsp 5.9.3; TDA 2022 rule 20 for flop games)
    FIRST_LEFT_OF_BUTTON = "first_left_of_button"
    #: the high hand gets the odd chip between halves of a split hi-lo pot (TDA 2022 rule 20)
    HIGH_HALF_FIRST = "high_half_first"
    #: stud, razz and stud/8 ties: the highest card by suit in the winners' five-card hands (TDA 2022 20-b)
    HIGHEST_CARD_BY_SUIT = "highest_card_by_suit"


class ShortAllInReraise(StrEnum):
    """Minimum raise over an all-in that was not a full raise."""

    #: TDA 2022 rule 43: the last full increment still stands: previous full bet + last full raise
    LAST_FULL_INCREMENT = "last_full_increment"
    #: bfsp 4.9.8 as literally worded: all-in amount + big blind [flagged ambiguous]
    ALL_IN_PLUS_BIG_BLIND = "all_in_plus_big_blind"


class CheckedThroughShowsFirst(StrEnum):
    """Who tables first at a showdown when nobody bet on the final betting round."""

    #: bfsp 5.9.2: the player who made the last aggressive action in any betting round, then clockwise
    LAST_AGGRESSOR_ANY_ROUND = "last_aggressor_any_round"
    #: TDA 2022 17-A, TDA 2017 D-16: whoever would act first on that round (flop games: first seat left of
    #: the button; stud: the highest board; razz: the lowest board), then clockwise
    FIRST_TO_ACT = "first_to_act"


class MultiwayOddChips(StrEnum):
    """Where the odd chips go when a split leaves more than one of them (bfsp 5.9.3 is ambiguous here)."""

    #: one odd chip each to the winners in odd-chip order (first left of the button, then clockwise)
    ONE_EACH_IN_ORDER = "one_each_in_order"
    #: every odd chip to the first winner in odd-chip order
    ALL_TO_FIRST = "all_to_first"


class AmbiguousAmount(StrEnum):
    """What a declared amount that can legally mean more than one thing is ruled to be ("I bet five")."""

    #: TDA 2022 57, TDA 2017 D-56: the largest amount that does not exceed the pot
    LARGEST_NOT_OVER_POT = "largest_not_over_pot"
    #: tda-club 53: the smaller amount
    SMALLEST = "smallest"


class Undercall(StrEnum):
    """What happens to a call for less than the amount to call, made in turn without saying "call"."""

    #: TDA 2022 51-B: a full call is mandatory heads-up or facing the opening bet multi-way; any other
    #: undercall is left to the director (full call, or forfeit the chips and fold)
    FULL_CALL_HEADS_UP_OR_OPENING_BET = "full_call_heads_up_or_opening_bet"
    #: bfsp 4.13: the player completes the call or folds and forfeits what he put in, whatever the bet
    COMPLETE_OR_FORFEIT = "complete_or_forfeit"


class FantasyOrder(StrEnum):
    """When a player in fantasy sets his 14 cards against the others' normal deals (bfsp 8 is ambiguous)."""

    #: bfsp 8 as worded: "the fantasy player(s) set their cards at the table, and then the others set theirs"
    FANTASY_FIRST = "fantasy_first"
    #: the others play their whole hand first, then the fantasy player(s) are dealt and set
    FANTASY_LAST = "fantasy_last"


@dataclass(frozen=True, slots=True)
class Rulebook:
    name: str
    title: str
    #: rule ids by topic, so every rejection cites the right rule for this rulebook
    rules: dict[str, str] = field(default_factory=dict)
    #: fixed limit: raises allowed after the bet in one betting round (bfsp 4.7.3: bet, raise, reraise, cap;
    #: TDA 2022 48 leaves the number to the house, and the presets take three)
    limit_max_raises: int = 3
    #: fixed limit: raises are unlimited when two players are in the hand from the start of the round
    #: (bfsp 4.7.3). False: the cap holds even heads-up until the event is down to two players (TDA 2022 48),
    #: which the competition, not the hand, knows
    limit_unlimited_heads_up: bool = True
    #: fixed limit: a short all-in re-opens the betting when it is at least this part of a full raise
    #: (bfsp 4.9.8, TDA 2022 47-B)
    limit_reopen_fraction: float = 0.5
    #: no-limit and pot-limit: the part of a full raise that re-opens the betting (bfsp 4.9.8, TDA 2022 47-A)
    nl_pl_reopen_fraction: float = 1.0
    #: the minimum raise over a short all-in (TDA 2022 43 and 47-A; bfsp 4.9.8, see docs/RULEBOOKS.md)
    short_all_in_reraise: ShortAllInReraise = ShortAllInReraise.LAST_FULL_INCREMENT
    #: flop games, tied hands: who gets the odd chip (bfsp 5.9.3, TDA 2022 20-a)
    odd_chip: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON
    #: showdown order when the final betting round was checked through (bfsp 5.9.2 vs TDA 2022 17-A)
    checked_through_shows_first: CheckedThroughShowsFirst = CheckedThroughShowsFirst.LAST_AGGRESSOR_ANY_ROUND
    #: several odd chips in one split: one each in odd-chip order (TDA 20 read per chip), or all to the first
    multiway_odd_chips: MultiwayOddChips = MultiwayOddChips.ONE_EACH_IN_ORDER
    #: the same players win both halves of a hi-lo pot: split the whole pot evenly, not each half
    #: (TDA 2017 D-19 D, illustrated by TV-44/TV-45: 66 chips split 33/33, never 34/32)
    hi_lo_same_winners_split_whole: bool = True
    #: stud, razz and stud/8 ties: who gets the odd chip (TDA 2022 20-b; bfsp 5.9.3 counts from a button stud
    #: does not have, so bfsp follows TDA 2022 here)
    odd_chip_stud: OddChipRule = OddChipRule.HIGHEST_CARD_BY_SUIT
    #: hi-lo split between different winners: the odd chip goes to the high half (TDA 2022 20-c)
    odd_chip_to_high_half: bool = True
    #: several short all-ins that together make a full raise re-open the betting (TDA 2022 47-A, Ex 1)
    short_all_ins_add_up: bool = True
    #: stud, fixed limit: an open pair on fourth street lets players bet the big bet (bfsp 5.8.5);
    #: TDA 2022 RP-10-f: the bet does not double for an open pair in tournaments
    stud_open_pair_big_bet: bool = False
    #: a big blind all-in for less still sets the call and the raise sizes: the next player puts in the full
    #: big blind (bfsp 4.9.8; TDA 2022 54-B for the pot-limit pot). False: the call is what the blind put in
    #: (PokerKit's convention, for differential tests)
    short_big_blind_full_call: bool = True
    #: a declared amount that can legally mean more than one thing (TDA 2022 57; tda-club 53)
    ambiguous_amount: AmbiguousAmount = AmbiguousAmount.LARGEST_NOT_OVER_POT
    #: a call for less than the call made in turn without saying "call" (TDA 2022 51-B; bfsp 4.13)
    undercall: Undercall = Undercall.FULL_CALL_HEADS_UP_OR_OPENING_BET
    #: several chips that pass the one-chip test and are the player's last chips are an all-in whatever the
    #: 50 % standard says (TDA 2022 45-B-2); False: the 50 % standard alone decides (tda-club 47)
    last_chips_all_in: bool = True
    #: "raise", the exact call, then the rest in one more motion is a legal raise (TDA 2017 D-45 option 3,
    #: tda-club 43-C); TDA 2022 42 knows only one motion or an amount declared first
    raise_call_then_one_motion: bool = False
    #: an out-of-turn bet is given back when the action to that player changes (TDA 2022 53-A); False: the
    #: chips stay in the pot whatever he does next (bfsp 4.10)
    out_of_turn_chips_returned: bool = True
    #: substantial action (TDA 2022 36): two actions in turn count only when at least one puts chips in, so
    #: check + fold is not substantial action (TV-67, see docs/RULEBOOKS.md)
    substantial_action_pair_needs_chips: bool = True
    #: a misdeal may be declared until substantial action (TDA 2022 35-D, 36); False: only before the first
    #: action of the first betting round (bfsp 6.3, except 6.3.6)
    misdeal_until_substantial_action: bool = True
    #: no-limit and pot-limit: a player who checked and then faces an all-in *bet* of less than a full bet may
    #: raise (PokerKit's convention). False: he has acted and faces less than a full bet, so he may only call
    #: or fold (TDA 2022 47-A, bfsp 4.9.8; decision D10 in docs/RULEBOOKS.md)
    short_all_in_bet_reopens: bool = False
    #: the action clock: seconds to act once the clock is called, then the countdown (TDA 2022 29; bfsp 7.1.7)
    clock_seconds: int = 25
    clock_countdown_seconds: int = 5
    #: when the clock runs out and the player faces no bet: his hand is checked (TDA 2022 29) or folded
    #: (bfsp 7.1.7, tda-club 27). Facing a bet, the hand is dead under every rulebook.
    clock_expired_checks: bool = True
    #: the last hand before a break can be disputed until this many seconds after the pot is pushed
    #: (bfsp 5.9.1, TDA 2022 22)
    dispute_seconds_at_break: int = 60
    #: final-table size by the event's seats per table, as (max seats, final-table size) pairs (TDA 2022 RP-9)
    final_table_sizes: tuple[tuple[int, int], ...] = ((6, 7), (7, 7), (8, 9), (9, 9), (10, 10))
    # --- the Competition aggregate (issue 6: regulations, registration, levels, placings) ---------------------
    #: nobody younger takes part; the regulations may raise it, never lower it (bfsp 1.1)
    min_age: int = 18
    #: a 10-max event plays its pre-final and final tables 9-max (bfsp 3.1)
    last_two_tables_nine_max: bool = False
    #: hand-for-hand: the level clock is charged this much per hand, however long it takes (TDA 2022 RP-8-b)
    hand_for_hand_seconds_per_hand: int = 120
    #: hand-for-hand: players busted in the same hand at different tables, or on the hand at the announcement,
    #: share the place (TDA 2022 RP-8-a, tda-club 28-B); False: each table's busts are ranked on their own
    hand_for_hand_busts_share: bool = True
    #: a colour-up rounds each player's odd chips up to one chip of the next denomination instead of racing them
    #: (tda-club 24-A); False: the odd chips are raced (TDA 2022 24, D-23)
    chip_race_rounds_up: bool = False
    # --- tables: seating, balancing and breaking (issue 6: the floor, domain/competition/floor.py) -----------
    #: table counts may differ by this many players at the start of a hand (bfsp 3.1)
    balance_tolerance: int = 1
    #: ... and by this many at most when the Chief Judge decides so (bfsp 3.1; the TDA leave it to the TD)
    balance_tolerance_widened: int = 2
    #: a table this many short of the fullest lets the Chief Judge move the next player not in the hand when the
    #: next big blind is still in it (bfsp 3.1: "more than 2"); 0: no such exception (TDA 2022 11 has none)
    mover_exception_short_by: int = 0
    #: a table this many short of the fullest halts when its big blind reaches an empty seat (TDA 2022 11-D),
    #: in events played at these table sizes (TDA 2022 11-D: 8 to 10; TDA 2017 D-10 D: 8 or 9)
    halt_short_by: int = 3
    halt_table_sizes: tuple[int, ...] = (8, 9, 10)
    #: the dead button (TDA 2022 32): the big blind moves to the next player and the small blind and the button
    #: follow onto the seats the blinds left, empty or not; False: the button moves to the next player each
    #: hand and the blinds are the two players after it (bfsp 5.3.2, 5.4.1)
    dead_button: bool = True
    # --- challenges and protests (issue 6: domain/protests/) --------------------------------------------------
    #: an error in counting or awarding a pot can still be disputed until substantial action on the next hand
    #: (TDA 2022 22, TDA 2017 D-21); False: every challenge ends when the next hand starts (bfsp 5.9.1)
    pot_count_dispute_until_substantial_action: bool = True
    #: the days the federation has to decide a protest, counted from its receipt (bfsp 7.3.4)
    protest_decision_days: int = 30
    # --- Open-Face Chinese Poker, Pineapple (issue 16: domain/ofc/; bfsp 8; the TDA texts have no OFC) -----
    #: cards a player in fantasy is dealt at once: he sets 13 and discards the rest (bfsp 8, fantasy)
    ofc_fantasy_cards: int = 14
    #: who sets first while someone is in fantasy (bfsp 8, fantasy: ambiguous, see docs/RULEBOOKS.md D11)
    ofc_fantasy_order: FantasyOrder = FantasyOrder.FANTASY_FIRST
    #: repeat fantasy only at a two-player table (source 000 of bfsp 8: "face-to-face"); False: at any table
    #: (source 002: "open Chinese poker"; the digest's default), see docs/RULEBOOKS.md D12
    ofc_repeat_fantasy_heads_up_only: bool = False
    #: what a scoop (all three rows against one opponent) is worth in all, the row points included (bfsp 8,
    #: scoring: +1 a row, +6 a scoop), see docs/RULEBOOKS.md D13
    ofc_scoop_points: int = 6

    def cite(self, topic: str) -> RuleRef:
        """The rule this rulebook applies to ``topic`` (``"min_raise"``, ``"turn_order"``, ...).

        Where a rulebook is silent and follows another one, its entry names that rulebook
        (``"tda-2022 36"``) and the citation says so: ``tda-2022 36``, never a rule the text does not have.
        """
        rule = self.rules.get(topic, "general")
        book, _, borrowed = rule.partition(" ")
        if borrowed and book in _RULEBOOK_NAMES:
            return RuleRef(book, borrowed)
        return RuleRef(self.name, rule)

    def final_table_size(self, max_seats: int) -> int:
        """How many players the final table seats in an event played ``max_seats`` to a table."""
        sizes = dict(self.final_table_sizes)
        if max_seats in sizes:
            return sizes[max_seats]
        return min(max_seats + 1, max(sizes.values()))


# --- the presets --------------------------------------------------------------------------------------------
#
# Rule ids are the digests' own (../shared/rules/). The TDA 2017 text in its digest has its rule numbers
# stripped; its ids are the digest's D-nn sequence (D-nn is about TDA 2017 rule n+1 from D-22 on). Where a
# rulebook is silent, its entry borrows the rule it follows, written "<rulebook> <rule>".

_RULEBOOK_NAMES = frozenset({"bfsp", "tda-2022", "tda-2017", "tda-club"})

_TDA_2022_RULES: dict[str, str] = {
    "turn_order": "50-A",
    "check": "55",
    "bet": "40",
    "min_bet": "43-A",
    "min_raise": "43-A",
    "raise_amount": "43-B",
    "fifty_percent": "43-A",
    "max_bet_pot_limit": "54",
    "pot_size": "54-B",
    "pot_declared": "54-C",
    "limit_bet_size": "52-A",
    "raise_cap": "48",
    "reopen": "47",
    "call": "41",
    "fold": "58",
    "bring_in": "RP-10-e",
    "complete": "3",
    "forced_bet": "32",
    "heads_up": "34",
    "deal_count": "35-A",
    "duplicate_card": "35-E",
    "burn": "38",
    "irregular_flop": "39",
    "draw": "35-A",
    "show": "13-A",
    "show_request": "18",
    "mucked_hand": "14",
    "all_in_showdown": "16",
    "hand_over": "23",
    "stakes": "23",
    "misdeal": "35",
    "showdown_order": "17-A",
    "odd_chip": "20",
    "side_pot": "21",
    "string_bet": "56",
    "raise_method": "42",
    "oversized_chip": "44",
    "multiple_chips": "45",
    "prior_chips": "46",
    "overbet_change": "61",
    "verbal": "40",
    "binding_declaration": "51-A",
    "invalid_declaration": "55",
    "unclear_bet": "57",
    "conditional": "59",
    "out_of_turn": "53",
    "skipped_player": "53-B",
    "undercall": "51-B",
    "undercalls_in_a_row": "51-C",
    "premature_call": "59-B",
    "incorrect_bet": "52-A",
    "pot_limit_correction": "52-B",
    "incorrect_bet_stands": "52-A",
    "pot_limit_bet_stands": "52-B",
    "boxed_card": "35-A",
    "wrong_seat": "35-A",
    "dealt_out": "35-A",
    "not_entitled": "35-A",
    "accepted_action": "49",
    "substantial_action": "36",
    "uncalled_bet": "15-B",
    "floor_decision": "1",
    "clock": "29",
    "dispute": "22",
    "final_table": "RP-9",
    "stud_open_pair": "RP-10-f",
    "balancing": "11-A",
    "balance_tolerance": "11-C",
    "new_player_seat": "10-A",
    "table_break": "10-B",
    "halt": "11-D",
    "button": "32",
    "seating": "7",
}

#: Open-Face Chinese (bfsp 8): the digest gives its section no sub-numbers, so a citation names the item of
#: section 8 it applies ("bfsp 8 (fantasy)"); the TDA texts have no OFC and borrow the federation's.
_OFC_RULES: dict[str, str] = {
    "ofc_players": "8 (set-up)",
    "ofc_deck": "8 (set-up)",
    "ofc_turn_order": "8 (set-up)",
    "ofc_first_deal": "8 (first deal)",
    "ofc_later_deals": "8 (later deals)",
    "ofc_placed_cards": "8 (later deals)",
    "ofc_foul": "8 (later deals)",
    "ofc_fantasy": "8 (fantasy)",
    "ofc_scoring": "8 (scoring)",
    "ofc_royalties": "8 (royalties)",
    "ofc_settlement": "8 (settlement order)",
}

_TDA_2017_RULES: dict[str, str] = {
    **{topic: f"tda-2022 {rule}" for topic, rule in _TDA_2022_RULES.items()},
    "turn_order": "D-40",
    "check": "D-54",
    "bet": "D-39",
    "min_bet": "D-46",
    "min_raise": "D-46",
    "raise_amount": "D-46",
    "fifty_percent": "D-46",
    "max_bet_pot_limit": "D-53",
    "pot_size": "D-53",
    "pot_declared": "D-53",
    "limit_bet_size": "D-42",
    "raise_cap": "D-51",
    "reopen": "D-47",
    "call": "D-44",
    "fold": "D-57",
    "bring_in": "RP-9-D",
    "complete": "D-03",
    "forced_bet": "D-31",
    "heads_up": "D-33",
    "deal_count": "D-34",
    "burn": "D-37",
    "irregular_flop": "D-38",
    "draw": "D-34",
    "show": "D-13",
    "show_request": "D-17",
    "mucked_hand": "D-14",
    "all_in_showdown": "D-15",
    "hand_over": "D-22",
    "stakes": "D-22",
    "misdeal": "D-34",
    "showdown_order": "D-16",
    "odd_chip": "D-19",
    "side_pot": "D-20",
    "string_bet": "D-55",
    "raise_method": "D-45",
    "oversized_chip": "D-48",
    "multiple_chips": "D-49",
    "prior_chips": "D-50",
    "overbet_change": "D-60",
    "verbal": "D-39",
    "binding_declaration": "D-41",
    "invalid_declaration": "D-54",
    "unclear_bet": "D-56",
    "conditional": "D-58",
    "out_of_turn": "D-43",
    "skipped_player": "D-43",
    "undercall": "D-41",
    "undercalls_in_a_row": "D-41",
    "premature_call": "D-58",
    "incorrect_bet": "D-42",
    "pot_limit_correction": "D-42",
    "incorrect_bet_stands": "D-42",
    "pot_limit_bet_stands": "D-42",
    "boxed_card": "D-34",
    "wrong_seat": "D-34",
    "dealt_out": "D-34",
    "not_entitled": "D-34",
    "accepted_action": "D-52",
    "substantial_action": "D-35",
    "uncalled_bet": "D-14",
    "floor_decision": "D-01",
    "clock": "D-28",
    "dispute": "D-21",
    "final_table": "D-11",
    "balancing": "D-10",
    "balance_tolerance": "D-10",
    "new_player_seat": "D-09",
    "table_break": "D-09",
    "halt": "D-10",
    "button": "D-31",
    "seating": "D-06",
}

_TDA_CLUB_RULES: dict[str, str] = {
    **{topic: f"tda-2022 {rule}" for topic, rule in _TDA_2022_RULES.items()},
    "turn_order": "39-A",
    "check": "3",
    "bet": "38",
    "min_bet": "44-A",
    "min_raise": "44-A",
    "raise_amount": "44-B",
    "fifty_percent": "44-A",
    "max_bet_pot_limit": "51-B",
    "pot_size": "51-B",
    "pot_declared": "51-C",
    "limit_bet_size": "44-A",
    "raise_cap": "49",
    "reopen": "45",
    "call": "42",
    "fold": "54",
    "forced_bet": "32",
    "heads_up": "34",
    "deal_count": "35-A",
    "irregular_flop": "37",
    "hand_over": "23",
    "stakes": "23",
    "misdeal": "35",
    "string_bet": "52",
    "raise_method": "43",
    "oversized_chip": "46",
    "multiple_chips": "47",
    "prior_chips": "48",
    "overbet_change": "57",
    "verbal": "38",
    "binding_declaration": "40-A",
    "unclear_bet": "53",
    "conditional": "55",
    "out_of_turn": "41-A",
    "skipped_player": "41-B",
    "undercall": "40-B",
    "boxed_card": "35-A",
    "wrong_seat": "35-A",
    "dealt_out": "35-A",
    "not_entitled": "35-A",
    "accepted_action": "50",
    "substantial_action": "36",
    "floor_decision": "1",
    "clock": "27",
    "final_table": "12",
    "balancing": "11",
    "balance_tolerance": "11",
    "new_player_seat": "10",
    "table_break": "10",
    "halt": "11",
    "button": "32",
    "seating": "7",
}

_BFSP_RULES: dict[str, str] = {
    **{topic: f"tda-2022 {rule}" for topic, rule in _TDA_2022_RULES.items()},
    "turn_order": "4.8.2",
    "check": "4.9.2",
    "bet": "4.9.3",
    "min_bet": "4.9.3",
    "min_raise": "4.9.6",
    "max_bet_pot_limit": "4.7.2",
    "limit_bet_size": "4.7.3",
    "raise_cap": "4.7.3",
    "reopen": "4.9.8",
    "call": "4.9.4",
    "fold": "4.9.1",
    "bring_in": "5.8.2",
    "complete": "5.8.3",
    "forced_bet": "5.4.1",
    "deal_count": "6.3.5",
    "duplicate_card": "6.2.2",
    "burn": "6.4.6",
    "irregular_flop": "6.6.3",
    "show": "5.9.2",
    "mucked_hand": "5.9.2",
    "hand_over": "5.9.1",
    "stakes": "3.3",
    "misdeal": "6.3",
    "showdown_order": "5.9.2",
    "odd_chip": "5.9.3",
    "side_pot": "4.1",
    "string_bet": "4.11",
    "raise_method": "4.11",
    "oversized_chip": "4.12",
    "multiple_chips": "4.14.3",
    "overbet_change": "4.14",
    "verbal": "4.8.1",
    "binding_declaration": "4.8.1",
    "out_of_turn": "4.10",
    "undercall": "4.13",
    "incorrect_bet": "4.13",
    "pot_limit_correction": "4.14",
    "boxed_card": "6.4.5",
    "wrong_seat": "6.3.3",
    "dealt_out": "6.3.4",
    "not_entitled": "6.3.4",
    "floor_decision": "7.4.1",
    "clock": "7.1.7",
    "dispute": "5.9.1",
    "final_table": "3.1",
    "stud_open_pair": "5.8.5",
    "balancing": "3.1",
    "balance_tolerance": "3.1",
    "button": "5.3.2",
    "seating": "5.2",
    **_OFC_RULES,
}
for _tda_rules in (_TDA_2022_RULES, _TDA_2017_RULES, _TDA_CLUB_RULES):
    _tda_rules.update({topic: f"bfsp {rule}" for topic, rule in _OFC_RULES.items()})

BFSP = Rulebook(
    name="bfsp",
    title="Belarusian Sports Poker Federation, Sports Poker Rules",
    rules=_BFSP_RULES,
    limit_max_raises=3,  # 4.7.3
    limit_unlimited_heads_up=True,  # 4.7.3
    short_all_in_reraise=ShortAllInReraise.LAST_FULL_INCREMENT,  # 4.9.8 read as a director would (RULEBOOKS.md)
    odd_chip=OddChipRule.FIRST_LEFT_OF_BUTTON,  # 5.9.3
    checked_through_shows_first=CheckedThroughShowsFirst.LAST_AGGRESSOR_ANY_ROUND,  # 5.9.2
    stud_open_pair_big_bet=True,  # 5.8.5
    undercall=Undercall.COMPLETE_OR_FORFEIT,  # 4.13
    out_of_turn_chips_returned=False,  # 4.10
    misdeal_until_substantial_action=False,  # 6.3
    clock_seconds=30,  # 7.1.7 note
    clock_countdown_seconds=10,  # 7.1.7 note
    clock_expired_checks=False,  # 7.1.7 note, 4.9.1: the hand is folded
    final_table_sizes=((6, 7), (7, 7), (8, 9), (9, 9), (10, 9)),  # 3.1: 10-max events end 9-max
    last_two_tables_nine_max=True,  # 3.1
    mover_exception_short_by=3,  # 3.1: more than 2 fewer
    dead_button=False,  # 5.3.2: the button moves one seat each hand
    pot_count_dispute_until_substantial_action=False,  # 5.9.1: the next hand's start ends every challenge
)

TDA_2022 = Rulebook(
    name="tda-2022",
    title="Poker TDA Rules 2022 v1.0 with Recommended Procedures and Illustration Addendum",
    rules=_TDA_2022_RULES,
    limit_unlimited_heads_up=False,  # 48
    checked_through_shows_first=CheckedThroughShowsFirst.FIRST_TO_ACT,  # 17-A
)

TDA_2017 = Rulebook(
    name="tda-2017",
    title="Poker TDA Rules 2017 v3.0 (with a casino's Section 7 house rules in the same source)",
    rules=_TDA_2017_RULES,
    limit_unlimited_heads_up=False,  # D-51
    checked_through_shows_first=CheckedThroughShowsFirst.FIRST_TO_ACT,  # D-16
    raise_call_then_one_motion=True,  # D-45 (3)
    halt_table_sizes=(8, 9),  # D-10 D
    final_table_sizes=((6, 7), (7, 8), (8, 9), (9, 10), (10, 10)),  # D-11: seats + 1, never above 10
)

TDA_CLUB = Rulebook(
    name="tda-club",
    title="A poker club's edition of the TDA rules (about 2015) with house additions",
    rules=_TDA_CLUB_RULES,
    limit_unlimited_heads_up=False,  # 49 is silent on limit; follows TDA 2022 48
    checked_through_shows_first=CheckedThroughShowsFirst.FIRST_TO_ACT,  # 13-22 missing; TDA 2022 17-A
    ambiguous_amount=AmbiguousAmount.SMALLEST,  # 53
    last_chips_all_in=False,  # 47
    raise_call_then_one_motion=True,  # 43-C
    clock_seconds=50,  # 27
    clock_countdown_seconds=10,  # 27
    clock_expired_checks=False,  # 27: the hand is dead
    final_table_sizes=((6, 7), (7, 8), (8, 9), (9, 9), (10, 9)),  # 12: seats + 1, never above 9
    chip_race_rounds_up=True,  # 24-A
)

#: every preset by name; ``bfsp`` is the default (DESIGN decision 5)
RULEBOOKS: dict[str, Rulebook] = {book.name: book for book in (BFSP, TDA_2022, TDA_2017, TDA_CLUB)}
DEFAULT_RULEBOOK = "bfsp"


class UnknownRulebookError(KeyError):
    """A rulebook name no preset has."""

    def __str__(self) -> str:
        return str(self.args[0])


def get_rulebook(name: str = DEFAULT_RULEBOOK) -> Rulebook:
    """The preset called ``name``; an unknown name is refused with the list of known ones."""
    try:
        return RULEBOOKS[name]
    except KeyError:
        known = ", ".join(sorted(RULEBOOKS))
        raise UnknownRulebookError(
            f"no rulebook is called {name!r}; the known rulebooks are {known}"
        ) from None
