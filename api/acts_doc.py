"""docs/ACTS.md, written from the catalog, the payload schemas and the roles table, so it cannot drift.

For every event type a record may carry (:data:`ingest.envelope.CATALOG`): who may record it and under which
rule (:data:`domain.officials.permissions.PERMISSIONS`), its fields with the ones the schema requires and the
ones the rules require although the schema lets them out (:data:`RULES_REQUIRE`), and an example record whose
payload the schema accepts. ``pokeraudit schemas`` writes it beside docs/schemas/events.schema.json, and
tests/unit/test_acts_doc.py fails when the committed file is not what this module writes.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from enum import Enum
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from domain.hand.codec import REPORTED
from domain.officials.permissions import PERMISSIONS, Act, Permission
from domain.roles import Role
from ingest.catalog import (
    COMPETITION_CATALOG,
    DISCIPLINE_CATALOG,
    INTEGRITY_CASE_CATALOG,
    PROTEST_CATALOG,
    RATING_CATALOG,
    RULING_CATALOG,
)
from ingest.envelope import CATALOG, json_schemas

#: fields the schema lets a record leave out but the rules need: (type, field) → why
RULES_REQUIRE: dict[tuple[str, str], str] = {
    ("PlayerEliminated", "starting_stack"): (
        "bfsp 5.10.2: players busted in the same hand are placed by the chips they started it with, so an "
        "elimination for want of chips gives them; the schema's default 0 would rank him last"
    ),
    ("PenaltyImposed", "players_at_table"): (
        "bfsp 7.1.2: missed rounds are counted in hands at the offender's table, so a `missed_rounds` penalty "
        "gives the players seated there (the offender included), as the floor knows them"
    ),
    ("PenaltyImposed", "hands_to_miss"): (
        "bfsp 7.1.2: a `missed_rounds` penalty gives `rounds` x `players_at_table`; any other kind gives 0. A "
        "wrong count is refused with the right one, never stored corrected"
    ),
}

#: events that carry several acts of the roles table, told apart by the payload (domain/officials/acts.py)
_ACTS_BY_PAYLOAD: dict[str, tuple[tuple[str, Act], ...]] = {
    "PlayerEliminated": (
        ("reason `no_chips`", Act.PLAYER_ELIMINATED),
        ("reason `disqualified`", Act.COMPETITION_DISQUALIFICATION),
    ),
    "ProtestDecided": (
        ("tier 1, at the event", Act.PROTEST_DECIDED_AT_EVENT),
        ("tier 2, by the federation", Act.PROTEST_DECIDED_BY_FEDERATION),
    ),
    "ProtocolSigned": (("the final protocol", Act.FINAL_PROTOCOL_SIGNED),),
}

_SECTIONS: tuple[tuple[str, str, dict[str, type]], ...] = (
    ("The hand", "What the dealer reports at the table (bfsp 2.4.1), and the officials' acts at the hand.", REPORTED),
    ("The competition and its floor", "Regulations, officials, registration, draws, levels, moves, "
     "eliminations.", COMPETITION_CATALOG),
    ("Discipline", "Violations and penalties (bfsp 7.2).", DISCIPLINE_CATALOG),
    ("Challenges and protests", "bfsp 5.9, 7.3.", PROTEST_CATALOG),
    ("Rulings", "Findings of fact, the Chief Judge's decisions, fairness rulings.", RULING_CATALOG),
    ("Integrity cases", "An integrity analyst's case on suspected collusion, and its report to the Chief Judge "
     "(bfsp 7.1.4, 7.1.15).", INTEGRITY_CASE_CATALOG),
    ("The season", "The federation's rules of a season's rating list (bfsp 2.10; docs/RATING.md).", RATING_CATALOG),
    ("The protocol", "Snapshots and signatures of the competition protocol.",
     {n: t for n, t in CATALOG.items() if n not in {*REPORTED, *COMPETITION_CATALOG, *DISCIPLINE_CATALOG,
                                                   *PROTEST_CATALOG, *RULING_CATALOG, *INTEGRITY_CASE_CATALOG,
                                                   *RATING_CATALOG}}),
)

_WHO = {
    Role.DEALER: "dealer", Role.JUDGE: "judge", Role.CHIEF_JUDGE: "Chief Judge", Role.SECRETARY: "Secretary",
    Role.FEDERATION: "federation", Role.PARTICIPANT: "participant", Role.IMPORTER: "importer",
    Role.SIMULATOR: "simulator", Role.AUTHORISED: "authorised person", Role.INTEGRITY: "integrity analyst",
    Role.VIEWER: "viewer",
}
_ROLE_ORDER = list(_WHO)
_AT = "2026-03-14T10:00:00Z"
_PEOPLE = {
    Role.DEALER: "dealer-3", Role.JUDGE: "judge-1", Role.CHIEF_JUDGE: "cj-1", Role.SECRETARY: "sec-1",
    Role.FEDERATION: "federation-1", Role.PARTICIPANT: "p-17", Role.IMPORTER: "importer",
    Role.SIMULATOR: "simulator", Role.AUTHORISED: "floor-2", Role.INTEGRITY: "integrity-1", Role.VIEWER: "viewer",
}


def acts_document() -> str:
    schemas = json_schemas()["payloads"]
    lines = [
        "# The acts: every record the log accepts",
        "",
        "<!-- Written by `pokeraudit schemas` from ingest/catalog.py, the payload schemas and",
        "     domain/officials/permissions.py (api/acts_doc.py); tests/unit/test_acts_doc.py keeps it current.",
        "     Do not edit by hand. -->",
        "",
        "A record is an envelope (docs/schemas/events.schema.json: `event_id`, `competition_id`, `table_id`,",
        "`hand_id`, `seq`, `type`, `payload`, `recorded_by`, `occurred_at`, `rulebook`) around one payload.",
        "For each type below: who may record it (`recorded_by.role`; the referee refuses anyone else with the",
        "rule cited), its fields (**required**: the schema refuses a record without it; **rules**: the schema",
        "lets it out but the rules need it), and an example record whose payload the schema accepts (the",
        "values are placeholders: the rules judge them against the competition). A person the Chief Judge",
        "authorised records an act marked *delegable* when he holds that delegation (`AuthorityDelegated`).",
        "",
    ]
    for title, _, catalog in _SECTIONS:
        lines += [f"- [{title}](#{_anchor(title)}): " + ", ".join(f"`{n}`" for n in sorted(catalog))]
    lines.append("")
    for title, about, catalog in _SECTIONS:
        lines += [f"## {title}", "", about, ""]
        for name in sorted(catalog):
            lines += _entry(name, catalog[name], schemas[name])
    return "\n".join(lines).rstrip() + "\n"


def _anchor(title: str) -> str:
    return "-".join(title.lower().split())


def _entry(name: str, cls: type, schema: dict[str, Any]) -> list[str]:
    lines = [f"### `{name}`", ""]
    doc = (cls.__doc__ or "").strip()
    if doc and not doc.startswith(f"{name}("):
        lines += [" ".join(doc.split("\n\n")[0].split()).replace("``", "`"), ""]
    lines += _who(name, cls)
    required = set(schema.get("required", ()))
    lines += ["", "| field | type | |", "|---|---|---|"]
    for field, spec in schema.get("properties", {}).items():
        if field in required:
            need = "**required**"
        elif (name, field) in RULES_REQUIRE:
            need = f"**rules**: {RULES_REQUIRE[(name, field)]}"
        else:
            need = f"optional, default `{json.dumps(spec.get('default'))}`"
        lines.append(f"| `{field}` | {_type(spec, schema)} | {need} |")
    role = _example_role(name, cls)
    example = {
        "competition_id": "spring-cup-2026",
        "table_id": "T1" if name in REPORTED else None,
        "hand_id": "1" if name in REPORTED else None,
        "seq": 0,
        "type": name,
        "payload": example_payload(name),
        "recorded_by": {"person": _PEOPLE[role], "role": role.value},
        "occurred_at": _AT,
    }
    example = {"event_id": str(uuid5(NAMESPACE_URL, f"https://pokeraudit/acts/{name}")), **example}
    lines += ["", "```json", json.dumps(example, indent=2, ensure_ascii=False), "```", ""]
    return lines


def _acts(name: str, cls: type) -> list[tuple[str, Act]]:
    if name in _ACTS_BY_PAYLOAD:
        return list(_ACTS_BY_PAYLOAD[name])
    kind = typing.get_type_hints(cls).get("kind")
    if isinstance(kind, type) and issubclass(kind, Enum) and hasattr(kind, "act"):
        return [(f"kind `{k.value}`", k.act) for k in kind]
    return [("", Act(name))] if name in Act._value2member_map_ else []


def _who(name: str, cls: type) -> list[str]:
    acts = _acts(name, cls)
    if not acts:
        return ["**Recorded by**: not an act of the roles table; the desk records it as the acts before it "
                "allow (see its section's rules)."]
    lines = ["**Recorded by**:"]
    for when, act in acts:
        lines.append(f"- {when + ': ' if when else ''}{_permitted(PERMISSIONS[act])}")
    return lines


def _permitted(p: Permission) -> str:
    roles = ", ".join(_WHO[r] for r in sorted(p.roles, key=_ROLE_ORDER.index))
    book, _, rule = p.rule.partition(" ")
    cite = p.rule if rule else f"bfsp {p.rule}"
    delegable = f"; *delegable* (`{p.delegation.value}`)" if p.delegation else ""
    return f"{p.doing}: {roles} ({cite}){delegable}"


def _example_role(name: str, cls: type) -> Role:
    acts = _acts(name, cls)
    if not acts:
        return Role.CHIEF_JUDGE
    roles = PERMISSIONS[acts[0][1]].roles
    return sorted(roles, key=_ROLE_ORDER.index)[0]


def _type(spec: dict[str, Any], root: dict[str, Any]) -> str:
    if "$ref" in spec:
        target = spec["$ref"].rsplit("/", 1)[-1]
        ref = root.get("$defs", {}).get(target, {})
        if "enum" in ref:
            return " \\| ".join(f"`{json.dumps(v)}`" for v in ref["enum"])
        return f"object `{target}`"
    if "anyOf" in spec:
        return " or ".join(_type(option, root) for option in spec["anyOf"])
    if spec.get("type") == "array":
        return f"array of {_type(spec.get('items', {}), root)}"
    if "format" in spec:
        return f"{spec.get('type', '')} ({spec['format']})"
    if "enum" in spec:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in spec["enum"])
    return str(spec.get("type", "any"))


def example_payload(name: str) -> dict[str, Any]:
    """A payload of type ``name`` with a placeholder for every field, which the schema accepts."""
    value = _example(CATALOG[name], name)
    assert isinstance(value, dict)
    return value


def _example(hint: Any, name: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _example(options[0], name)
    if origin in (tuple, list):
        args = typing.get_args(hint)
        if origin is tuple and Ellipsis not in args:  # a pair, a triple: every place filled
            return [_example(a, name) for a in args]
        return [_example(args[0], name)] if args else []
    if origin is typing.Literal:
        return typing.get_args(hint)[0]
    if isinstance(hint, type):
        if issubclass(hint, Enum):
            return next(iter(hint)).value
        if hint.__name__ == "Card":  # a dataclass, written by name
            return "As"
        if dataclasses.is_dataclass(hint):
            hints = typing.get_type_hints(hint)
            return {f.name: _field_example(f.name, hints[f.name], name) for f in dataclasses.fields(hint)}
        if hint is bool:
            return False
        if hint is int:
            return 1
        if hint is float:
            return 1.0
        if hint is UUID:  # an id the act names (a token's jti): any UUID of the right form
            return "6f1c2a9e-5b3d-4c8e-9a7f-0d2e4b6c8a10"
        if hint.__name__ == "datetime":
            return _AT
        if hint.__name__ == "date":
            return _AT[:10]
        if hint is str:
            return "text"
    if origin is dict:
        return {}
    return None


def _field_example(field: str, hint: Any, name: str) -> Any:
    if hint is str:
        if field in ("participant", "filer", "winner", "player"):
            return "p-17"
        if field.endswith("_by") or field in ("official", "person", "judge"):
            return "cj-1"
        if field.endswith("sha256"):
            return "0" * 64
        if field in ("hand", "hand_id"):
            return "T1/1"
        if field == "season":  # a season is the year its competitions start in
            return "2026"
        if field == "athlete":  # a person, as every competition registers him
            return "person-17"
        return field.replace("_", "-")
    return _example(hint, name)
