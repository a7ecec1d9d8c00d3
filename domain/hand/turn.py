"""Turn order: who acts first on each betting round, and in what order seats draw and show.

Seats go clockwise in increasing seat number. Blind games: the first seat after the last blind acts first
before the flop (heads-up that is the button, which posts the small blind), the first seat left of the
button afterwards (bfsp 5.6.2, 5.6.4; TDA 34). Stud: the lowest up-card brings in (razz: the highest),
then the best hand showing acts first (razz: the lowest) (bfsp 5.8.2, 5.8.6).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from domain.cards import Card, MaybeCard
from domain.evaluation import EvaluationKind, bring_in_key, showing_rank


def ring(seats: Sequence[int]) -> dict[int, int]:
    """Each seat's next seat clockwise."""
    return {s: seats[(i + 1) % len(seats)] for i, s in enumerate(seats)}


def clockwise_after(seats: Sequence[int], seat: int) -> tuple[int, ...]:
    """Every seat, starting with the first one clockwise after ``seat`` (which need not be occupied)."""
    start = next((i for i, s in enumerate(seats) if s > seat), 0)
    return tuple(seats[start:]) + tuple(seats[:start])


_TOPOLOGY: dict[tuple[tuple[int, ...], int], tuple[dict[int, int], tuple[int, ...]]] = {}


def topology(seats: tuple[int, ...], button: int) -> tuple[dict[int, int], tuple[int, ...]]:
    """(each seat's next seat, the seats from the first left of the button), memoised: tables repeat them.
    The results are shared: never mutate them."""
    key = (seats, button)
    known = _TOPOLOGY.get(key)
    if known is None:
        if len(_TOPOLOGY) >= 4096:
            _TOPOLOGY.clear()
        known = _TOPOLOGY[key] = (ring(seats), clockwise_after(seats, button))
    return known


def up_cards(cards: Sequence[MaybeCard], face_up: Sequence[bool]) -> list[Card]:
    return [c for c, up in zip(cards, face_up, strict=False) if up and c is not None]


def bring_in_seat(
    kind: EvaluationKind,
    seats: Sequence[int],
    hole: Mapping[int, Sequence[MaybeCard]],
    face_up: Mapping[int, Sequence[bool]],
    unable: Collection[int],
) -> int | None:
    """The seat that must bring in; None when an up-card is unknown (the record decides)."""
    best: tuple[tuple[int, int], int] | None = None
    for s in seats:
        if s in unable:
            continue
        ups = up_cards(hole[s], face_up[s])
        if not ups:
            return None
        key = (bring_in_key(kind, ups[0]), s)
        if best is None or key[0] > best[0]:
            best = key
    return best[1] if best else None


def best_showing_seat(
    kind: EvaluationKind,
    seats: Sequence[int],
    hole: Mapping[int, Sequence[MaybeCard]],
    face_up: Mapping[int, Sequence[bool]],
    able: Collection[int],
) -> int | None:
    """The seat that acts first on a later stud street: the best board among seats that can still bet."""
    best: tuple[tuple[int, ...], int] | None = None
    for s in seats:
        if s not in able:
            continue
        ups = up_cards(hole[s], face_up[s])
        key = showing_rank(kind, ups[-4:]) if ups else ()
        if best is None or key > best[0]:
            best = (key, s)
    return best[1] if best else None
