"""Rulebooks as versioned data (DESIGN decision 5).

Each preset is a :class:`Rulebook`: the parameters where the federation's and the TDA's texts differ, each
documented with the rule it comes from. Every rejection cites ``rulebook.cite(topic)``.
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


@dataclass(frozen=True, slots=True)
class Rulebook:
    name: str
    title: str
    #: rule ids by topic, so every rejection cites the right rule for this rulebook
    rules: dict[str, str] = field(default_factory=dict)
    limit_max_raises: int = 3
    limit_unlimited_heads_up: bool = True
    limit_reopen_fraction: float = 0.5
    nl_pl_reopen_fraction: float = 1.0
    short_all_in_reraise: ShortAllInReraise = ShortAllInReraise.LAST_FULL_INCREMENT
    odd_chip: OddChipRule = OddChipRule.FIRST_LEFT_OF_BUTTON
    #: showdown order when the final betting round was checked through (bfsp 5.9.2 vs TDA 2022 17-A)
    checked_through_shows_first: CheckedThroughShowsFirst = CheckedThroughShowsFirst.LAST_AGGRESSOR_ANY_ROUND
    #: several odd chips in one split: one each in odd-chip order (TDA 20 read per chip), or all to the first
    multiway_odd_chips: MultiwayOddChips = MultiwayOddChips.ONE_EACH_IN_ORDER
    #: the same players win both halves of a hi-lo pot: split the whole pot evenly, not each half
    #: (TDA 2017 D-19 D, illustrated by TV-44/TV-45: 66 chips split 33/33, never 34/32)
    hi_lo_same_winners_split_whole: bool = True

    def cite(self, topic: str) -> RuleRef:
        """The rule this rulebook applies to ``topic`` (``"min_raise"``, ``"turn_order"``, ...)."""
        return RuleRef(self.name, self.rules.get(topic, "general"))
