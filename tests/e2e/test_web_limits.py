"""The per-token rate limits count a person's web page once, not each read the page makes of the API in-process
(api/limits.py, ``Visit``): the federation's scenario of tests/e2e/test_api_federation.py served with a limit of
two heavy reads a minute."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from federation_records import COMPETITION, Records
from federation_views_scenario import GOMEL, gomel_cup, minsk_open
from served_app import served_projected

from api.auth import issue_token
from api.bootstrap import bootstrap
from api.operations import publish, referee_once
from api.settings import Settings

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
HEAVY_READS_PER_MINUTE = 2
PROTEST_PAGE = f"/web/competitions/{COMPETITION}/protests/protest-1"
STANDINGS_FRAGMENT = f"/web/competitions/{COMPETITION}/fragments/standings"
HEAVY_READ = f"/v1/competitions/{COMPETITION}/penalties"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("store")
    settings = Settings(  # type: ignore[call-arg]
        POKERAUDIT_DATA_DIR=folder, POKERAUDIT_JWT_SECRET=SECRET,
        POKERAUDIT_RATE_HEAVY_READS_PER_MINUTE=HEAVY_READS_PER_MINUTE,
    )
    pipeline = bootstrap(settings)
    publish(pipeline, [*minsk_open(Records()), *gomel_cup(Records(GOMEL))], progress=False)
    assert referee_once(pipeline).get("rejected", 0) == 0
    with served_projected(settings, pipeline) as served:
        yield served
    pipeline.close()


def bearer(person: str) -> dict[str, str]:
    # a token of its own for each test: the limit counts per token
    return {"Authorization": f"Bearer {issue_token(SECRET, person, 'chief_judge')}"}


def test_a_page_reading_several_federation_views_counts_as_one_heavy_read(client: TestClient) -> None:
    me = bearer("cj-protest")
    # the protest's review reads the protest and the rulings, both heavy reads of the API
    page = client.get(PROTEST_PAGE, headers=me)
    assert page.status_code == 200 and "protest-1" in page.text
    # one of the two a minute is left for this token
    assert client.get(HEAVY_READ, headers=me).status_code == 200
    refused = client.get(HEAVY_READ, headers=me)
    assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
    # and a page past the limit is refused with the API's own words
    again = client.get(PROTEST_PAGE, headers=me)
    assert again.status_code == 429 and "heavy reads in the last minute" in again.text


def test_a_fragment_of_three_views_counts_once_and_a_page_without_a_heavy_read_not_at_all(client: TestClient) -> None:
    me = bearer("cj-standings")
    for _ in range(3):  # the dashboard reads the competitions list only, which is not a heavy read
        assert client.get("/web/", headers=me).status_code == 200
    # the clock, the balance and the standings: one of the two a minute, so it can be fetched twice
    for _ in range(HEAVY_READS_PER_MINUTE):
        fragment = client.get(STANDINGS_FRAGMENT, headers=me)
        assert fragment.status_code == 200
        # each of the three answered (a refused one would leave its panel saying nothing is recorded)
        assert '<p class="big">Level ' in fragment.text and "Balanced (tolerance 1)" in fragment.text
        assert "winner <strong>p01</strong>" in fragment.text
    assert client.get(HEAVY_READ, headers=me).status_code == 429


def test_a_script_calling_the_api_is_counted_per_call(client: TestClient) -> None:
    me = bearer("cj-script")
    assert [client.get(HEAVY_READ, headers=me).status_code for _ in range(3)] == [200, 200, 429]
