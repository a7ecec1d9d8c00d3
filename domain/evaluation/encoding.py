"""Integer encodings shared by the evaluators.

A hand's strength is one ``int`` (higher is better): its category in the top bits, then up to five ranks,
four bits each, most significant first. Low hands store the negated high-style number, so the ordering of
every kind is plain integer comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from domain.cards import SUIT_SENIORITY, Suit

CATEGORY_SHIFT = 20
RANK_BITS = 4
RANK_SLOTS = 5

#: Suit of a card as a small int (clubs 0 … spades 3), the same numbers as the rulebook's seniority.
SUIT_INDEX: dict[Suit, int] = dict(SUIT_SENIORITY)

#: ``POW5[rank]``: adding one per card gives a key unique to the multiset of ranks (a rank occurs at most
#: four times in a deck, so base 5 never carries).
POW5: tuple[int, ...] = tuple(5**r for r in range(16))


def pack_ranks(ranks: Iterable[int]) -> int:
    """Up to five ranks, first most significant, into twenty bits (missing slots are zero)."""
    packed = 0
    count = 0
    for rank in ranks:
        packed = (packed << RANK_BITS) | rank
        count += 1
    return packed << (RANK_BITS * (RANK_SLOTS - count))


def unpack_ranks(packed: int) -> tuple[int, ...]:
    """The non-zero ranks of :func:`pack_ranks`, most significant first."""
    mask = (1 << (RANK_BITS * RANK_SLOTS)) - 1
    packed &= mask
    ranks = []
    for slot in range(RANK_SLOTS - 1, -1, -1):
        rank = (packed >> (RANK_BITS * slot)) & 0xF
        if rank:
            ranks.append(rank)
    return tuple(ranks)


def ranks_of_key(key: int) -> list[int]:
    """The ranks (with repeats, highest first) whose ``POW5`` sum is ``key``."""
    ranks: list[int] = []
    for rank in range(15, -1, -1):
        count, key = divmod(key, POW5[rank])
        ranks.extend([rank] * count)
    return ranks


def grouped(ranks: Iterable[int]) -> list[tuple[int, int]]:
    """``(count, rank)`` groups, most cards first, then highest rank first (how hands are read)."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    return sorted(((n, r) for r, n in counts.items()), reverse=True)


class LazyTable(dict[int, int]):
    """A table that computes an entry the first time it is looked up, then remembers it.

    With a ``limit``, the table starts afresh when it would grow past it (for keys drawn from a large
    space, such as sets of cards), so memory stays bounded in a long-running service.
    """

    def __init__(self, compute: Callable[[int], int], limit: int | None = None) -> None:
        super().__init__()
        self._compute = compute
        self._limit = limit

    def __missing__(self, key: int) -> int:
        value = self._compute(key)
        if self._limit is not None and len(self) >= self._limit:
            self.clear()
        self[key] = value
        return value
