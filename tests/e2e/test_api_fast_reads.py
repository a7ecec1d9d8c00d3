"""The hot reads answered ahead of FastAPI's router (api/fast_reads.py) answer byte for byte what the FastAPI
routes answer: every hand, its final stacks and the standings of two competitions, as every role (appointed and
not, scoped to another competition, a dealer of a table), anonymous, with a bad token, for unknown ids, with the
public feeds' delay; the same status, body and headers. Their kept answers are given again only while the rows
they were made of are the same; the metrics count them under their route; the OpenAPI document keeps the routes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from federation_records import CHIEF, COMPETITION, JUDGE, SECRETARY, Records, at
from federation_views_scenario import GOMEL, gomel_cup, minsk_open
from served_app import SECRET, app_on, embedded, models_of, projected, publish_judged

from api.auth import issue_token
from api.bootstrap import Pipeline
from api.fast_reads import FastReads
from api.metrics import REQUESTS
from api.operations import publish, referee_once
from api.settings import Settings
from domain.cards import parse_cards
from domain.hand.aggregate import hand_id
from domain.hand.events import (
    ActionKind,
    ForcedBetKind,
    ForcedBetPosted,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    SeatEntry,
    Stakes,
)
from ingest.envelope import RecordedBy
from ingest.publish import hand_records
from ingest.simulator.clock import simulation_clock
from projections import schema
from projections.read_models import ReadModels
from projections.runner import Projector

pytestmark = pytest.mark.e2e

#: what an answer is compared by besides its status and body
HEADERS = ("content-type", "content-length", "www-authenticate", "retry-after")
#: a competition with no records of its own: a hand still being played at a table of it, and one folded out
OPEN = "open"
LIVE_TABLE = "hall-a/7#1"


def hand_at(table: str, *acts: Any) -> list[Any]:
    return [
        HandStarted(
            table, 1, "NT", (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000)), 2,
            Stakes(blinds=((2, 50), (1, 100)), min_bet=100), burns_recorded=False,
        ),
        ForcedBetPosted(2, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(1, ForcedBetKind.BIG_BLIND, 100),
        HoleCardsDealt(1, parse_cards("AsKd")),
        HoleCardsDealt(2, parse_cards("QsQd")),
        *acts,
    ]


@pytest.fixture
def judged(tmp_path: Path) -> Iterator[tuple[Settings, Pipeline, Projector]]:
    with embedded(tmp_path) as (settings, pipeline):
        pipeline.log.clock = simulation_clock  # type: ignore[union-attr]
        assert publish_judged(pipeline, [*minsk_open(Records()), *gomel_cup(Records(GOMEL))]).get("rejected", 0) == 0
        dealer = RecordedBy(person="dealer-3", role="dealer")
        when = at(120)
        assert publish_judged(pipeline, [
            *hand_records(hand_at(LIVE_TABLE, PlayerActed(2, ActionKind.RAISE, 300)), OPEN, dealer, when),
            *hand_records(hand_at("t2", PlayerActed(2, ActionKind.FOLD)), OPEN, dealer, when),
        ]).get("rejected", 0) == 0
        with projected(settings, pipeline) as projector:
            yield settings, pipeline, projector


def token(role: str, person: str, **claims: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {issue_token(SECRET, person, role, **claims)}"}


def callers(models: ReadModels) -> dict[str, dict[str, str]]:
    table = models.tables(COMPETITION, 0, 1)[0][0].table_id
    return {
        "judge appointed": token("judge", JUDGE.person),
        "judge not appointed": token("judge", "judge-of-elsewhere"),
        "chief judge": token("chief_judge", CHIEF.person),
        "secretary": token("secretary", SECRETARY.person),
        "viewer": token("viewer", "v"),
        "integrity": token("integrity", "i"),
        "federation": token("federation", "f"),
        "dealer of a table": token("dealer", "d", table=table, competition=COMPETITION),
        "dealer of the live table": token("dealer", "d", table=LIVE_TABLE, competition=OPEN),
        "scoped elsewhere": token("judge", JUDGE.person, competition="elsewhere"),
        "participant": token("participant", "p01", competition=COMPETITION),
        "anonymous": {},
        "bad token": {"Authorization": "Bearer nonsense"},
        "not bearer": {"Authorization": "Basic eDp5"},
    }


def paths(models: ReadModels) -> list[str]:
    hands = [row[0] for row in models.database.query("SELECT hand_id FROM rm_hands ORDER BY hand_id")]
    assert len(hands) >= 4, "the scenarios play hands"
    unknown = str(hand_id("t9", 1, COMPETITION))
    found = [p for h in [*hands, unknown] for p in (f"/v1/hands/{h}", f"/v1/hands/{h}/stacks/final")]
    return [*found, *(f"/v1/competitions/{c}/standings" for c in (COMPETITION, GOMEL, OPEN, "nowhere"))]


def answers(client: TestClient, requests: list[tuple[str, dict[str, str]]]) -> list[tuple[Any, ...]]:
    out = []
    for path, headers in requests:
        response = client.get(path, headers=headers)
        out.append((path, response.status_code, response.content, *(response.headers.get(h) for h in HEADERS)))
    return out


def fast_route(client: TestClient) -> FastReads:
    return next(r for r in client.app.router.routes if isinstance(r, FastReads))  # type: ignore[attr-defined]


def compared(settings: Settings, pipeline: Pipeline, extra: dict[str, dict[str, str]] | None = None) -> None:
    """Every hot read as every caller: answered ahead of the middleware, by the fast route behind it, and by
    FastAPI's routes alone."""
    with app_on(settings, pipeline) as client:
        read_models = models_of(client)
        requests = [(p, h) for p in paths(read_models) for h in {**callers(read_models), **(extra or {})}.values()]
        fast = fast_route(client)
        ahead = answers(client, requests)
        assert fast.hands.built > 0 and fast.final_stacks.built > 0, "the fast route answered"
        assert client.app.fast_reads is fast  # type: ignore[attr-defined]
        client.app.fast_reads = None  # type: ignore[attr-defined]
        served_fast = answers(client, requests)  # by the route first in the router, behind the middleware
        client.app.router.routes.remove(fast)  # type: ignore[attr-defined]
        by_fastapi = answers(client, requests)
    assert [a[1] for a in by_fastapi].count(200) > len(requests) // 3, "most reads are answered"
    assert {a[1] for a in by_fastapi} >= {200, 401, 403, 404}
    for first, ours, theirs in zip(ahead, served_fast, by_fastapi, strict=True):
        assert first == ours == theirs


