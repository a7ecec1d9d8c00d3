"""The API's request metrics count the requests that came in: a web page's own calls to the API in-process (their
scope carrying the page's Visit, api/limits.py) are counted apart, as ``pokeraudit_api_page_calls_total``, and the
page itself once under its ``/web/…`` route (issue 15). Read through ``GET /metrics`` as an operator's scraper would."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from served_app import served_projected

from api.auth import issue_token
from api.bootstrap import bootstrap
from api.operations import publish, referee_once
from api.settings import Settings
from ingest.simulator import simulate

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
COMPETITION = "sim-5"
PAGE = f"/web/competitions/{COMPETITION}/integrity/players"
API_ROUTE = "/v1/integrity/competitions/{competition}/players"
PAGE_ROUTE = "/web/competitions/{competition}/integrity/players"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("store")
    settings = Settings(POKERAUDIT_DATA_DIR=folder, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    publish(pipeline, list(simulate(5, tables=1, seats=6, hands_per_table=10).records()), progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    with served_projected(settings, pipeline) as served:
        yield served
    pipeline.close()


def counted(client: TestClient, name: str, route: str) -> float:
    """The sample of ``name`` for ``route``, GET, 200 on the API's /metrics (0 before the first)."""
    text = client.get("/metrics").text
    found = re.search(rf'^{name}\{{method="GET",route="{re.escape(route)}",status="200"\}} (\S+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


def test_a_pages_in_process_calls_are_not_counted_as_requests(client: TestClient) -> None:
    headers = {"Authorization": f"Bearer {issue_token(SECRET, 'an-analyst', 'integrity')}"}
    before = {
        (name, route): counted(client, name, route)
        for name in ("pokeraudit_api_requests_total", "pokeraudit_api_page_calls_total")
        for route in (API_ROUTE, PAGE_ROUTE)
    }
    for _ in range(3):
        assert client.get(PAGE, headers=headers).status_code == 200
    # the three pages are three requests; their three reads of the API are page calls, not requests
    assert counted(client, "pokeraudit_api_requests_total", PAGE_ROUTE) == before[("pokeraudit_api_requests_total", PAGE_ROUTE)] + 3
    assert counted(client, "pokeraudit_api_requests_total", API_ROUTE) == before[("pokeraudit_api_requests_total", API_ROUTE)]
    assert counted(client, "pokeraudit_api_page_calls_total", API_ROUTE) == before[("pokeraudit_api_page_calls_total", API_ROUTE)] + 3
    # a client of the API itself is a request
    assert client.get(f"/v1/integrity/competitions/{COMPETITION}/players", headers=headers).status_code == 200
    assert counted(client, "pokeraudit_api_requests_total", API_ROUTE) == before[("pokeraudit_api_requests_total", API_ROUTE)] + 1
    assert "pokeraudit_api_request_seconds_count" in client.get("/metrics").text
