"""``pokeraudit draw``: the Secretary's seat draw, final-table draw and break draw, computed from a seed.

Each draw is the domain's own function (:mod:`domain.competition.draw`, :mod:`domain.competition.breaking`), the
one the referee recomputes when the draw is recorded, so what this command prints is what the referee accepts.
The procedure and a worked example are in docs/DRAW.md. The command prints the seed's SHA-256 too: that is the
commitment recorded *before* the draw (``SeatDrawCommitted``, ``FinalTableDrawCommitted``,
``TableBreakCommitted``); the seed itself is revealed with the draw.

``--json`` prints the draw as the payload of the act that records it (``SeatDrawConducted``,
``FinalTableDrawConducted``, ``TableBroken``), with ``seed_sha256`` beside it; the officials' own fields
(``ordered_by``, ``authorised_by``) are given with ``--ordered-by`` / ``--authorised-by``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from domain.competition.breaking import seat_cards
from domain.competition.draw import commitment, draw, shuffled, starting_buttons
from domain.competition.events import FinalTableDrawConducted, SeatDrawConducted
from domain.competition.floor import Floor
from domain.competition.seating import Positions
from domain.errors import RuleError
from domain.officials.codec import encode
from domain.rulebooks import DEFAULT_RULEBOOK, RULEBOOKS, get_rulebook


class DrawInputError(ValueError):
    """The command's input cannot be drawn from; the message names the field and what is wrong."""


