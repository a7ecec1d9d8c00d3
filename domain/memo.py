"""A bounded memo: answers remembered for the few keys a long-running process meets again and again.

The referee reads and writes the same handful of times over and over (a hand history's acts repeat their times;
records written in one second share one), and each costs as much to parse or write as the rest of the record's
meta. A memo that only grew would hold every time a referee ever met; one evicting the least recently used
would cost a bookkeeping step at every hit. This one empties when full: a hit is one dict lookup, and what is
met again is remembered again at once.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedMemo(dict[K, V], Generic[K, V]):
    """A dict of at most ``bound`` answers, emptied when a new one would pass the bound.

    Read it as a dict (``memo.get(key)``: the hot path stays one C call); add through :meth:`keep`, which keeps the
    bound. Not for answers that must survive: whatever it forgets is worked out again.
    """

    __slots__ = ("bound",)

    def __init__(self, bound: int) -> None:
        if bound < 1:
            raise ValueError(f"a memo's bound is at least 1, not {bound}")
        super().__init__()
        self.bound = bound

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (emptying the memo first when it is full); answer ``value``."""
        if len(self) >= self.bound and key not in self:
            self.clear()
        self[key] = value
        return value


__all__ = ["BoundedMemo"]
