"""The one seeded shuffle behind the seat draw, the final-table and stage draws and a table break's draw.

Seats recorded before the two copies of the shuffle became one must still be the seeds' seats: the values
below were computed by the copies themselves, so a recomputation from an old seed gives the same seats.
"""

from __future__ import annotations

import hashlib

import pytest

from competition.a_competition import players
from competition.test_breaking import SEED, breaking_floor
from competition.test_draw import shuffle_as_documented
from domain.cards import standard_deck
from domain.competition.draw import draw, shuffled

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("label", ["", "deck", "seat-cards"])
def test_the_shuffle_is_the_documented_procedure_for_any_sequence_and_label(label: str) -> None:
    cards = [str(c) for c in standard_deck()]
    stem = f"seed 7:{label}" if label else "seed 7"
    assert shuffled("seed 7", cards, label) == shuffle_as_documented(stem, cards)
    assert shuffled("seed 7", tuple(range(30)), label) == shuffle_as_documented(stem, list(range(30)))


def test_a_label_gives_a_shuffle_of_its_own() -> None:
    cards = list(range(52))
    assert len({tuple(shuffled("seed", cards, label)) for label in ("", "deck", "seat-cards")}) == 3


def test_an_old_seat_draw_gives_the_same_seats() -> None:
    seats = [(a.participant, a.table, a.seat) for a in draw("minsk-open-2026 draw", players(12), 9)]
    assert seats == [
        ("p07", 1, 1), ("p05", 1, 2), ("p03", 1, 3), ("p04", 1, 4), ("p08", 1, 5), ("p10", 1, 6),
        ("p02", 2, 1), ("p06", 2, 2), ("p11", 2, 3), ("p01", 2, 4), ("p12", 2, 5), ("p09", 2, 6),
    ]  # fmt: skip


def test_an_old_break_draw_gives_the_same_seats_and_cards() -> None:
    broken = breaking_floor().break_table(3, SEED, "cj")
    assert [(m.participant, m.to_table, m.to_seat) for m in broken.moves] == [
        ("t3s6", 2, 9), ("t3s4", 2, 8), ("t3s2", 2, 7), ("t3s9", 1, 9),
    ]  # fmt: skip
    assert [(c.participant, c.seat, str(c.card)) for c in broken.cards] == [
        ("t3s2", 2, "4s"), ("t3s4", 4, "8c"), ("t3s6", 6, "Qd"), ("t3s9", 9, "4h"),
    ]  # fmt: skip


def test_sixty_old_seat_draws_and_decks_give_the_same_seats_and_cards() -> None:
    digest = hashlib.sha256()
    for n in range(60):
        for a in draw(f"seed {n}", players(5 + n), 9 if n % 2 else 10):
            digest.update(f"{a.participant},{a.table},{a.seat};".encode())
        for card in shuffled(f"seed {n}", standard_deck(), "deck"):
            digest.update(str(card).encode())
    assert digest.hexdigest() == "acb9b07cdb316f22bc2e34ac31276c5f11ed6033b9250620ee30edc397f52ca4"


def test_forty_old_break_draws_give_the_same_seats_and_cards() -> None:
    digest = hashlib.sha256()
    for n in range(40):
        broken = breaking_floor().break_table(3, f"seed {n}", "cj")
        for m in broken.moves:
            digest.update(f"{m.participant},{m.to_table},{m.to_seat};".encode())
        for c in broken.cards:
            digest.update(f"{c.participant},{c.seat},{c.card};".encode())
    assert digest.hexdigest() == "0370dd5fb11ce1914b42efe7534cbe796a60a0fd4f72e31143b3227c5ee93372"
