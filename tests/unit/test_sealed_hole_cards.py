"""Every reported hand event that carries cards is in the sealing table (DESIGN decision 12), so a new event's
cards cannot leak past the policy: the board alone is public to all and not listed."""

from __future__ import annotations

import dataclasses

import pytest

from api.sealing import CARD_FIELDS
from domain.hand.codec import REPORTED

pytestmark = pytest.mark.unit

#: events whose cards are the board's, public to all
BOARD = {"BoardDealt", "FourCardFlopDealt", "FlopDealtUnburned", "FlopReformed", "CommunityCardDealt"}
CARD_NAMES = {"card", "cards", "discarded", "drawn", "burn"}


def test_every_event_that_carries_cards_is_in_the_sealing_table() -> None:
    carrying = {
        name for name, cls in REPORTED.items() if {f.name for f in dataclasses.fields(cls)} & CARD_NAMES
    }
    missing = carrying - BOARD - set(CARD_FIELDS)
    assert not missing, f"not in api/sealing.py CARD_FIELDS: {sorted(missing)}"
    assert CARD_FIELDS["ExtraCardDealt"] == (("card", "hole"),)
