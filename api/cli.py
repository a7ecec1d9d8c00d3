"""The ``pokeraudit`` command: a thin dispatcher, one small function per subcommand.

To add a subcommand, write ``_add_<name>(subparsers)`` that declares its arguments and sets ``run`` to a
function ``(args) -> exit code``, and list it in :data:`_SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from api.validate_view import Tally, summary_line, unreadable_line
from domain.rulebooks import DEFAULT_RULEBOOK, RULEBOOKS, get_rulebook
from ingest.phh import phh_files
from ingest.phh_validate import HandReport, UnreadableReport, validate_file


def _add_validate(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "validate",
        help="replay PHH hand histories through the rules engine",
        description="Replay each hand of PHH files (.phh, .phhs, folders recursively) and report it. "
        "Exit 0 when every hand is legal, 1 when any is not, 2 when some input cannot be read.",
    )
    command.add_argument("paths", nargs="+", metavar="PATH", help="a .phh or .phhs file, or a folder of them")
    command.add_argument("--rulebook", default=DEFAULT_RULEBOOK, choices=sorted(RULEBOOKS))
    command.add_argument("--json", action="store_true", help="one JSON object per hand on stdout")
    command.set_defaults(run=_validate)


def _validate(args: argparse.Namespace) -> int:
    rulebook = get_rulebook(args.rulebook)
    tally = Tally()
    for path in phh_files(args.paths):
        for report in validate_file(path, rulebook):
            tally.add(report)
            if isinstance(report, UnreadableReport):
                print(unreadable_line(report), file=sys.stderr)
            if args.json:
                print(report.model_dump_json())
            elif isinstance(report, HandReport):
                print(summary_line(report))
    if not args.json:
        print(tally.summary())
    return tally.exit_code()


_SUBCOMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    _add_validate,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pokeraudit", description="Event-sourced poker hand audit.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in _SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.run(args)
    return code