def add_draw(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    command = subparsers.add_parser(
        "draw",
        help="compute a seat draw, a final-table draw or a break draw from a seed (docs/DRAW.md)",
        description="Compute a draw from its seed exactly as the referee recomputes it when the draw is recorded "
        "(docs/DRAW.md). Record the printed SHA-256 before the draw, the seed and the seats with it.",
    )
    kinds = command.add_subparsers(dest="kind", required=True, metavar="KIND")

    seats = kinds.add_parser(
        "seats", help="the opening seat draw (bfsp 5.2, 5.3.1)",
        description="Seat the players over tables of --seats-per-table by the seed; each table's button starts "
        "at its highest seat taken.",
    )
    _players_arguments(seats)
    seats.add_argument("--seats-per-table", type=int, required=True, metavar="N",
                       help="the Regulations' max_seats")
    seats.add_argument("--ordered-by", default="", metavar="ID", help="the Chief Judge who ordered the draw")
    seats.set_defaults(run=_seats)

    final = kinds.add_parser(
        "final-table", help="the final table's draw among the players left (bfsp 3.1)",
        description="Seat the players left at the final table (table 1) by the seed. Its size is the "
        "Regulations' final_table, or the rulebook's for --seats-per-table.",
    )
    _players_arguments(final)
    size = final.add_mutually_exclusive_group(required=True)
    size.add_argument("--seats-per-table", type=int, metavar="N",
                      help="the Regulations' max_seats: the final table's size is the rulebook's for it")
    size.add_argument("--final-table-size", type=int, metavar="N", help="the Regulations' final_table")
    final.add_argument("--rulebook", default=DEFAULT_RULEBOOK, choices=sorted(RULEBOOKS))
    final.add_argument("--ordered-by", default="", metavar="ID", help="the Chief Judge who ordered the draw")
    final.set_defaults(run=_final_table)

    broken = kinds.add_parser(
        "break", help="the two-step random draw of a table that breaks (TDA 2022 10-B)",
        description="Spread the players of --table over the other tables by the seed: the seat cards, the "
        "cards dealt face up, and each player's move. --floor is a JSON file of the floor before the break "
        "(docs/DRAW.md); the --json output of `draw seats` is one too.",
    )
    broken.add_argument("--seed", required=True)
    broken.add_argument("--table", type=int, required=True, metavar="N", help="the table that breaks")
    broken.add_argument("--floor", type=Path, required=True, metavar="FILE",
                        help="the tables, their seats and their last hand's positions, as JSON")
    broken.add_argument("--rulebook", default=DEFAULT_RULEBOOK, choices=sorted(RULEBOOKS))
    broken.add_argument("--authorised-by", default="", metavar="ID",
                        help="the official who conducts the break (the Chief Judge or whom he authorised)")
    broken.add_argument("--json", action="store_true", help="the TableBroken record, with seed_sha256")
    broken.set_defaults(run=_break)


def _players_arguments(command: argparse.ArgumentParser) -> None:
    command.add_argument("players", nargs="*", metavar="PLAYER", help="participant ids (order does not matter)")
    command.add_argument("--players-file", type=Path, metavar="FILE",
                         help="participant ids, one a line (blank lines and # comments skipped)")
    command.add_argument("--seed", required=True)
    command.add_argument("--json", action="store_true", help="the act's record, with seed_sha256")


def _players(args: argparse.Namespace) -> list[str]:
    players = list(args.players)
    if args.players_file is not None:
        try:
            lines = args.players_file.read_text(encoding="utf-8").splitlines()
        except OSError as error:
            raise DrawInputError(f"--players-file: cannot read {args.players_file}: {error.strerror}") from error
        players += [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]
    twice = sorted({p for p in players if players.count(p) > 1})
    if twice:
        raise DrawInputError(f"players: {', '.join(twice)} given twice; each participant draws one seat")
    if len(players) < 2:
        raise DrawInputError(f"players: a draw needs two players at least, and {len(players)} were given")
    return players


def _seats(args: argparse.Namespace) -> int:
    return _guarded(lambda: _seat_draw(args))


def _seat_draw(args: argparse.Namespace) -> int:
    if args.seats_per_table < 2:
        raise DrawInputError(f"--seats-per-table: a table seats two players at least, not {args.seats_per_table}")
    assignments = draw(args.seed, _players(args), args.seats_per_table)
    event = SeatDrawConducted(args.seed, assignments, starting_buttons(assignments), args.ordered_by)
    _print_seats(args, event, {"seats_per_table": args.seats_per_table})
    return 0


def _final_table(args: argparse.Namespace) -> int:
    return _guarded(lambda: _final_table_draw(args))


def _final_table_draw(args: argparse.Namespace) -> int:
    if args.final_table_size is not None:
        size = args.final_table_size
    else:
        size = get_rulebook(args.rulebook).final_table_size(args.seats_per_table)
    players = _players(args)
    if len(players) > size:
        raise DrawInputError(
            f"players: the final table seats {size} and {len(players)} were given; it is drawn when {size} are left"
        )
    assignments = draw(args.seed, players, size)
    event = FinalTableDrawConducted(args.seed, assignments, starting_buttons(assignments), args.ordered_by)
    _print_seats(args, event, {"final_table_size": size})
    return 0


def _print_seats(args: argparse.Namespace, event: SeatDrawConducted | FinalTableDrawConducted,
                 extra: dict[str, int]) -> None:
    if args.json:
        print(json.dumps({**encode(event), "seed_sha256": commitment(args.seed), **extra}))
        return
    print(f"seed {args.seed!r}, SHA-256 {commitment(args.seed)} (record it before the draw)")
    print(f"{'table':>5}  {'seat':>4}  player")
    for a in event.assignments:
        print(f"{a.table:>5}  {a.seat:>4}  {a.participant}")
    print("starting button: " + ", ".join(f"table {b.table} seat {b.seat}" for b in event.buttons))


def _break(args: argparse.Namespace) -> int:
    return _guarded(lambda: _break_draw(args))


def _break_draw(args: argparse.Namespace) -> int:
    floor = floor_from_json(_read_json(args.floor), args.rulebook)
    floor.verify_break(args.table)
    event = floor.break_table(args.table, args.seed, args.authorised_by)
    cards = seat_cards(floor.tables, floor.table(args.table), floor.book, floor.seat_limit_after_a_break)
    if args.json:
        print(json.dumps({**encode(event), "seed_sha256": commitment(args.seed)}))
        return 0
    print(f"seed {args.seed!r}, SHA-256 {commitment(args.seed)} (record it before the draw)")
    print(f"table {event.table} breaks; seat cards (table/seat): " + ", ".join(f"{t}/{s}" for t, s in cards))
    pile = shuffled(args.seed, cards, "seat-cards")
    print("shuffled pile: " + ", ".join(f"{t}/{s}" for t, s in pile))
    print("cards dealt face up from seat 1 (the pile goes out from the highest card):")
    for card in event.cards:
        print(f"  seat {card.seat:>2}  {card.participant}  {card.card}")
    print(f"{'player':<12} {'from':>9}  {'to':>9}")
    for move in event.moves:
        print(f"{move.participant:<12} {f'{move.from_table}/{move.from_seat}':>9}  {f'{move.to_table}/{move.to_seat}':>9}")
    return 0


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise DrawInputError(f"--floor: cannot read {path}: {error.strerror}") from error
    except json.JSONDecodeError as error:
        raise DrawInputError(f"--floor: {path} is not JSON ({error.msg}, line {error.lineno})") from error


def floor_from_json(data: Any, rulebook: str) -> Floor:
    """The floor before a break, from ``{"seats_per_table", "tables": [{"table", "seats": {seat: player},
    "last_hand": {"button", "small_blind", "big_blind"} | "first_button"}]}`` or from ``draw seats --json``
    (its assignments and starting buttons: the floor the draw opens)."""
    if not isinstance(data, dict):
        raise DrawInputError("--floor: a JSON object with seats_per_table and tables")
    per_table = data.get("seats_per_table")
    if not isinstance(per_table, int) or per_table < 2:
        raise DrawInputError("--floor: seats_per_table must be a whole number, 2 or more")
    if "assignments" in data:
        try:
            seating = {a["participant"]: (int(a["table"]), int(a["seat"])) for a in data["assignments"]}
            buttons = {int(b["table"]): int(b["seat"]) for b in data.get("buttons", [])}
        except (KeyError, TypeError, ValueError) as error:
            raise DrawInputError(f"--floor: assignments need participant, table and seat ({error})") from error
        return Floor.open(seating, per_table, rulebook, buttons)
    tables = data.get("tables")
    if not isinstance(tables, list) or not tables:
        raise DrawInputError("--floor: tables must be a list of {table, seats, last_hand or first_button}")
    seating, buttons, last_hands = {}, {}, {}
    for index, entry in enumerate(tables):
        where = f"--floor: tables[{index}]"
        try:
            number = int(entry["table"])
            for seat, player in entry["seats"].items():
                if player in seating:
                    raise DrawInputError(f"{where}.seats: {player} is seated twice on the floor")
                seating[player] = (number, int(seat))
            if "last_hand" in entry:
                hand = entry["last_hand"]
                last_hands[number] = Positions(int(hand["button"]), int(hand["small_blind"]), int(hand["big_blind"]))
            elif "first_button" in entry:
                buttons[number] = int(entry["first_button"])
            else:
                raise DrawInputError(f"{where}: last_hand (button, small_blind, big_blind) or first_button is needed")
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            if isinstance(error, DrawInputError):
                raise
            raise DrawInputError(f"{where}: table, seats {{seat: player}} and last_hand or first_button ({error!r})") from error
    floor = Floor.open(seating, per_table, rulebook, buttons)
    played = tuple(
        dataclasses.replace(t, last_hand=last_hands[t.number]) if t.number in last_hands else t for t in floor.tables
    )
    return dataclasses.replace(floor, tables=played)


def _guarded(run: Any) -> int:
    """Bad input and draws the rules refuse end with the reason and exit 2, never a traceback."""
    try:
        code: int = run()
    except DrawInputError as error:
        print(f"draw: {error}", file=sys.stderr)
        return 2
    except RuleError as error:
        print(f"draw: refused: {error}", file=sys.stderr)
        return 2
    return code
