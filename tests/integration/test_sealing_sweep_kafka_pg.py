"""The every-route sealing sweep (tests/sealing_sweep.py) on the real broker and server, over HTTP: the scenario
goes onto the Kafka topic, the referee and the projector in the served process judge and project it into
PostgreSQL, and every GET route of the OpenAPI schema is read as every role and anonymously, in every format."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import httpx
import pytest
import sealing_sweep_ofc
from api_server import SECRET, kafka_pg_settings, serving
from sealing_sweep import (
    LIVE_COMPETITION,
    MINSK,
    OFC_WORLD,
    OPEN,
    READERS,
    REJECTED,
    Read,
    get_paths,
    scenario,
    sweep,
)

from api.app import create_app
from api.auth import issue_token
from api.bootstrap import bootstrap
from api.settings import Settings

if TYPE_CHECKING:
    from conftest import PgDatabase

pytestmark = pytest.mark.integration


@pytest.fixture
def settings(kafka_bootstrap: str, topic_factory: Callable[..., str], pg_database: PgDatabase) -> Settings:
    return kafka_pg_settings(kafka_bootstrap, topic_factory, pg_database.url, POKERAUDIT_PUBLIC_READ=True)


@pytest.fixture
def served(settings: Settings) -> Iterator[tuple[httpx.Client, list[str]]]:
    """The API on the scenario, and the GET routes its app serves (pages left out of the schema included)."""
    pipeline = bootstrap(settings)
    try:
        pipeline.log.append(scenario())
    finally:
        pipeline.close()
    app = create_app(settings, workers=True)
    with serving(app) as url, httpx.Client(base_url=url, timeout=120) as client:
        yield client, get_paths(app)


def judge() -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, 'j', 'judge')}"}


def settled(api: httpx.Client) -> bool:
    """Everything judged and projected: the three competitions' hands and the refusal read back, no lag."""
    listed = api.get("/v1/competitions", headers=judge())
    if listed.status_code != 200:
        return False
    found = {c["competition_id"]: (c["hands"], c["rejections"]) for c in listed.json()["items"]}
    protests = api.get(f"/v1/competitions/{MINSK}/protests", headers=judge())
    lag = api.get("/v1/projections/lag", headers=judge()).json()["lag"]
    return (
        found == {MINSK: (2, 0), LIVE_COMPETITION: (1, REJECTED), OPEN: (1, 0)}
        and protests.status_code == 200 and protests.json()["total"] == 2 and lag == 0
    )


def test_no_route_shows_a_role_a_card_or_a_text_it_may_not_see_on_kafka_and_postgres(
    served: tuple[httpx.Client, list[str]],
) -> None:
    api, paths = served
    deadline = time.monotonic() + 120
    while not settled(api):
        assert time.monotonic() < deadline, api.get("/v1/competitions", headers=judge()).text
        time.sleep(0.2)
    secretary = {"Authorization": f"Bearer {issue_token(SECRET, 'sec-petrova', 'secretary')}"}
    taken = api.post(f"/v1/competitions/{MINSK}/protocol/snapshots", headers=secretary)
    assert taken.status_code == 201, taken.text

    def get(url: str, headers: dict[str, str]) -> Read:
        answer = api.get(url, headers=headers)
        return Read(answer.status_code, answer.headers.get("content-type", ""), answer.content)

    swept = sweep(api.get("/openapi.json").json(), get, SECRET, paths)
    assert swept.leaks == []
    assert sorted(what for what, readers in swept.seen.items() if not readers) == []
    assert swept.answered > 40 * len(READERS)


def test_no_route_shows_a_role_an_ofc_discard_or_a_fantasy_hand_on_kafka_and_postgres(settings: Settings) -> None:
    """The OFC world (tests/sealing_sweep_ofc.py) on a topic and a database of its own, projected by the served
    process into PostgreSQL's OFC read models."""
    records = sealing_sweep_ofc.scenario()
    pipeline = bootstrap(settings)
    try:
        pipeline.log.append(records)
    finally:
        pipeline.close()
    app = create_app(settings, workers=True)
    with serving(app) as url, httpx.Client(base_url=url, timeout=120) as api:

        def ofc_settled() -> bool:
            listed = api.get("/v1/competitions", headers=judge())
            found = {c["competition_id"]: (c["ofc_rounds"], c["ofc_rounds_in_progress"]) for c in listed.json()["items"]}
            lag = api.get("/v1/projections/lag", headers=judge()).json()["lag"]
            return found == {sealing_sweep_ofc.COMPETITION: (2, 1)} and lag == 0

        deadline = time.monotonic() + 120
        while not ofc_settled():
            assert time.monotonic() < deadline, api.get("/v1/competitions", headers=judge()).text
            time.sleep(0.2)

        def get(url: str, headers: dict[str, str]) -> Read:
            answer = api.get(url, headers=headers)
            return Read(answer.status_code, answer.headers.get("content-type", ""), answer.content)

        swept = sweep(api.get("/openapi.json").json(), get, SECRET, get_paths(app), OFC_WORLD)
    assert swept.leaks == []
    assert sorted(what for what, readers in swept.seen.items() if not readers) == []
    assert swept.answered > 20 * len(OFC_WORLD.readers)
