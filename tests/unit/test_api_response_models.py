"""Every route of the API says in its OpenAPI document what it answers: a success response whose JSON schema is
a model with named properties (or a list of them), never a bare object; and the protocol, the one document the
API answers as its builder made it, reads through its model whole (a section the builder adds must be named)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from embedded_referee import Pipeline
from fastapi.testclient import TestClient
from federation_records import CHIEF, COMPETITION, Records, opening, play_to_the_end

from api.app import create_app
from api.auth import issue_token
from api.routes.protocol_models import ProtocolDocument
from api.settings import Settings

pytestmark = pytest.mark.unit

SECRET = "response-models-secret-of-at-least-32-bytes"


def _settings(tmp_path: Path) -> Settings:
    return Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)


def _resolved(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _described(spec: dict[str, Any], schema: dict[str, Any]) -> bool:
    """A schema with named properties, a list of such, or a choice among such."""
    found = _resolved(spec, schema)
    if "anyOf" in found or "oneOf" in found:
        return all(_described(spec, s) for s in found.get("anyOf", found.get("oneOf", [])))
    if found.get("type") == "array":
        return _described(spec, found.get("items", {}))
    return found.get("type") == "object" and bool(found.get("properties"))


def test_every_route_describes_its_success_response_with_a_model(tmp_path: Path) -> None:
    with TestClient(create_app(_settings(tmp_path))) as api:
        spec = api.get("/openapi.json").json()
    undescribed = []
    routes = 0
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            routes += 1
            success = min((s for s in operation["responses"] if s.startswith("2")), default=None)
            schema = (
                operation["responses"][success].get("content", {}).get("application/json", {}).get("schema")
                if success is not None else None
            )
            if schema is None or not _described(spec, schema):
                undescribed.append(f"{method.upper()} {path}: {schema}")
    assert routes > 30
    assert not undescribed, undescribed


def test_the_bare_object_is_caught(tmp_path: Path) -> None:
    spec = {"components": {"schemas": {"Named": {"type": "object", "properties": {"a": {"type": "integer"}}}}}}
    assert _described(spec, {"$ref": "#/components/schemas/Named"})
    assert _described(spec, {"type": "array", "items": {"$ref": "#/components/schemas/Named"}})
    assert not _described(spec, {"type": "object", "additionalProperties": True})
    assert not _described(spec, {})


def test_the_protocol_served_reads_through_its_model_whole(tmp_path: Path) -> None:
    pipeline = Pipeline(tmp_path)
    records = Records()
    verdicts = pipeline.judge([*opening(records), *play_to_the_end(records)])
    assert {v.outcome for v in verdicts} == {"accepted"}
    chief = {"Authorization": f"Bearer {issue_token(SECRET, CHIEF.person, CHIEF.role.value)}"}
    # workers on: a snapshot is an act on the log, judged by the app's referee (issue 12)
    with TestClient(create_app(_settings(tmp_path), workers=True)) as api:
        answer = api.get(f"/v1/competitions/{COMPETITION}/protocol", headers=chief)
        assert answer.status_code == 200, answer.text
        document = answer.json()
        ProtocolDocument.model_validate(document)  # extra sections are refused by the model
        assert document["competition"]["winner"] and document["hands"] and document["placings"]
        taken = api.post(f"/v1/competitions/{COMPETITION}/protocol/snapshots", headers=chief)
        assert taken.status_code == 201, taken.text
        assert set(taken.json()) == {"name", "version", "sha256", "chain_head", "streams", "taken_by", "taken_at", "final", "signatures"}
        listed = api.get(f"/v1/competitions/{COMPETITION}/protocol/snapshots", headers=chief).json()
        assert listed["total"] == 1 and listed["items"][0] == taken.json()
        read = api.get(f"/v1/competitions/{COMPETITION}/protocol/snapshots/1", headers=chief).json()
        assert read["verification"]["ok"] and read["sealed"] is False
        assert all(isinstance(version, int) and isinstance(link, str) for version, link in read["heads"].values())


def test_routes_take_the_wiring_from_deps_never_from_app_state() -> None:
    """api/deps.py is the one reader of ``app.state``: a route that reached past it would skip its 503s and its
    role checks."""
    routes = Path(__file__).resolve().parents[2] / "api" / "routes"
    reaching = [p.name for p in sorted(routes.glob("*.py")) if "app.state" in p.read_text()]
    assert not reaching, reaching
