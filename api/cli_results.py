"""``pokeraudit competition end|final`` and ``pokeraudit results issue|list|show``: the competition's end, its final
protocol and the result documents (bfsp 2.1.1, 2.1.4, 2.3.3).

Ending the competition, compiling the final protocol and issuing the documents are officials' acts: the CLI puts
the record on the log in the official's name (``--by``, ``--role``) and waits for the referee's verdict, as
``pokeraudit snapshot take`` does (the final protocol is signed with ``pokeraudit snapshot sign``). ``list`` and
``show`` read the documents the referee kept."""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def add_results(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "competition",
        help="end the competition and compile its final protocol",
        description="end: the Chief Judge closes the competition once play is over (bfsp 2.1.1, 5.10.1); final: the "
        "Secretary compiles the final protocol, a snapshot marked final (2.3.3), which the Chief Judge signs with "
        "`pokeraudit snapshot sign` (2.1.4). Each puts the act on the log and prints the referee's verdict (exit 1 "
        "refused, with the rule; 2 not judged in time).",
    )
    acts = command.add_subparsers(dest="competition_command", required=True, metavar="ACT")
    end = acts.add_parser("end", help="the Chief Judge ends the competition")
    end.add_argument("competition", metavar="COMPETITION")
    _official(end, "chief_judge")
    end.set_defaults(run=_end)
    final = acts.add_parser("final", help="the Secretary compiles the final protocol")
    final.add_argument("competition", metavar="COMPETITION")
    _official(final, "secretary")
    final.set_defaults(run=_final)

    documents = subparsers.add_parser(
        "results",
        help="issue, list and print the participants' result documents",
        description="Each participant's result document (bfsp 2.3.3): place, prize gross, tax withheld, net, the "
        "violations and penalties recorded against him, and the signed final protocol it derives from.",
    )
    acts = documents.add_subparsers(dest="results_command", required=True, metavar="ACT")
    issue = acts.add_parser("issue", help="the Secretary issues the documents from the signed final protocol")
    issue.add_argument("competition", metavar="COMPETITION")
    issue.add_argument("version", metavar="VERSION", type=int, help="the signed final version")
    issue.add_argument("--sha256", required=True, help="its SHA-256, as `pokeraudit snapshot show` prints it")
    _official(issue, "secretary")
    issue.set_defaults(run=_issue)
    listed = acts.add_parser("list", help="every participant's document")
    listed.add_argument("competition", metavar="COMPETITION")
    listed.add_argument("--format", choices=("text", "json"), default="text")
    listed.set_defaults(run=_list)
    show = acts.add_parser("show", help="one participant's document as JSON, HTML or PDF")
    show.add_argument("competition", metavar="COMPETITION")
    show.add_argument("participant", metavar="PARTICIPANT")
    show.add_argument("--format", choices=("json", "html", "pdf"), default="json")
    show.add_argument("--out", type=Path, help="write here instead of standard output")
    show.set_defaults(run=_show)


def _official(command: argparse.ArgumentParser, role: str) -> None:
    from api.cli_protocol import official_arguments

    official_arguments(command, role)


def _record(args: argparse.Namespace, event: Any) -> tuple[bytes, bytes]:
    from domain.roles import Role
    from ingest.envelope import RecordedBy, encode, make_envelope

    envelope = make_envelope(
        event, event_id=uuid.uuid4(), competition_id=args.competition, seq=0,
        recorded_by=RecordedBy(person=args.by, role=Role(args.role)), occurred_at=datetime.now(UTC),
    )  # fmt: skip
    return envelope.key, encode(envelope)


def _end(args: argparse.Namespace) -> int:
    from api.cli_protocol import submitted
    from domain.competition.events import CompetitionEnded

    code, pipeline = submitted(_record(args, CompetitionEnded(args.competition)), args.timeout)
    try:
        if not code:
            print(f"{args.competition} ended; the Secretary compiles the final protocol: pokeraudit competition final "
                  f"{args.competition} --by SECRETARY")
        return code
    finally:
        pipeline.close()


def _final(args: argparse.Namespace) -> int:
    from api.cli_protocol import submitted
    from domain.final_protocol import FinalProtocolCompiled
    from projections.protocol import snapshots

    code, pipeline = submitted(_record(args, FinalProtocolCompiled(args.competition)), args.timeout)
    try:
        if code:
            return code
        final = snapshots(pipeline.store, args.competition)[-1]
        print(f"final protocol {final.name} (version {final.version}) compiled by {final.taken_by}")
        print(f"  SHA-256     {final.sha256}")
        print(f"  chain head  {final.chain_head}")
        print(f"  to sign: pokeraudit snapshot sign {args.competition} {final.version} --sha256 {final.sha256} "
              "--by CHIEF_JUDGE --role chief_judge")
        return 0
    finally:
        pipeline.close()


def _issue(args: argparse.Namespace) -> int:
    from api.cli_protocol import submitted
    from domain.final_protocol import ResultDocumentsIssued
    from projections.results import issued

    code, pipeline = submitted(_record(args, ResultDocumentsIssued(args.competition, args.version, args.sha256)),
                               args.timeout)
    try:
        if code:
            return code
        found = issued(pipeline.store, args.competition)
        assert found is not None, "accepted documents are kept"
        print(f"{len(found['documents'])} result documents issued from {found['protocol']}")
        return 0
    finally:
        pipeline.close()


def _documents(competition: str) -> dict[str, Any] | None:
    from api.bootstrap import open_store
    from api.settings import Settings
    from projections.results import issued

    store = open_store(Settings())
    try:
        return issued(store, competition)
    finally:
        store.close()


def _list(args: argparse.Namespace) -> int:
    found = _documents(args.competition)
    if found is None:
        print(f"no result documents have been issued at {args.competition}", file=sys.stderr)
        return 1
    if args.format == "json":
        print(json.dumps(found, indent=2, ensure_ascii=False))
        return 0
    print(f"issued from {found['protocol']} (SHA-256 {found['sha256']}) at {found['issued_at']}")
    for d in found["documents"]:
        place = "DQ" if d["disqualified"] else d["place"]
        print(f"  {d['participant']:<12} place {place!s:<4} gross {d['prize']['gross']:>10} withheld "
              f"{d['prize']['withheld']:>9} net {d['prize']['net']:>10}  violations {len(d['violations'])} "
              f"penalties {len(d['penalties'])}")
    return 0


def _show(args: argparse.Namespace) -> int:
    from projections.results import to_html, to_pdf

    found = _documents(args.competition)
    document = next((d for d in (found or {}).get("documents", []) if d["participant"] == args.participant), None)
    if document is None:
        print(f"no result document of {args.participant} has been issued at {args.competition}", file=sys.stderr)
        return 1
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
    return 0
