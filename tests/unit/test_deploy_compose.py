"""deploy/docker-compose.yml: valid against the Compose Specification's JSON schema (vendored from the compose-spec
project, deploy/compose-spec/), and speaking the same configuration language as api/settings.py. There is no Docker
engine where the tests run: the file is validated and checked, never run (docs/OPERATIONS.md says so)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
import yaml

from api.settings import ENV_NAMES, REQUIRED_IN_PRODUCTION, Settings

pytestmark = pytest.mark.unit

COMPOSE = Path(__file__).resolve().parents[2] / "deploy" / "docker-compose.yml"
SPEC = COMPOSE.parent / "compose-spec" / "compose-spec.json"
#: the vendored schema's sha256, as deploy/compose-spec/README.md records it (compose-go v2.17.0)
SPEC_SHA256 = "49eb9a1e1de41315949f302f8e6221bb42acd6038977f7c0974e38596ec4cdf6"
#: what an operator sets before `docker compose up` (docs/OPERATIONS.md)
OPERATOR = {"POKERAUDIT_DB_PASSWORD": "s3cret", "POKERAUDIT_JWT_SECRET": "k" * 64, "POKERAUDIT_DOMAIN": "audit.example.org"}
APP_SERVICES = ("api", "referee", "projections")
# ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?message}, ${NAME?message}
INTERPOLATION = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}")


def _compose() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(loaded, dict)
    return loaded


def _environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment") or {}
    if isinstance(env, list):  # the "KEY=value" form
        return dict(item.split("=", 1) for item in env)
    return {str(k): "" if v is None else str(v) for k, v in env.items()}


def _interpolate(value: str, host_env: dict[str, str]) -> str:
    """What `docker compose` would substitute, given the operator's environment."""

    def substitute(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        if name in host_env:
            return host_env[name]
        if op in (":-", "-"):
            return arg
        raise AssertionError(f"compose needs ${{{name}}} from the operator: {arg or 'unset'}")

    return INTERPOLATION.sub(substitute, value)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return _compose()


def test_compose_describes_the_whole_deployment(compose: dict[str, Any]) -> None:
    assert set(compose["services"]) == {"kafka", "postgres", "proxy", *APP_SERVICES}
    kafka = _environment(compose["services"]["kafka"])
    assert compose["services"]["kafka"]["image"].startswith("apache/kafka:4.")
    assert set(kafka["KAFKA_PROCESS_ROLES"].split(",")) == {"broker", "controller"}  # KRaft, no ZooKeeper
    assert not any("ZOOKEEPER" in name for name in kafka)
    assert kafka["KAFKA_AUTO_CREATE_TOPICS_ENABLE"] == "false"
    assert compose["services"]["postgres"]["image"].startswith("postgres:")


@pytest.mark.parametrize("service", APP_SERVICES)
def test_app_service_variables_are_settings(compose: dict[str, Any], service: str) -> None:
    env = _environment(compose["services"][service])
    unknown = sorted(set(env) - set(ENV_NAMES.values()))
    assert not unknown, f"{service} sets variables Settings does not read: {unknown}"
    missing = sorted(set(REQUIRED_IN_PRODUCTION) - set(env))
    assert not missing, f"{service} lacks required settings: {missing}"


@pytest.mark.parametrize("service", APP_SERVICES)
def test_app_service_environment_validates_in_production_mode(
    compose: dict[str, Any], service: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    operator = {"POKERAUDIT_DB_PASSWORD": "s3cret", "POKERAUDIT_JWT_SECRET": "k3y"}
    env = {
        name: _interpolate(value, operator)
        for name, value in _environment(compose["services"][service]).items()
    }
    for name in ENV_NAMES.values():
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = Settings()
    assert settings.mode == "kafka+postgres"
    assert settings.kafka_bootstrap_servers == "kafka:9092"
    assert settings.database_url == "postgresql://pokeraudit:s3cret@postgres:5432/pokeraudit"
    assert settings.jwt_secret is not None and settings.jwt_secret.get_secret_value() == "k3y"


def test_compose_refuses_to_start_without_the_secrets(compose: dict[str, Any]) -> None:
    env = _environment(compose["services"]["api"])
    with pytest.raises(AssertionError, match="POKERAUDIT_DB_PASSWORD"):
        _interpolate(env["DATABASE_URL"], {})


def test_every_required_setting_has_an_environment_name() -> None:
    assert set(REQUIRED_IN_PRODUCTION) <= set(ENV_NAMES.values())
    # No field may be required in embedded mode: a fresh checkout runs with no environment at all.
    assert all(not field.is_required() for field in Settings.model_fields.values())


def test_settings_read_the_names_compose_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV_NAMES.values():
        monkeypatch.delenv(name, raising=False)
    assert Settings().mode == "embedded"
    monkeypatch.setenv("POKERAUDIT_PARTITIONS", "3")
    monkeypatch.setenv("POKERAUDIT_REFEREE_BATCH_MS", "50")
    settings = Settings()
    assert (settings.partitions, settings.referee_batch_ms, settings.topic) == (3, 50, "pokeraudit.events")
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:9092")
    with pytest.raises(ValueError, match="set both"):
        Settings()


@pytest.mark.parametrize("service", APP_SERVICES)
def test_each_services_command_is_one_the_cli_accepts(compose: dict[str, Any], service: str) -> None:
    from api.cli import build_parser

    program, *argv = compose["services"][service]["command"]
    assert program == "pokeraudit"
    args = build_parser().parse_args(argv)  # argparse exits (SystemExit) on a command it does not know
    assert callable(args.run)


def test_every_service_has_a_healthcheck_and_restarts_by_itself(compose: dict[str, Any]) -> None:
    for name, service in compose["services"].items():
        merged = {**compose.get("x-pokeraudit-app", {}), **service}
        assert merged.get("healthcheck", {}).get("test"), f"{name} has no healthcheck"
        assert merged.get("restart") == "unless-stopped", f"{name} does not restart by itself"
    api = compose["services"]["api"]
    assert "/ready" in " ".join(api["healthcheck"]["test"]) and "ports" not in api  # reached through the proxy


@pytest.mark.parametrize("service", ["referee", "projections"])
def test_the_followers_serve_the_metrics_their_healthcheck_reads(compose: dict[str, Any], service: str) -> None:
    from api.cli import build_parser

    command = compose["services"][service]["command"]
    args = build_parser().parse_args(command[1:])
    assert args.metrics_port is not None and args.metrics_host == "0.0.0.0"
    assert f":{args.metrics_port}/metrics" in " ".join(compose["services"][service]["healthcheck"]["test"])


def test_the_proxy_terminates_tls_in_front_of_the_api_and_hides_the_metrics(compose: dict[str, Any]) -> None:
    proxy = compose["services"]["proxy"]
    assert "443:443" in proxy["ports"]
    caddyfile = (COMPOSE.parent / "proxy" / "Caddyfile").read_text()
    assert "reverse_proxy api:8000" in caddyfile and "respond @internal 404" in caddyfile
    assert any(v.startswith("./proxy/Caddyfile:") for v in proxy["volumes"])


def _interpolated(node: Any, host_env: dict[str, str]) -> Any:
    """The file as `docker compose` validates it: every string's ${...} substituted (YAML anchors and merge keys
    are already resolved by the YAML loader)."""
    if isinstance(node, dict):
        return {key: _interpolated(value, host_env) for key, value in node.items()}
    if isinstance(node, list):
        return [_interpolated(value, host_env) for value in node]
    return _interpolate(node, host_env) if isinstance(node, str) else node


def _spec_errors(document: dict[str, Any]) -> list[str]:
    schema = json.loads(SPEC.read_text())
    return [f"/{'/'.join(map(str, e.instance_path))}: {e.message}" for e in jsonschema_rs.iter_errors(schema, document)]


def test_the_vendored_schema_is_the_pinned_one() -> None:
    assert hashlib.sha256(SPEC.read_bytes()).hexdigest() == SPEC_SHA256
    assert SPEC_SHA256 in (SPEC.parent / "README.md").read_text()
    assert "Apache License" in (SPEC.parent / "LICENSE").read_text()


def test_compose_is_valid_against_the_compose_specification(compose: dict[str, Any]) -> None:
    errors = _spec_errors(_interpolated(compose, OPERATOR))
    assert not errors, errors[:5]


@pytest.mark.parametrize(
    ("where", "change"),
    [
        ("a misspelt healthcheck field", lambda c: c["services"]["api"]["healthcheck"].update(intervall="10s")),
        ("a condition compose does not know",
         lambda c: c["services"]["proxy"]["depends_on"]["api"].update(condition="service_ready")),
        ("a misspelt service field", lambda c: c["services"]["referee"].update(comand=["pokeraudit"])),
        ("a misspelt top-level key", lambda c: c.update(service=c.pop("services"))),
    ],
)
def test_the_schema_check_catches_a_broken_file(compose: dict[str, Any], where: str, change: Any) -> None:
    broken = json.loads(json.dumps(_interpolated(compose, OPERATOR)))
    change(broken)
    assert _spec_errors(broken), f"{where} passed the schema"


def test_the_api_is_reached_only_through_the_tls_proxy(compose: dict[str, Any]) -> None:
    services = compose["services"]
    published = sorted(name for name, service in services.items() if service.get("ports"))
    assert published == ["proxy"], f"only the proxy may publish ports, not {published}"
    assert services["proxy"]["depends_on"]["api"]["condition"] == "service_healthy"
    caddyfile = (COMPOSE.parent / "proxy" / "Caddyfile").read_text()
    # the site address is the domain (Caddy serves it over HTTPS, with a certificate it obtains), never http:// only
    site = next(line for line in caddyfile.splitlines() if line.strip() and not line.lstrip().startswith("#"))
    assert "{$POKERAUDIT_DOMAIN" in site and not site.lstrip().startswith("http://"), site
    assert "443:443" in services["proxy"]["ports"]


def test_the_projectors_restarts_are_set_and_visible(compose: dict[str, Any]) -> None:
    projector = {**compose["x-pokeraudit-app"], **compose["services"]["projections"]}
    assert projector["restart"] == "unless-stopped"
    # a restart shows in `docker compose ps` (health) and in process_start_time_seconds on the metrics port
    assert "/metrics" in " ".join(projector["healthcheck"]["test"])
