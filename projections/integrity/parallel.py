"""Counting hand-history files in parallel: each process counts its share of the files, and the counters,
which only add up, are merged. Reading and counting cost the same per hand, so files are dealt out by size.
The calling process counts the first share itself while the others count theirs: it would otherwise wait
idle, and its own counters need not be sent back and rebuilt (on two cores one helper process, not two).
The evaluation tables every share would fill as it meets new hands are filled once, array-wise, before the
helpers start (projections/integrity/tables.py), and a helper inherits them."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from domain.integrity.record import HandRecord
from projections.integrity import tables
from projections.integrity.counters import Counters

#: what reads a list of files into hand records (the CLI passes ingest's PHH reader)
Reader = Callable[[list[str]], Iterator[HandRecord]]
#: from this many bytes of files on the tables are filled ahead (about 1,500 hands: fewer meet too few of the
#: 75,000 rank multisets to pay for the tenth of a second)
FILL_FROM = 1_000_000


def count(records: Iterable[HandRecord]) -> Counters:
    counters = Counters()
    for record in records:
        counters.add(record)
    # the seatings' lookups are a cache: not sent back from a reading process
    counters.tables.clear()
    return counters


def _count_share(reader: Reader, files: list[str]) -> Counters:
    return count(reader(files))


def count_in_parallel(reader: Reader, files: list[Path], workers: int | None = None) -> Counters:
    """The counters of ``files`` read by ``reader``, in ``workers`` processes (default: the cores, at most 2)."""
    workers = workers or min(2, os.cpu_count() or 1)
    sizes = {f: f.stat().st_size for f in files}
    filled = sum(sizes.values()) >= FILL_FROM
    if filled:
        tables.fill()
    if workers <= 1 or len(files) < 2:
        return count(reader([str(f) for f in files]))
    shares: list[list[str]] = [[] for _ in range(workers)]
    loads = [0] * workers
    for file in sorted(files, key=lambda f: -sizes[f]):
        least = loads.index(min(loads))
        shares[least].append(str(file))
        loads[least] += sizes[file]
    # a helper forked from this process has the tables already; one started afresh fills its own
    with ProcessPoolExecutor(workers - 1, initializer=tables.fill if filled and not _forks() else None) as pool:
        others = [pool.submit(_count_share, reader, share) for share in shares[1:]]
        total = _count_share(reader, shares[0])
        for other in others:
            total.merge(other.result())
    return total


def _forks() -> bool:
    """Whether the helper processes are forked from this one (and so inherit its filled tables)."""
    import multiprocessing

    return multiprocessing.get_start_method(allow_none=False) == "fork"
