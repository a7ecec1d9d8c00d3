"""The seat draw: random, secret until it is made, and recomputable by anyone afterwards (bfsp 5.2).

The procedure is commit, then reveal. Before the draw the Secretary records ``SHA-256(seed)`` (the seed as
UTF-8 text, the digest in lower-case hex); after it, the seed itself and the assignments. Since the commitment
came first, nobody could pick a seed that seats a player where he wanted; since the assignments are a pure
function of the seed, anyone can recompute them:

1. **The players** are the participant ids in sorted order (Python's ``sorted`` of the strings).
2. **The seat cards** (bfsp 5.2's "special draw cards"): ``tables = ceil(players / seats per table)``; the
   players are spread as evenly as tables allow, the first ``players % tables`` tables taking one more; table
   ``t`` gets the cards ``(t, 1) … (t, n_t)``, and the cards are listed table by table, seat by seat.
3. **The shuffle** is Fisher–Yates over the cards: for ``i`` from the last index down to 1, swap card ``i``
   with card ``j``, a number from 0 to ``i`` drawn as follows.
4. **A number below ``bound``**: take ``SHA-256(seed + ":" + counter)``, ``counter`` counting 0, 1, 2 …
   over the whole draw, and read its first 8 bytes as a big-endian integer ``v``. If ``v`` is below the largest
   multiple of ``bound`` under 2**64, the number is ``v % bound``; otherwise take the next counter (so every
   number is exactly as likely as every other).
5. **The assignment**: the k-th player in sorted order sits at the k-th card of the shuffled list.
6. **The starting button** of each table is its highest seat taken (bfsp 5.3.1: "the last seat").

The final-table draw and each Olympic stage's draw are the same procedure over their own players and tables.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import TypeVar

from domain.competition.events import SeatAssignment, StartingButton
from domain.errors import CompetitionError, RuleRef

T = TypeVar("T")
_SPACE = 2**64


def commitment(seed: str) -> str:
    """What is recorded before the draw: the seed's SHA-256 in hex."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def seat_cards(players: int, seats_per_table: int) -> list[tuple[int, int]]:
    """The (table, seat) cards for ``players``, spread as evenly as the tables allow."""
    if players <= 0:
        return []
    tables = -(-players // seats_per_table)
    base, extra = divmod(players, tables)
    return [(t, s) for t in range(1, tables + 1) for s in range(1, base + (t <= extra) + 1)]


def shuffled(seed: str, items: Sequence[T], label: str = "") -> list[T]:
    """Fisher–Yates driven by SHA-256 of the seed and a counter (steps 3 and 4 of the module's description).

    A ``label`` keeps two shuffles from one seed apart (a table break's seat cards and its deck,
    :mod:`domain.competition.breaking`): each hashes ``seed + ":" + label + ":" + counter`` with a counter of its
    own. The seat draw has none, and hashes ``seed + ":" + counter`` as step 4 says.
    """
    stem = f"{seed}:{label}" if label else seed
    deck = list(items)
    counter = 0
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = _SPACE - _SPACE % bound
        while True:
            digest = hashlib.sha256(f"{stem}:{counter}".encode()).digest()
            counter += 1
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                break
        j = value % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def draw(seed: str, participants: Iterable[str], seats_per_table: int) -> tuple[SeatAssignment, ...]:
    """Who sits where, recomputed from the seed: sorted by table and seat."""
    players = sorted(participants)
    cards = shuffled(seed, seat_cards(len(players), seats_per_table))
    seated = (
        SeatAssignment(player, table, seat) for player, (table, seat) in zip(players, cards, strict=True)
    )
    return tuple(sorted(seated, key=lambda a: (a.table, a.seat)))


def starting_buttons(assignments: Iterable[SeatAssignment]) -> tuple[StartingButton, ...]:
    """Each table's button starts at its highest seat taken (bfsp 5.3.1)."""
    highest: dict[int, int] = {}
    for a in assignments:
        highest[a.table] = max(highest.get(a.table, 0), a.seat)
    return tuple(StartingButton(table, seat) for table, seat in sorted(highest.items()))


def verify_draw(
    seed: str,
    committed: str,
    participants: Iterable[str],
    seats_per_table: int,
    assignments: tuple[SeatAssignment, ...],
    rule: RuleRef,
) -> None:
    """Refuse a draw whose seed is not the one committed to, or whose seats are not what the seed gives."""
    if commitment(seed) != committed:
        raise CompetitionError(
            f"the seed revealed does not hash to the commitment recorded before the draw "
            f"({commitment(seed)[:16]}… against {committed[:16]}…); the draw cannot be accepted",
            rule,
        )
    expected = draw(seed, participants, seats_per_table)
    if tuple(sorted(assignments, key=lambda a: (a.table, a.seat))) != expected:
        wrong = next(
            (f"{a.participant} at table {a.table} seat {a.seat}" for a in assignments if a not in expected),
            "the list of players",
        )
        raise CompetitionError(
            f"the seats recorded are not the ones the seed gives ({wrong} differs from the recomputed draw)",
            rule,
        )
