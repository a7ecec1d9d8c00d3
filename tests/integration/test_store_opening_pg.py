"""Opening the store while a referee commits: no lock taken, so no deadlock.

Found in the outage test as "deadlock detected" reading the revoked-token list: the API opened its store there
(after PostgreSQL came back), and the opening ran the tables' statements again — ``CREATE UNIQUE INDEX IF NOT
EXISTS`` takes a SHARE lock on the events and ``ALTER TABLE … ADD COLUMN IF NOT EXISTS`` an ACCESS EXCLUSIVE one on
the answered ids even when there is nothing to do, in the opposite order to a referee's commit (the answered ids,
then the events' table lock).
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

import psycopg
import pytest
from psycopg import sql

from ingest.store import Store, store_env

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration


def test_a_store_opened_while_a_referee_commits_takes_no_lock_and_deadlocks_with_nothing(
    pg_database: PgDatabase,
) -> None:
    made = Store(env=store_env(pg_database.url))  # the tables, as the first process to start makes them
    recorder = made.recorder
    seen, events = recorder.seen_table, recorder.events_table  # type: ignore[attr-defined]
    with psycopg.connect(pg_database.url) as referee:
        # a referee's commit, half done: its answered ids written (and so that table locked for writing) ...
        referee.execute(sql.SQL("LOCK TABLE {} IN ROW EXCLUSIVE MODE").format(seen))
        opened: list[Store] = []
        failed: list[BaseException] = []

        def open_store() -> None:
            try:
                opened.append(Store(env=store_env(pg_database.url)))
            except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
                failed.append(exc)

        opening = threading.Thread(target=open_store, name="opening")
        opening.start()
        opening.join(timeout=10)
        # ... the store opened meanwhile, without waiting for the referee's transaction
        if opening.is_alive():
            with psycopg.connect(pg_database.url, autocommit=True) as look:
                waiting = look.execute("SELECT query FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                                       (pg_database.dbname,)).fetchall()
        else:
            waiting = []
        assert not opening.is_alive() and not failed and opened, (
            "opening the store waited for a referee's commit (it locked the tables)", failed, waiting)
        # ... and the referee's commit goes on: its table lock on the events, then the commit
        started = time.monotonic()
        referee.execute("SET LOCAL lock_timeout = '10s'")
        referee.execute(sql.SQL("LOCK TABLE {} IN EXCLUSIVE MODE").format(events))
        referee.commit()
        assert time.monotonic() - started < 5
    for store in (made, *opened):
        store.close()
