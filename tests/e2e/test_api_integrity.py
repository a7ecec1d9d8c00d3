"""Integrity's API over a simulated competition in the embedded mode: pair scores and alerts for the integrity
and federation roles only, player statistics for the officials, 403 for everyone else, 404 for no hands."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.auth import issue_token
from api.bootstrap import bootstrap, open_projector, open_read_models
from api.operations import publish, referee_once
from api.settings import Settings
from ingest.simulator import simulate

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
COMPETITION = "sim-5"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("store")
    settings = Settings(POKERAUDIT_DATA_DIR=folder, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    publish(pipeline, list(simulate(5, tables=1, seats=6, hands_per_table=40).records()), progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    # the statistics are the read model the projector keeps
    projector = open_projector(settings)
    projector.catch_up()
    projector.close()
    read_models = open_read_models(settings)
    with TestClient(create_app(settings, pipeline, read_models)) as served:
        yield served
    read_models.close()
    pipeline.close()


def as_(role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, f'a-{role}', role)}"}


@pytest.mark.parametrize("role", ["integrity", "federation"])
def test_integrity_and_federation_read_pairs_and_alerts(client: TestClient, role: str) -> None:
    pairs = client.get(f"/v1/integrity/competitions/{COMPETITION}/pairs?min_hands=10", headers=as_(role))
    assert pairs.status_code == 200, pairs.text
    body = pairs.json()
    assert body and {"player_a", "player_b", "score", "evidence"} <= set(body[0])
    assert [p["score"] for p in body] == sorted((p["score"] for p in body), reverse=True)
    assert all(e["history"] == f"/v1/hands/{e['hand_id']}/history" for p in body for e in p["evidence"])
    alerts = client.get(f"/v1/integrity/competitions/{COMPETITION}/alerts", headers=as_(role))
    assert alerts.status_code == 200 and isinstance(alerts.json(), list)


@pytest.mark.parametrize("role", ["judge", "chief_judge", "secretary", "viewer"])
def test_everyone_else_is_refused_pair_scores_and_alerts(client: TestClient, role: str) -> None:
    for view in ("pairs", "alerts"):
        refused = client.get(f"/v1/integrity/competitions/{COMPETITION}/{view}", headers=as_(role))
        assert refused.status_code == 403
        assert "integrity" in refused.json()["error"]["message"]


def test_officials_read_player_statistics_viewers_do_not(client: TestClient) -> None:
    stats = client.get(f"/v1/integrity/competitions/{COMPETITION}/players", headers=as_("judge"))
    assert stats.status_code == 200, stats.text
    player = stats.json()[0]
    assert player["hands"] > 0 and player["vpip"]["sample"] > 0
    assert client.get(f"/v1/integrity/competitions/{COMPETITION}/players", headers=as_("viewer")).status_code == 403


def test_a_competition_with_no_hands_is_not_found(client: TestClient) -> None:
    missing = client.get("/v1/integrity/competitions/nothing-here/pairs", headers=as_("integrity"))
    assert missing.status_code == 404


def test_the_read_model_and_a_window_from_the_store_agree(client: TestClient) -> None:
    """Without ``since`` the pairs come from the projector's read model; with it, from the store's hands."""
    live = client.get(f"/v1/integrity/competitions/{COMPETITION}/pairs?min_hands=10", headers=as_("integrity"))
    window = client.get(f"/v1/integrity/competitions/{COMPETITION}/pairs?min_hands=10&since=2000-01-01T00:00:00Z",
                        headers=as_("integrity"))
    assert live.status_code == window.status_code == 200
    assert live.json() and [(p["player_a"], p["player_b"], p["hands"], round(p["score"], 6)) for p in live.json()] == [
        (p["player_a"], p["player_b"], p["hands"], round(p["score"], 6)) for p in window.json()
    ]
    later = client.get(f"/v1/integrity/competitions/{COMPETITION}/pairs?since=2999-01-01T00:00:00Z",
                       headers=as_("integrity"))
    assert later.status_code == 404
