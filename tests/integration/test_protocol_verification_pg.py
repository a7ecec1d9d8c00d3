"""The protocol's verification on PostgreSQL (issue 11, §5): a PlayerEliminated changed and a HandEnded deleted
in the server's store are each named, and the protocol is marked as failing, its signatures as no longer
covering it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import psycopg
import pytest
from federation_records import COMPETITION, Records, opening, play_to_the_end

from ingest.log import EmbeddedLog
from ingest.referee import Referee
from ingest.store import Store, store_env
from projections.protocol import checked_protocol

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration


def test_a_tampered_postgres_store_gives_a_protocol_marked_as_failing(tmp_path: Path, pg_database: PgDatabase) -> None:
    records = Records()
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=1)
    log.append([*opening(records), *play_to_the_end(records)])
    store = Store(env=store_env(pg_database.url))
    try:
        assert {v.outcome for v in Referee(store, "events").judge(0, log.read(0, 0, 10_000))} == {"accepted"}
        assert checked_protocol(store, COMPETITION)["verification"]["ok"] is True
        with psycopg.connect(pg_database.url, autocommit=True) as db:
            rows = db.execute("SELECT notification_id, originator_version, topic, state FROM pokeraudit_events"
                              " ORDER BY notification_id").fetchall()
            changed = next(r for r in rows if b'"place":3' in bytes(r[3]))
            db.execute("UPDATE pokeraudit_events SET state = %s WHERE notification_id = %s",
                       (bytes(changed[3]).replace(b'"place":3', b'"place":4'), changed[0]))
            ended = next(r for r in rows if r[2].endswith("Hand.HandEnded"))
            db.execute("DELETE FROM pokeraudit_events WHERE notification_id = %s", (ended[0],))
        verification = checked_protocol(store, COMPETITION)["verification"]
        assert verification["ok"] is False and len(verification["breaks"]) == 2
        assert any(f"version {changed[1]} (PlayerEliminated): its content hashes to" in b for b in verification["breaks"])
        assert any(f"the stream ends at version {ended[1] - 1}" in b for b in verification["breaks"])
    finally:
        store.close()
        log.close()
