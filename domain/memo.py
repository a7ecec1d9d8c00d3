"""A bounded memo: answers remembered for the few keys a long-running process meets again and again.

The referee reads and writes the same handful of times over and over (a hand history's acts repeat their times;
records written in one second share one), and each costs as much to parse or write as the rest of the record's
meta. A memo that only grew would hold every time a referee ever met; one evicting the least recently used
would cost a bookkeeping step at every hit. This one empties when full: a hit is one dict lookup, and what is
met again is remembered again at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedMemo(Generic[K, V]):
    """At most ``bound`` answers, all forgotten when a new one would pass the bound.

    ``memo.get(key)`` is the dict's own ``get`` (the hot path stays one C call: a ``dict`` subclass's method costs
    a lookup through the class at every call); :meth:`keep` adds an answer within the bound. Not for answers that
    must survive: whatever it forgets is worked out again.
    """

    __slots__ = ("_found", "bound", "get")

    def __init__(self, bound: int) -> None:
        if bound < 1:
            raise ValueError(f"a memo's bound is at least 1, not {bound}")
        self.bound = bound
        self._found: dict[K, V] = {}
        #: the answer remembered for a key, or None
        self.get: Callable[[K], V | None] = self._found.get

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` (forgetting every answer first when the memo is full); answer ``value``."""
        found = self._found
        if len(found) >= self.bound and key not in found:
            found.clear()
        found[key] = value
        return value

    def __len__(self) -> int:
        return len(self._found)

    def __contains__(self, key: object) -> bool:
        return key in self._found


__all__ = ["BoundedMemo"]
