"""``pokeraudit protocol COMPETITION [--format json|html|pdf] [--out FILE] [--as ROLE] [--verify VERSION]``: the
competition protocol read from the event store, printed to standard output or written to a file (a PDF needs
``--out`` or a redirect); or one of its snapshots checked against the store.

The operator reads it whole; ``--as viewer`` (or another role) renders it as that role reads it through the API,
by the one sealing policy (api/sealing.py): the copy to publish."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

#: the roles a protocol can be rendered for (a dealer's reading depends on his table: the API's to answer)
_READERS = ("viewer", "secretary", "integrity", "federation", "judge", "chief_judge")


def add_protocol(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "protocol",
        help="the competition protocol as JSON, a printable HTML page or a PDF",
        description="Reads the competition's stored events (its draws, levels, hands, rulings, penalties, "
        "protests, placings and signatures) into its protocol, their hash chains verified first. Exit 0; 1 when "
        "no such competition is stored, or when its stored events fail verification (the protocol is still "
        "written, marked as failing, its signatures as no longer covering it; the breaks go to standard error).",
    )
    command.add_argument("competition", metavar="COMPETITION", help="the competition id the events name")
    command.add_argument("--format", choices=("json", "html", "pdf"), default="json")
    command.add_argument("--out", type=Path, help="write here instead of standard output")
    command.add_argument(
        "--as", dest="as_role", metavar="ROLE", choices=_READERS,
        help=f"render it as ROLE reads it through the API (one of {', '.join(_READERS)}); default: whole",
    )
    command.add_argument(
        "--verify", type=int, metavar="VERSION", help="check snapshot VERSION against the store instead (exit 1 if not)"
    )
    command.set_defaults(run=_protocol)


def _protocol(args: argparse.Namespace) -> int:
    from api.bootstrap import open_store
    from api.settings import Settings
    from projections.protocol import UnreadableStream, checked_protocol
    from projections.protocol_render import to_html, to_pdf, warning

    store = open_store(Settings())
    if args.verify is not None:
        try:
            return _verify(store, args.competition, args.verify)
        finally:
            store.close()
    try:
        document = checked_protocol(store, args.competition)
    except UnreadableStream as err:
        print(f"the protocol cannot be read: {err}", file=sys.stderr)
        return 2
    finally:
        store.close()
    if "regulations" not in document:
        print(f"no competition {args.competition} is stored", file=sys.stderr)
        return 1
    if args.as_role is not None:
        document = _as_read_by(document, args.as_role)
    if args.format == "pdf":
        data = to_pdf(document)
    elif args.format == "html":
        data = to_html(document).encode()
    else:
        data = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode()
    if args.out is not None:
        args.out.write_bytes(data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    if warning(document):
        print(warning(document), file=sys.stderr)
        for b in document["verification"]["breaks"]:
            print(f"  {b}", file=sys.stderr)
        return 1
    return 0


def _as_read_by(document: dict[str, Any], role: str) -> dict[str, Any]:
    from datetime import UTC, datetime

    from api.auth import Principal
    from api.sealing import SealingPolicy
    from api.settings import Settings
    from domain.roles import Role
    from projections.protocol import as_at

    policy = SealingPolicy.from_settings(Settings())
    return policy.protocol(as_at(document, datetime.now(UTC)), Principal(person="pokeraudit-cli", role=Role(role)))


def _verify(store: Any, competition: str, version: int) -> int:
    from projections.protocol import archive, verify_snapshot

    kept = archive(store, competition)
    snapshot = kept.snapshot(version) if kept is not None else None
    if snapshot is None:
        print(f"{competition} has no protocol snapshot {version}", file=sys.stderr)
        return 1
    verification = verify_snapshot(store, snapshot)
    if verification.ok:
        print(f"{snapshot.name} verifies: {len(snapshot.heads)} streams, SHA-256 {snapshot.sha256}")
        if verification.note:
            print(f"  ({verification.note})")
        return 0
    print(f"{snapshot.name} does NOT verify: {verification.difference}")
    return 1
