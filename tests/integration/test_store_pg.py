"""The event store on the real server: referees that start together on an empty database all open it."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import psycopg
import pytest

from ingest.store import Store, store_env

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration

REFEREES = 6
ROUNDS = 4


def open_together(url: str, schema: str) -> list[BaseException]:
    """``REFEREES`` stores opened at the same instant on ``schema``; what each of them raised."""
    barrier = threading.Barrier(REFEREES)
    failures: list[BaseException] = []

    def open_store() -> None:
        barrier.wait()
        try:
            Store(env=store_env(url, schema=schema)).close()
        except BaseException as err:  # noqa: BLE001 - collected and asserted on below
            failures.append(err)

    threads = [threading.Thread(target=open_store) for _ in range(REFEREES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def test_referees_starting_together_on_an_empty_database_all_open_the_store(pg_database: PgDatabase) -> None:
    for round_ in range(ROUNDS):
        schema = f"referees_{round_}"
        with psycopg.connect(pg_database.url, autocommit=True) as db:
            db.execute(f"CREATE SCHEMA {schema}")
        assert open_together(pg_database.url, schema) == []
        with psycopg.connect(pg_database.url, autocommit=True) as db:
            tables = {
                row[0]
                for row in db.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,)
                )
            }
        assert {"pokeraudit_events", "pokeraudit_tracking", "referee_event_ids"} <= tables
