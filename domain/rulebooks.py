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

    def cite(self, topic: str) -> RuleRef:
        """The rule this rulebook applies to ``topic`` (``"min_raise"``, ``"turn_order"``, ...)."""
        return RuleRef(self.name, self.rules.get(topic, "general"))
