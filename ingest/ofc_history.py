"""The OFC hand-history form (docs/OFC_FORMAT.md): one round of Open-Face Chinese as JSON, read and written.

There is no standard hand-history format for OFC, so this project defines one: a round's players, button and
who plays it in fantasy, then its acts in order — each deal and each setting. A file (``*.ofc.json``) holds one
round or an array of rounds. :func:`replay` judges a round through the rules engine (:class:`domain.ofc.game
.OfcGame`) and reports each player's rows, foul, royalties and points, or the first act the rules refuse with
its bfsp 8 rule. Its JSON Schema is :func:`history_schema` (``pokeraudit schemas``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from domain.cards import Card
from domain.errors import RuleError
from domain.ofc.events import (
    OFC,
    OfcCardsDealt,
    OfcCardsSet,
    OfcPlayer,
    OfcReported,
    OfcRoundRedealt,
    OfcRoundScored,
    OfcRoundStarted,
)
from domain.ofc.game import OfcGame, verify_fantasy
from domain.rulebooks import Rulebook
from ingest.ofc_paths import SUFFIX

FORMAT = "pokeraudit-ofc/1"


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class HistoryPlayer(_Strict):
    seat: int = Field(ge=1, description="the table's seat number")
    name: str = Field(min_length=1)


class Deal(_Strict):
    """Cards dealt to one player: 5 on the first deal, 3 on each later one, 14 at once in fantasy."""

    act: Literal["deal"] = "deal"
    seat: int = Field(ge=1)
    cards: tuple[Card, ...]


class Setting(_Strict):
    """The cards a player adds to each row from his last deal, and his discard."""

    act: Literal["set"] = "set"
    seat: int = Field(ge=1)
    bottom: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    top: tuple[Card, ...] = ()
    discarded: tuple[Card, ...] = ()


Act = Annotated[Deal | Setting, Field(discriminator="act")]


class RoundHistory(_Strict):
    """One OFC round (bfsp 8) as played at one table."""

    format: Literal["pokeraudit-ofc/1"] = "pokeraudit-ofc/1"
    variant: Literal["OFC"] = "OFC"
    table: str = Field(min_length=1)
    round: int = Field(ge=1, description="the round's number at its table, from 1")
    button: int = Field(ge=1, description="the button's seat; position 1 is the first seat after it")
    players: tuple[HistoryPlayer, ...]
    fantasy: tuple[str, ...] = Field(default=(), description="the players (by name) in fantasy this round")
    acts: tuple[Act, ...]


_FILE: TypeAdapter[Any] = TypeAdapter(cast(Any, RoundHistory | list[RoundHistory]))
_ROUND = TypeAdapter(RoundHistory)
_ROUNDS = TypeAdapter(list[RoundHistory])


def history_schema() -> dict[str, Any]:
    """The JSON Schema of a ``*.ofc.json`` file: one round, or an array of rounds."""
    return _FILE.json_schema()


def events_of(history: RoundHistory, rulebook: str = "bfsp") -> tuple[OfcRoundStarted, list[OfcReported]]:
    started = OfcRoundStarted(
        history.table,
        history.round,
        history.button,
        tuple(OfcPlayer(p.seat, p.name) for p in history.players),
        history.fantasy,
        rulebook,
    )
    acts: list[OfcReported] = [
        OfcCardsDealt(a.seat, a.cards)
        if isinstance(a, Deal)
        else OfcCardsSet(a.seat, a.bottom, a.middle, a.top, a.discarded)
        for a in history.acts
    ]
    return started, acts


def history_of(events: Iterable[OfcReported]) -> RoundHistory:
    """A round's reported events (its start first) in the history form: what the exporter and the tests write."""
    it = iter(events)
    started = next(it)
    if not isinstance(started, OfcRoundStarted):
        raise ValueError(f"a round's first event is OfcRoundStarted, not {type(started).__name__}")
    acts: list[Deal | Setting] = []
    for event in it:
        if isinstance(event, OfcCardsDealt):
            acts.append(Deal(seat=event.seat, cards=event.cards))
        elif isinstance(event, OfcCardsSet):
            acts.append(
                Setting(
                    seat=event.seat,
                    bottom=event.bottom,
                    middle=event.middle,
                    top=event.top,
                    discarded=event.discarded,
                )
            )
    return RoundHistory(
        table=started.table_id,
        round=started.round_number,
        button=started.button,
        players=tuple(HistoryPlayer(seat=p.seat, name=p.player) for p in started.players),
        fantasy=started.fantasy,
        acts=tuple(acts),
    )


# --- validating --------------------------------------------------------------------------------------------


class Refusal(_Strict):
    act_index: int = Field(description="0: the round's start; n: the n-th act")
    reason: str
    rule: str