def test_the_fast_reads_answer_what_the_routes_answer(judged: Any) -> None:
    settings, pipeline, _ = judged
    compared(settings, pipeline)


def test_the_same_with_public_reads_within_the_public_delay(judged: Any) -> None:
    """Anonymous reads are a viewer's; within the public feeds' delay a viewer sees no hole card."""
    settings, pipeline, _ = judged
    public = settings.model_copy(update={"public_read": True, "public_delay_minutes": 10**7})
    compared(public, pipeline)


def test_reads_asked_at_once_are_gathered_and_answer_what_they_answer_one_by_one(judged: Any) -> None:
    """Hand, final-stack and standings reads asked together are read in fewer batches than reads (one statement, one
    hop to a reader thread each), and each answers what it answers asked alone: status, body, headers."""
    settings, pipeline, _ = judged
    with app_on(settings, pipeline) as client:
        read_models = models_of(client)
        who = callers(read_models)
        requests = [(p, who[h]) for p in paths(read_models)
                    for h in ("judge appointed", "viewer", "scoped elsewhere", "dealer of the live table")]
        one_by_one = answers(client, requests)
        fast = fast_route(client)
        hands_before = (fast.hand_reads.batches, fast.hand_reads.items)
        standings_before = (fast.standings_reads.batches, fast.standings_reads.items)

        async def at_once() -> list[httpx.Response]:
            transport = httpx.ASGITransport(app=client.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as together:
                return list(await asyncio.gather(*(together.get(p, headers=h) for p, h in requests)))

        responses = asyncio.run(at_once())
    together = [(path, r.status_code, r.content, *(r.headers.get(h) for h in HEADERS))
                for (path, _), r in zip(requests, responses, strict=True)]
    assert together == one_by_one
    batches, items = fast.hand_reads.batches - hands_before[0], fast.hand_reads.items - hands_before[1]
    # every read of a known or unknown hand reached the read models once (a 401 never does)
    assert items == sum(1 for (p, _), a in zip(requests, one_by_one, strict=True)
                        if p.startswith("/v1/hands/") and a[1] != 401)
    assert 0 < batches < items, (batches, items)
    standing_items = fast.standings_reads.items - standings_before[1]
    assert 0 < fast.standings_reads.batches - standings_before[0] <= standing_items


def test_the_heavy_read_limit_counts_the_standings_as_the_route_did(judged: Any) -> None:
    settings, pipeline, _ = judged
    limited = settings.model_copy(update={"rate_heavy_reads_per_minute": 2})
    judge = token("judge", JUDGE.person)
    url = f"/v1/competitions/{COMPETITION}/standings"
    with app_on(limited, pipeline) as client:
        statuses = [client.get(url, headers=judge).status_code for _ in range(3)]
        refused = client.get(url, headers=judge)
    assert statuses == [200, 200, 429]
    assert refused.json()["error"]["code"] == "rate_limited"


def test_a_kept_answer_is_given_again_only_while_its_rows_are_the_same(judged: Any) -> None:
    settings, pipeline, projector = judged
    judge = token("judge", JUDGE.person)
    viewer = token("viewer", "v")
    dealer = RecordedBy(person="dealer-3", role="dealer")
    with app_on(settings, pipeline) as client:
        read_models = models_of(client)
        fast = fast_route(client)
        hand = read_models.database.query("SELECT hand_id FROM rm_hands ORDER BY hand_id")[0][0]
        first = client.get(f"/v1/hands/{hand}", headers=judge).content
        assert fast.hands.built == 1
        assert client.get(f"/v1/hands/{hand}", headers=judge).content == first and fast.hands.built == 1
        # another sight of the same hand is another answer
        assert client.get(f"/v1/hands/{hand}", headers=viewer).status_code == 200 and fast.hands.built == 2
        # the row changes (as a new event of the hand would change it): the answer is made again at once
        with projector.database.transaction() as writer:
            writer.execute("UPDATE rm_hands SET chain_head = ? WHERE hand_id = ?", ("changed", hand))
        again = client.get(f"/v1/hands/{hand}", headers=judge)
        assert again.json()["chain_head"] == "changed" and fast.hands.built == 3
        stacks = client.get(f"/v1/hands/{hand}/stacks/final", headers=judge).json()
        assert client.get(f"/v1/hands/{hand}/stacks/final", headers=judge).json() == stacks
        assert fast.final_stacks.built == 1
        player = stacks[0]["player"]
        with projector.database.transaction() as writer:
            writer.execute("UPDATE rm_hands SET seats = replace(seats, ?, ?) WHERE hand_id = ?",
                           (f'"{player}"', f'"{player}-renamed"', hand))
        renamed = client.get(f"/v1/hands/{hand}/stacks/final", headers=judge).json()
        assert renamed[0]["player"] == f"{player}-renamed" and fast.final_stacks.built == 2
        # the standings: kept while neither the store nor the read models move
        url = f"/v1/competitions/{COMPETITION}/standings"
        standings = client.get(url, headers=judge).content
        assert client.get(url, headers=judge).content == standings and fast.standings.built == 1
        with projector.database.transaction() as writer:
            writer.execute(f"UPDATE {schema.POSITION} SET notification_id = notification_id + 1 WHERE name = ?",
                           (schema.POSITION_NAME,))
        assert client.get(url, headers=judge).content == standings and fast.standings.built == 2
        publish(pipeline, hand_records(hand_at("t3", PlayerActed(2, ActionKind.FOLD)), OPEN, dealer, at(130)),
                progress=False)
        assert referee_once(pipeline).get("rejected", 0) == 0
        assert client.get(url, headers=judge).content == standings and fast.standings.built == 3


def test_the_metrics_count_them_under_their_route_and_the_schema_keeps_the_routes(judged: Any) -> None:
    settings, pipeline, _ = judged
    judge = token("judge", JUDGE.person)
    route = "/v1/hands/{hand_id}/stacks/final"

    def counted() -> float:
        return REQUESTS.labels(route, "GET", "200")._value.get()  # type: ignore[attr-defined,no-any-return]

    with app_on(settings, pipeline) as client:
        read_models = models_of(client)
        hand = read_models.database.query("SELECT hand_id FROM rm_hands ORDER BY hand_id")[0][0]
        before = counted()
        assert client.get(f"/v1/hands/{hand}/stacks/final", headers=judge).status_code == 200
        assert counted() == before + 1
        # another method is the route's to refuse, as before
        assert client.post(f"/v1/hands/{hand}", headers=judge).status_code == 405
        schema = client.get("/openapi.json").json()
    for path, model in (("/v1/hands/{hand_id}", "Hand"), ("/v1/hands/{hand_id}/stacks/final", "TableSeat"),
                        ("/v1/competitions/{competition_id}/standings", "Standings")):
        answer = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        assert model in str(answer), (path, answer)


def test_an_unexpected_failure_answers_500_ahead_as_behind_the_middleware(
    judged: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ahead of the middleware, a failure no handler is for answers the app's 500 and reaches the server (which logs
    it), as Starlette's ServerErrorMiddleware does behind it; and it is counted as a 500 under its route."""
    settings, pipeline, _ = judged
    judge = token("judge", JUDGE.person)

    def broken(self: ReadModels, hand_ids: Any) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(ReadModels, "hands_and_ruled_stacks", broken)
    with app_on(settings, pipeline) as client:
        hand = models_of(client).database.query("SELECT hand_id FROM rm_hands ORDER BY hand_id")[0][0]
        with pytest.raises(RuntimeError, match="on fire"):
            client.get(f"/v1/hands/{hand}", headers=judge)
        quiet = TestClient(client.app, raise_server_exceptions=False)
        before = REQUESTS.labels("/v1/hands/{hand_id}", "GET", "500")._value.get()  # type: ignore[attr-defined]
        ahead = quiet.get(f"/v1/hands/{hand}", headers=judge)
        assert REQUESTS.labels("/v1/hands/{hand_id}", "GET", "500")._value.get() == before + 1  # type: ignore[attr-defined]
        client.app.fast_reads = None  # type: ignore[attr-defined]
        behind = quiet.get(f"/v1/hands/{hand}", headers=judge)
    assert ahead.status_code == behind.status_code == 500
    assert ahead.content == behind.content and ahead.json()["error"]["code"] == "internal_error"


def test_cors_and_a_body_send_the_reads_through_the_whole_stack(judged: Any) -> None:
    """With CORS on, the answer carries its headers (the middleware's: nothing is answered ahead of it); a GET with a
    body over the limit is BodyLimit's 413, as it always was."""
    settings, pipeline, _ = judged
    judge = token("judge", JUDGE.person)
    origin = "https://desk.example"
    cors = settings.model_copy(update={"cors_origins": origin, "max_body_bytes": 10})
    with app_on(cors, pipeline) as client:
        fast = fast_route(client)
        hand = models_of(client).database.query("SELECT hand_id FROM rm_hands ORDER BY hand_id")[0][0]
        answer = client.get(f"/v1/hands/{hand}", headers={**judge, "Origin": origin})
        assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == origin
        assert fast.hands.built == 1, "the fast route behind the middleware answered"
    with app_on(settings.model_copy(update={"max_body_bytes": 10}), pipeline) as client:
        refused = client.request("GET", f"/v1/hands/{hand}", headers=judge, content=b"x" * 100)
        assert refused.status_code == 413 and refused.json()["error"]["code"] == "too_large"
        assert client.get(f"/v1/hands/{hand}", headers=judge).status_code == 200
