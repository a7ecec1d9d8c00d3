"""A rebuild by several processes: each projects the streams of one partition of the store.

Hands, rejection logs and reviews are separate streams and their rows are keyed by stream, so partitions
never write the same row. The workers fill the rebuild's fresh tables; only when all of them have committed
their rows does the rebuild swap those tables in, with the head they projected up to as the position. A
rebuild cut short leaves the read models in use as they were.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Where:
    """The settings a worker process needs (picklable, whatever the caller's settings are)."""

    database_url: str | None
    data_dir: Path


#: how a worker process opens the store and the read models ``where`` names again: the composition root's
#: (api/bootstrap.py ``reopened``), a module-level function, handed down to the forked workers
Reopen = Callable[[Where], tuple[Any, Any]]
#: what a worker runs: (where, its part, the number of parts, the head, the page size, how to open its
#: databases) → the number of events it read. The projector passes its own (projections/runner.py), so that
#: this module does not import it.
ProjectPart = Callable[[Where, int, int, int, int, Reopen], int]


def rebuild_in_parallel(
    project_part: ProjectPart, where: Where, reopen: Reopen, workers: int, head: int, page: int
) -> int:
    """Project everything stored up to ``head`` in ``workers`` processes; the number of events they read."""
    # forked, so a caller's script needs no ``__main__`` guard; a child opens its own connections, never
    # touches the ones it inherits, and leaves by os._exit, so it does not close them either
    context = multiprocessing.get_context("fork")
    turns = context.Lock()
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_share, initargs=(turns,)) as pool:
        parts = [
            pool.submit(project_part, where, part, workers, head, page, reopen) for part in range(workers)
        ]
        return sum(part.result() for part in parts)


#: the lock the workers of a rebuild take turns writing with (inherited by the forked workers)
_turns: Any = None


def _share(turns: Any) -> None:
    global _turns
    _turns = turns


def turns() -> Any:
    """The lock this worker process of a rebuild takes turns writing with."""
    return _turns