class Rows(_Strict):
    bottom: list[str]
    middle: list[str]
    top: list[str]


class Royalties(_Strict):
    bottom: int
    middle: int
    top: int
    total: int


class PlayerReport(_Strict):
    seat: int
    player: str
    position: int
    rows: Rows
    fouled: bool
    foul: str
    royalties: Royalties
    points: int
    fantasy: bool
    earns_fantasy: bool
    may_repeat_fantasy: bool


class PairReport(_Strict):
    first: int
    second: int
    rows: tuple[int, int, int]
    scoop: bool
    royalties: int
    points: int


class RoundReport(_Strict):
    file: str
    table: str
    round: int
    variant: str = OFC
    ok: bool
    complete: bool
    redeals: int
    rejection: Refusal | None = None
    players: list[PlayerReport] = []
    pairs: list[PairReport] = []


class UnreadableHistory(_Strict):
    file: str
    error: str
    field: str = ""


def _report(
    file: str, history: RoundHistory, scored: OfcRoundScored | None, redeals: int, refusal: Refusal | None
) -> RoundReport:
    players = []
    pairs = []
    if scored is not None:
        players = [
            PlayerReport(
                seat=h.seat,
                player=h.player,
                position=h.position,
                rows=Rows(
                    bottom=[str(c) for c in h.bottom],
                    middle=[str(c) for c in h.middle],
                    top=[str(c) for c in h.top],
                ),
                fouled=h.fouled,
                foul=h.foul,
                royalties=Royalties(
                    bottom=h.royalties[0], middle=h.royalties[1], top=h.royalties[2], total=sum(h.royalties)
                ),
                points=h.points,
                fantasy=h.fantasy,
                earns_fantasy=h.earns_fantasy,
                may_repeat_fantasy=h.may_repeat_fantasy,
            )
            for h in scored.hands
        ]
        pairs = [
            PairReport(
                first=p.first,
                second=p.second,
                rows=p.rows,
                scoop=p.scoop,
                royalties=p.royalties,
                points=p.points,
            )
            for p in scored.pairs
        ]
    return RoundReport(
        file=file,
        table=history.table,
        round=history.round,
        ok=refusal is None,
        complete=scored is not None,
        redeals=redeals,
        rejection=refusal,
        players=players,
        pairs=pairs,
    )


def replay(
    history: RoundHistory,
    rulebook: Rulebook,
    previous: OfcRoundScored | None,
    file: str = "",
    check_fantasy: bool = True,
) -> tuple[RoundReport, OfcRoundScored | None]:
    """Judge one round: its report, and its settlement (for the next round's fantasy) when it is complete."""
    started, acts = events_of(history, rulebook.name)
    redeals = 0
    try:
        if check_fantasy:
            verify_fantasy(started, previous, rulebook)
        game = OfcGame(started, rulebook)
    except RuleError as err:
        return _report(
            file, history, None, 0, Refusal(act_index=0, reason=err.reason, rule=str(err.rule))
        ), None
    for index, act in enumerate(acts, start=1):
        try:
            derived = game.apply(act)
        except RuleError as err:
            return _report(
                file, history, None, redeals, Refusal(act_index=index, reason=err.reason, rule=str(err.rule))
            ), None
        redeals += sum(isinstance(d, OfcRoundRedealt) for d in derived)
    return _report(file, history, game.scored, redeals, None), game.scored


def history_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files as given, folders recursively (``*.ofc.json``) in sorted order."""
    for path in map(Path, paths):
        if path.is_dir():
            yield from sorted(p for p in path.rglob(f"*{SUFFIX}") if p.is_file())
        else:
            yield path


def validate_history_file(path: Path, rulebook: Rulebook) -> Iterator[RoundReport | UnreadableHistory]:
    """Every round of one file, in order; fantasy is checked against the round before at the same table when
    the file holds it (the first round of a table in a file is taken as reported)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        parsed = (_ROUNDS if isinstance(data, list) else _ROUND).validate_python(data)
    except OSError as err:
        yield UnreadableHistory(file=str(path), error=err.strerror or str(err))
        return
    except json.JSONDecodeError as err:
        yield UnreadableHistory(file=str(path), error=f"not JSON: {err}")
        return
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        yield UnreadableHistory(file=str(path), error=first["msg"], field=where)
        return
    rounds = parsed if isinstance(parsed, list) else [parsed]
    scored: dict[tuple[str, int], OfcRoundScored | None] = {}
    for history in rounds:
        key = (history.table, history.round - 1)
        report, result = replay(history, rulebook, scored.get(key), str(path), check_fantasy=key in scored)
        scored[(history.table, history.round)] = result
        yield report
