"""``pokeraudit import`` and ``pokeraudit export``: hand histories in any format we read onto the log, and a
stored hand back out as PHH or Open Hand History.

Import publishes like ``pokeraudit publish`` (event ids from competition, table, hand and sequence, so importing
twice is harmless); an unreadable hand is printed to stderr with its place and the others are published.
Export reads the hand the referee stored (the reported events, as the store keeps them) and replays them for
the finishing stacks and pots the formats carry.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast
from uuid import UUID

from api.sealing import Sight, seal_events
from api.validate_view import EXIT_OK, EXIT_UNREADABLE, unreadable_line
from domain.hand.aggregate import Hand, hand_id
from domain.hand.codec import decode
from domain.hand.events import HandStarted, ReportedEvent
from domain.hand.replay import replay
from domain.rulebooks import get_rulebook
from ingest.formats import FORMATS, Format, as_played, read_hands
from ingest.phh_validate import UnreadableReport

if TYPE_CHECKING:
    from api.bootstrap import Pipeline

    _Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

EXIT_NOT_FOUND = 1


def add_import(subparsers: _Subparsers) -> None:
    command = subparsers.add_parser(
        "import",
        help="put hand histories of any format (PHH, OHH, PokerStars) on the log of record",
        description="Read hand histories (files or folders; PHH .phh/.phhs, Open Hand History .ohh/.json, "
        "PokerStars text) and append their events to the log, keyed by competition, with a progress bar. "
        "Exit 0 when every hand was read, 2 when some input could not be (each is printed with its place).",
    )
    command.add_argument("paths", nargs="+", metavar="PATH")
    command.add_argument("--format", default="auto", choices=("auto", *FORMATS),
                         help="the files' format; auto tells it by suffix or first line (default)")
    command.add_argument("--competition", default="imported", help="the competition the hands belong to")
    command.add_argument("--quiet", action="store_true", help="no progress bar")
    command.set_defaults(run=_import)


def _import(args: argparse.Namespace) -> int:
    from api.operations import publish

    tally = {"hands": 0, "unreadable": 0}
    with _pipeline() as pipeline:
        records = _records(args.paths, args.format, args.competition, tally)
        events = publish(pipeline, records, progress=not args.quiet)
    print(f"imported {tally['hands']} hands ({events} events) to {pipeline.settings.topic}"
          + (f"; {tally['unreadable']} unreadable" if tally["unreadable"] else ""))
    return EXIT_UNREADABLE if tally["unreadable"] else EXIT_OK


def _records(
    paths: Sequence[str], format: str, competition: str, tally: dict[str, int]
) -> Iterator[tuple[bytes, bytes]]:
    from api.operations import EPOCH, IMPORTER
    from ingest.publish import hand_records

    for n, item in enumerate(read_hands(paths, cast("Format | Literal['auto']", format))):
        if isinstance(item, UnreadableReport):
            tally["unreadable"] += 1
            print(unreadable_line(item), file=sys.stderr)
            continue
        tally["hands"] += 1
        yield from hand_records(
            item.events, competition, IMPORTER, EPOCH + timedelta(minutes=n),
            table_id=item.table_id, hand_number=item.hand_number,
        )


#: the roles a hand can be exported for (a dealer's reading depends on his table: the API's to answer)
_READERS = ("viewer", "secretary", "integrity", "federation", "judge", "chief_judge")


def add_export(subparsers: _Subparsers) -> None:
    command = subparsers.add_parser(
        "export",
        help="write a stored hand as PHH or Open Hand History",
        description="Read one hand from the store and print it as PHH (TOML) or OHH (JSON). The hand is its "
        "UUID or COMPETITION/TABLE/NUMBER (the table may itself contain '/'). Exit 1 when no such hand is "
        "stored, 2 when the format cannot express it (the message names the field).",
    )
    command.add_argument("--hand", required=True, metavar="ID", help="UUID or COMPETITION/TABLE/NUMBER")
    command.add_argument("--format", required=True, choices=("phh", "ohh"))
    command.add_argument("--output", type=Path, default=None, help="write to this file instead of stdout")
    command.add_argument(
        "--as", dest="as_role", metavar="ROLE", choices=_READERS, default=None,
        help=f"the hand as ROLE reads it through the API (one of {', '.join(_READERS)}): the cards he may not see "
        "written ?? (api/sealing.py); default: whole, for the operator",
    )
    command.set_defaults(run=_export)


def _export(args: argparse.Namespace) -> int:
    from eventsourcing.application import AggregateNotFoundError

    try:
        stream = parse_hand_id(args.hand)
    except ValueError as error:
        print(f"--hand {args.hand!r}: {error}", file=sys.stderr)
        return EXIT_NOT_FOUND
    with _pipeline() as pipeline:
        try:
            hand: Hand = pipeline.store.repository.get(stream)
        except AggregateNotFoundError:
            print(f"no hand {args.hand} ({stream}) is stored", file=sys.stderr)
            return EXIT_NOT_FOUND
        events = [decode(hand.started), *(decode(payload) for payload in hand.reported)]
        sight = _read_by(pipeline, hand, args.as_role)
    try:
        text = render(events, args.format, sight)
    except ValueError as error:  # PhhWriteError, OhhError: the format cannot hold this hand
        print(str(error), file=sys.stderr)
        return EXIT_UNREADABLE
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return EXIT_OK


def _read_by(pipeline: Pipeline, hand: Hand, role: str | None) -> Sight:
    """How much of the hand's cards the export shows: all for the operator, else what ``role`` sees through the
    API (the hand's competition and end read from its stored events)."""
    from api.auth import Principal
    from api.sealing import SealingPolicy
    from api.settings import Settings
    from domain.roles import Role

    if role is None:
        return Sight.EVERY
    stored: list[Any] = list(pipeline.store.events.get(hand.id))
    competition = str(stored[0].meta.get("competition_id", "")) if stored else ""
    ended = [e.timestamp.isoformat() for e in stored if type(e).__name__ == "HandEnded"]
    reader = Principal(person="pokeraudit-cli", role=Role(role))
    policy = SealingPolicy.from_settings(Settings())
    return policy.sight(reader, competition, hand.table_id, hand.is_over, ended[-1] if ended else None)


def render(events: list[ReportedEvent], format: str, sight: Sight = Sight.EVERY) -> str:
    """A stored hand's reported events as the text of a ``.phh`` or ``.ohh`` file, with the engine's outcome;
    the cards a reader with ``sight`` may not see written unknown (api/sealing.py)."""
    from ingest.ohh import dumps, to_ohh
    from ingest.phh_write import write_hand

    start = events[0]
    assert isinstance(start, HandStarted), "a stored hand starts with HandStarted"
    result = replay(events, get_rulebook(start.rulebook))
    events = seal_events(as_played(events), sight)
    if format == "phh":
        return write_hand(events, final_stacks=dict(result.stacks) if result.is_over else None)
    return dumps([to_ohh(events, pots=result.pots)])


def parse_hand_id(text: str) -> UUID:
    """A hand's stream id from its UUID or its natural key ``competition/table/number``."""
    with contextlib.suppress(ValueError):
        return UUID(text)
    competition, _, rest = text.partition("/")
    table, _, number = rest.rpartition("/")
    if not (competition and table and number.isdigit()):
        raise ValueError("expected a UUID or COMPETITION/TABLE/NUMBER")
    return hand_id(table, int(number), competition)


@contextlib.contextmanager
def _pipeline() -> Iterator[Pipeline]:
    from api.bootstrap import bootstrap
    from api.settings import Settings

    pipeline = bootstrap(Settings())
    try:
        yield pipeline
    finally:
        pipeline.close()
