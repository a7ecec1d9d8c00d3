"""A rebuild by several processes: each projects the streams of one partition of the store.

Hands, rejection logs and reviews are separate streams and their rows are keyed by stream, so partitions
never write the same row. The position reads REBUILDING while the workers run; only when all of them have
committed their rows does it become the head they projected up to. A rebuild cut short leaves REBUILDING,
which the projector refuses to catch up from (its rows would be incomplete): the rebuild must run again.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from projections import schema
from projections.database import ReadSettings

if TYPE_CHECKING:
    from projections.runner import Projector


@dataclass(frozen=True)
class Where:
    """The settings a worker process needs (picklable, whatever the caller's settings are)."""

    database_url: str | None
    data_dir: Path


def rebuild_in_parallel(projector: Projector, settings: ReadSettings, workers: int) -> int:
    """Project everything stored up to now in ``workers`` processes; the number of events they read."""
    head = projector.store.recorder.max_notification_id() or 0
    projector.save_position(schema.REBUILDING)
    where = Where(settings.database_url, settings.data_dir)
    # forked, so a caller's script needs no ``__main__`` guard; a child opens its own connections, never
    # touches the ones it inherits, and leaves by os._exit, so it does not close them either
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        parts = [pool.submit(_project_part, where, part, workers, head, projector.page) for part in range(workers)]
        done = sum(part.result() for part in parts)
    projector.save_position(head)
    return done


def _project_part(where: Where, part: int, parts: int, head: int, page: int) -> int:
    from projections.runner import Projector

    projector = Projector.from_settings(where, page=page)
    projector.partition = (part, parts)
    try:
        return projector.project_partition(head)
    finally:
        projector.close()
