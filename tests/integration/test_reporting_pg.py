"""The reporting schema in PostgreSQL: a whole simulated competition judged into the store and projected into
the read models, then every ``reporting.*`` view read back against the simulation's own record (its hands,
eliminations, penalties, protests and winner) — and no view holds a hole card or a rejection's reason."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg
import pytest

from api.cli_simulate import CompetitionPublisher
from ingest.log import EmbeddedLog
from ingest.referee import Referee
from ingest.runners import drain_embedded
from ingest.simulator import simulate, simulate_competition
from ingest.store import Store, store_env
from projections import reporting
from projections.database import PostgresReadDatabase
from projections.protocol import compile_snapshot
from projections.runner import Projector

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration


@pytest.fixture
def judged(tmp_path: Path, pg_database: PgDatabase) -> Iterator[tuple[str, Any, Any]]:
    """A whole competition (18 players) and a set of simulated tables with dealers' slips, judged and
    projected in PostgreSQL; the reporting views installed."""
    log = EmbeddedLog(tmp_path / "log.sqlite", "events", partitions=3)
    store = Store(env=store_env(pg_database.url))
    referee = Referee(store, "events", protocols=compile_snapshot)
    whole = simulate_competition(11, 18)
    CompetitionPublisher(log, lambda: store, lambda: list(drain_embedded(log, referee)) and None).publish(whole)
    tables = simulate(3, tables=2, seats=6, hands_per_table=8, mistakes=0.05)
    log.append(list(tables.records()))
    list(drain_embedded(log, referee))
    projector = Projector(store, PostgresReadDatabase(pg_database.url, pool_size=2))
    projector.catch_up()
    projector.close()
    assert reporting.install(pg_database.url) == [f"reporting.{name}" for name in reporting.VIEWS]
    try:
        yield pg_database.url, whole, tables
    finally:
        log.close()
        store.close()


def rows(url: str, sql: str, *params: Any) -> list[dict[str, Any]]:
    with psycopg.connect(url) as connection, connection.cursor(row_factory=psycopg.rows.dict_row) as cursor:
        cursor.execute(sql, params)  # type: ignore[arg-type]
        return list(cursor.fetchall())


def test_every_reporting_view_reads_the_competition_as_it_was_played(judged: tuple[str, Any, Any]) -> None:
    url, whole, tables = judged
    competition = whole.competition_id
    hands = rows(url, "SELECT * FROM reporting.hands WHERE competition = %s ORDER BY table_id, number", competition)
    assert len(hands) == whole.summary()["hands"]
    assert all(h["status"] == "ended" and h["ended_at"] >= h["started_at"] for h in hands)

    # every hand's seats, stacks as the engine (or a ruling) left them; chips are conserved hand by hand
    for hand in hands[:10]:
        seats = rows(url, "SELECT * FROM reporting.stacks WHERE hand_id = %s", hand["hand_id"])
        assert sum(s["stack"] for s in seats) == sum(s["starting_stack"] for s in seats)
        pots = rows(url, "SELECT * FROM reporting.pots WHERE hand_id = %s AND awarded", hand["hand_id"])
        won = sum(share["amount"] for p in pots for share in p["shares"])
        assert won == sum(p["amount"] for p in pots)

    eliminations = rows(url, "SELECT * FROM reporting.eliminations WHERE competition = %s", competition)
    assert len(eliminations) == 17  # every player but the winner
    assert sorted(e["place"] for e in eliminations)[0] == 2

    penalties = rows(url, "SELECT * FROM reporting.penalties WHERE competition = %s", competition)
    assert len(penalties) == whole.summary()["penalties"]
    protests = rows(url, "SELECT * FROM reporting.protests WHERE competition = %s ORDER BY protest", competition)
    assert [p["protest"] for p in protests] == [p.protest for p in whole.protests]
    assert all(p["decision"] in ("dismissed", "upheld") for p in protests)
    assert protests[1]["forwarded_at"] is not None and protests[1]["deadline"] > protests[1]["forwarded_at"]

    standings = rows(url, "SELECT * FROM reporting.standings WHERE competition = %s ORDER BY chips DESC", competition)
    assert standings[0]["participant"] == whole.winner
    assert standings[0]["chips"] == 18 * 5000  # the winner holds every chip
    assert all(s["chips"] == 0 and s["eliminated_place"] for s in standings[1:])

    rejected = rows(url, "SELECT * FROM reporting.rejections WHERE competition = %s", tables.competition_id)
    assert rejected and all(r["rule"] for r in rejected)
    changes = rows(url, "SELECT count(*) AS n FROM reporting.stack_changes WHERE competition = %s", competition)
    assert changes[0]["n"] > len(hands)


def test_no_reporting_view_holds_a_hole_card_or_a_rejections_reason(judged: tuple[str, Any, Any]) -> None:
    url, whole, _ = judged
    dealt = rows(url, "SELECT payload FROM rm_history WHERE event_type = 'HoleCardsDealt' LIMIT 200")
    holes = {card for row in dealt for card in json.loads(row["payload"])["cards"]}
    assert holes
    for name in reporting.VIEWS:
        columns = [r["column_name"] for r in rows(
            url, "SELECT column_name FROM information_schema.columns WHERE table_schema = 'reporting' "
            "AND table_name = %s", name)]
        withheld = {"hole_cards", "cards", "grounds", "description"} | ({"reason"} if name == "rejections" else set())
        assert columns and not withheld & set(columns), name
    # the board is public and the stacks view names no card at all
    text = json.dumps(rows(url, "SELECT * FROM reporting.stacks LIMIT 500"), default=str)
    assert not any(f'"{card}"' in text for card in holes)


def test_the_views_survive_a_rebuild_of_the_read_models(judged: tuple[str, Any, Any], pg_database: PgDatabase) -> None:
    url, whole, _ = judged
    before = rows(url, "SELECT count(*) AS n FROM reporting.stacks")[0]["n"]
    store = Store(env=store_env(url))
    projector = Projector(store, PostgresReadDatabase(url, pool_size=2))
    try:
        assert projector.rebuild(workers=1) > 0  # drops the old read models: no view may hold them
    finally:
        projector.close()
        store.close()
    assert rows(url, "SELECT count(*) AS n FROM reporting.stacks")[0]["n"] == before > 0
    assert rows(url, "SELECT participant FROM reporting.standings ORDER BY chips DESC LIMIT 1")[0]["participant"] == (
        whole.winner
    )


def test_a_role_granted_the_reporting_schema_alone_reads_the_views_and_not_the_read_models(
    judged: tuple[str, Any, Any],
) -> None:
    import uuid

    from psycopg import sql

    url, whole, _ = judged
    role = f"bi_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(role)))
        for grant in (
            "GRANT USAGE ON SCHEMA reporting TO {}",
            "GRANT SELECT ON ALL TABLES IN SCHEMA reporting TO {}",
            "GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA reporting TO {}",
        ):
            admin.execute(sql.SQL(grant).format(sql.Identifier(role)))  # type: ignore[arg-type]
    try:
        with psycopg.connect(url, autocommit=True) as bi:
            bi.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
            leader = bi.execute("SELECT participant FROM reporting.standings ORDER BY chips DESC LIMIT 1").fetchone()
            assert leader is not None and leader[0] == whole.winner
            assert bi.execute("SELECT count(*) FROM reporting.pots").fetchone()[0] > 0  # type: ignore[index]
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                bi.execute("SELECT seats FROM rm_hands LIMIT 1")
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP OWNED BY {}").format(sql.Identifier(role)))
            admin.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(role)))
