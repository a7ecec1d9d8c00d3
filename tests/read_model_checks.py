"""What the read-model tests, on SQLite and on the real server, look at: every row of every read model, a
projector whose pages a reader looks at before they commit, and work done on a thread of its own."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from projections import schema
from projections.database import ReadDatabase, Writer
from projections.runner import Projector


def everything(database: ReadDatabase) -> dict[str, list[Any]]:
    """Every row of every read model, in a stable order."""
    return {table: database.query(sql) for table, sql in schema.dump_all()}


class Watched(Projector):
    """A projector whose every page, written and not yet committed, is looked at by a reader."""

    reader: ReadDatabase
    seen: list[dict[str, list[Any]]]

    def _write(self, w: Writer, page: Any, sql: schema.Writes, last_id: int | None) -> None:
        super()._write(w, page, sql, last_id)
        self.seen.append(everything(self.reader))


def on_a_thread(work: Callable[[], Any]) -> Any:
    """What ``work`` returns, run on a new thread (as FastAPI runs a request's parts on its worker threads)."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(work()))
    thread.start()
    thread.join()
    return out[0]
