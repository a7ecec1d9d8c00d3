"""deploy/k8s: every object valid against the vendored schema of the Kubernetes objects it uses
(deploy/k8s/schemas/k8s-subset.schema.json, checked with jsonschema-rs), and speaking the project's language:
settings api/settings.py reads, commands the CLI accepts, readiness from /ready and the metrics port."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml

from api.cli import build_parser
from api.settings import ENV_NAMES, REQUIRED_IN_PRODUCTION

pytestmark = pytest.mark.unit

K8S = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
SCHEMA = json.loads((K8S / "schemas" / "k8s-subset.schema.json").read_text())


def _objects() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc is not None:
                out.append((f"{path.name}:{doc.get('kind')}/{doc.get('metadata', {}).get('name')}", doc))
    return out


OBJECTS = _objects()
BY_KIND: dict[str, list[dict[str, Any]]] = {}
for _, obj in OBJECTS:
    BY_KIND.setdefault(obj["kind"], []).append(obj)


def test_the_manifests_hold_the_whole_application() -> None:
    deployments = {d["metadata"]["name"] for d in BY_KIND["Deployment"]}
    assert deployments == {"pokeraudit-api", "pokeraudit-referee", "pokeraudit-projector"}
    assert {k for k in BY_KIND} == {"Namespace", "ConfigMap", "Secret", "Deployment", "Service", "Ingress"}


@pytest.mark.parametrize(("where", "obj"), OBJECTS, ids=[w for w, _ in OBJECTS])
def test_each_object_is_valid_against_the_schema(where: str, obj: dict[str, Any]) -> None:
    errors = [f"{'/'.join(map(str, e.instance_path))}: {e.message}" for e in jsonschema_rs.iter_errors(SCHEMA, obj)]
    assert not errors, f"{where}: {errors[:5]}"


def test_the_schema_catches_a_misspelt_field() -> None:
    deployment = json.loads(json.dumps(BY_KIND["Deployment"][0]))
    deployment["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {"httpGet": {"path": "/ready", "port": 8000}}
    assert not jsonschema_rs.is_valid(SCHEMA, deployment)


@pytest.mark.parametrize("deployment", BY_KIND["Deployment"], ids=lambda d: d["metadata"]["name"])
def test_each_deployment_selects_its_own_pods_and_runs_a_command_the_cli_accepts(deployment: dict[str, Any]) -> None:
    spec = deployment["spec"]
    assert spec["selector"]["matchLabels"].items() <= spec["template"]["metadata"]["labels"].items()
    (container,) = spec["template"]["spec"]["containers"]
    program, *argv = container["command"]
    assert program == "pokeraudit"
    args = build_parser().parse_args(argv)
    probe = container["readinessProbe"]["httpGet"]
    if args.command == "serve":
        assert probe["path"] == "/ready"
    else:  # the referee and the projector: their metrics endpoint
        assert (probe["path"], probe["port"]) == ("/metrics", args.metrics_port) and args.metrics_host == "0.0.0.0"
    names = {e["name"] for e in container.get("env", [])}
    assert names <= set(ENV_NAMES.values()), names - set(ENV_NAMES.values())
    sources = {s.get("configMapRef", s.get("secretRef", {}))["name"] for s in container["envFrom"]}
    assert sources == {"pokeraudit-config", "pokeraudit-secrets"}


def test_the_configuration_is_settings_and_holds_what_production_requires() -> None:
    (config,) = BY_KIND["ConfigMap"]
    (secret,) = BY_KIND["Secret"]
    keys = set(config["data"]) | set(secret["stringData"])
    assert keys <= set(ENV_NAMES.values()), keys - set(ENV_NAMES.values())
    assert set(REQUIRED_IN_PRODUCTION) <= keys
    assert set(secret["stringData"]) == {"DATABASE_URL", "POKERAUDIT_JWT_SECRET"}  # the secrets, and only they


def test_the_ingress_serves_the_api_over_tls_and_keeps_the_metrics_inside() -> None:
    (ingress,) = BY_KIND["Ingress"]
    assert ingress["spec"]["tls"][0]["secretName"]
    paths = {p["path"] for rule in ingress["spec"]["rules"] for p in rule["http"]["paths"]}
    assert "/v1" in paths and "/ready" in paths and not any(p.startswith("/metrics") for p in paths)
