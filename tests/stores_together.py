"""Stores opened at the same instant, as referees starting together open theirs (unit tests on SQLite,
integration tests on the real server)."""

from __future__ import annotations

import threading
from collections.abc import Mapping

from ingest.store import Store


def open_together(env: Mapping[str, str], stores: int) -> list[BaseException]:
    """``stores`` stores opened at the same instant with ``env`` (ingest.store.store_env); what each raised."""
    barrier = threading.Barrier(stores)
    failures: list[BaseException] = []

    def open_store() -> None:
        barrier.wait()
        try:
            Store(env=dict(env)).close()
        except BaseException as err:  # noqa: BLE001 - collected and asserted on by the caller
            failures.append(err)

    threads = [threading.Thread(target=open_store) for _ in range(stores)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures
