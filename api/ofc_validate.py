"""``pokeraudit validate`` on OFC hand histories (``*.ofc.json``, docs/OFC_FORMAT.md): one line per round, or with
``--json`` one object per round with each player's rows, foul, royalties and points."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from domain.rulebooks import Rulebook
from ingest.ofc_history import RoundReport, UnreadableHistory, history_files, validate_history_file

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def round_line(report: RoundReport) -> str:
    where = f"{report.file} [{report.table} round {report.round}]"
    if report.rejection is not None:
        return f"REFUSED {where}: act {report.rejection.act_index}: {report.rejection.reason} ({report.rejection.rule})"
    if not report.complete:
        return f"ok {where}: the record stops before every player has 13 cards"
    scores = ", ".join(
        f"{p.player} {p.points:+d}"
        + (" (fouled)" if p.fouled else "")
        + (f" royalties {p.royalties.total}" if p.royalties.total else "")
        for p in report.players
    )
    redeals = f"; {report.redeals} redeal(s)" if report.redeals else ""
    return f"ok {where}: {scores}{redeals}"


def validate_ofc(paths: Sequence[str | Path], rulebook: Rulebook, as_json: bool) -> int:
    """Print each round's report; the exit code as for hands: 0 all legal, 1 any refused, 2 any unreadable."""
    rounds = legal = unreadable = 0
    for path in history_files(paths):
        for report in validate_history_file(path, rulebook):
            if isinstance(report, UnreadableHistory):
                unreadable += 1
                field = f" field {report.field!r}" if report.field else ""
                print(f"pokeraudit: cannot read {report.file}:{field}: {report.error}", file=sys.stderr)
                continue
            rounds += 1
            legal += report.ok
            print(report.model_dump_json() if as_json else round_line(report))
    if not as_json:
        more = f"; {unreadable} unreadable input(s)" if unreadable else ""
        print(f"{rounds} OFC rounds: {legal} legal, {rounds - legal} refused{more}")
    if unreadable:
        return EXIT_UNREADABLE
    return EXIT_OK if legal == rounds else EXIT_ILLEGAL
