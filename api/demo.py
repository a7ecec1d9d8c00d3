"""``pokeraudit demo``: the embedded service end to end, then the API serving it — no Kafka or PostgreSQL.

A seeded simulated competition (3 tables × 9 players, no-limit hold'em, with the occasional illegal act a
dealer might report) and the real 2023 WSOP $50,000 Poker Players Championship final table (83 hands in nine
variants, from the shared PHH set) go onto the embedded log; the referee judges every record into the
embedded store; the projector builds the read models; the demo prints what an official asks first — what
was accepted, what was refused and under which rule, the chip counts, a hand's pots, whether every chain
verifies — and the URLs to read it all over HTTP. Then it serves the API (with the referee and the projector
running, so what is submitted becomes readable) until interrupted.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from api.bootstrap import Pipeline, bootstrap, open_projector, open_read_models
from api.demo_people import WHOLE, WHOLE_PLAYERS, WHOLE_SEED
from api.operations import phh_records, publish, referee_once, verify
from api.settings import Settings
from domain.errors import chips
from ingest.log import clocked
from ingest.simulator import simulate
from ingest.simulator.clock import simulation_clock
from ingest.simulator.ofc import simulate_ofc_competition

if TYPE_CHECKING:
    from projections.read_models import ReadModels

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PHH = ROOT.parent / "shared" / "data" / "phh"
WSOP = "wsop-2023-event-43"

#: how many hands each simulated table plays
HANDS_PER_TABLE = 20
#: a dealer's slip now and then: each one is refused with the rule it breaks
MISTAKES = 0.02
#: the OFC competition (bfsp 8): six players at two tables of three, this many rounds each
OFC_ROUNDS = 4

Out = Callable[[str], None]


def phh_dir() -> Path:
    return Path(os.environ.get("POKERAUDIT_PHH_DIR", DEFAULT_PHH))


def run_demo(
    data_dir: Path,
    *,
    seed: int = 7,
    serve: bool = True,
    host: str = "127.0.0.1",
    port: int | None = None,
    out: Out = print,
) -> int:
    shutil.rmtree(data_dir, ignore_errors=True)
    port = _free_port(host, port or 8000)
    settings = Settings(  # type: ignore[call-arg]
        POKERAUDIT_DATA_DIR=data_dir,
        POKERAUDIT_PUBLIC_READ=True,
        POKERAUDIT_JWT_SECRET=secrets.token_urlsafe(32),
        POKERAUDIT_API_HOST=host,
        POKERAUDIT_API_PORT=port,
        POKERAUDIT_DEMO_SIGN_IN=True,
    )
    if serve:
        # the first thing a newcomer wants is where to look: the dashboard, served once the data is loaded
        out(f"the dashboard: http://{host}:{port}/ (sign in with the demo's role picker, once loaded)")
    out(f"pokeraudit demo: the embedded service (log, store and read models in {data_dir})")
    competition = load_demo(settings, seed, out)
    if competition is None:
        return 2
    ok = _report(settings, competition, out)
    if not ok:
        return 1
    if serve:
        _serve(settings, competition, out)
    return 0


def load_demo(settings: Settings, seed: int = 7, out: Out = print) -> str | None:
    """Publish, judge and project; the simulated competition's id, or None when the shared hands are missing.

    Besides the simulated tables and the real final table, a whole competition (``WHOLE``: registrations,
    levels, eliminations, a penalty, protests and a ruling) gives the officials' pages their records."""
    final_table = phh_dir() / "data" / "wsop" / "2023" / "43" / "5"
    if not final_table.is_dir():
        out(f"the shared hand histories are not at {final_table}: set POKERAUDIT_PHH_DIR to ../shared/data/phh")
        return None
    simulation = simulate(seed, tables=3, seats=9, hands_per_table=HANDS_PER_TABLE, mistakes=MISTAKES)
    pipeline = bootstrap(settings)
    try:
        # the simulations are received on their synthetic times (ingest/simulator/clock.py); the WSOP hands are
        # imported, and keep theirs whatever the clock
        with clocked(pipeline.log, simulation_clock):
            simulated = publish(pipeline, simulation.records(), progress=False)
            out(
                f"simulated {simulation.competition_id}: {len(simulation.players)} players at 3 tables of 9, "
                f"{len(simulation.hands)} hands, {simulated} events published"
            )
            real = publish(pipeline, phh_records([final_table], WSOP), progress=False)
            out(f"the real WSOP 2023 Event #43 final table: {real} events published")
            ofc = simulate_ofc_competition(seed, 6, 3, OFC_ROUNDS, competition_id=_ofc_of(simulation.competition_id))
            ofc_events = publish(pipeline, ofc.records(), progress=False)
            out(f"an OFC Pineapple competition {ofc.competition_id}: 6 players at 2 tables, {OFC_ROUNDS} rounds each, "
                f"{ofc_events} events published")  # fmt: skip
            counts: dict[str, int] = {}
            whole = _whole_competition(pipeline, counts)
        out(f"a whole competition, {WHOLE}: {whole} events published (its officials' acts included)")
        _tally(counts, referee_once(pipeline))
        out(f"referee: {counts.get('accepted', 0)} accepted, {counts.get('rejected', 0)} rejected")
        chain = verify(pipeline)
        verdict = "every chain holds" if chain.ok else f"BROKEN: {chain.broken}"
        out(f"verify: {chain.events} events in {chain.streams} streams, {verdict}")
        if not chain.ok:
            return None
    finally:
        pipeline.close()
    projector = open_projector(settings)
    try:
        projected = projector.catch_up()
    finally:
        projector.close()
    out(f"projections: {projected} events projected")
    return simulation.competition_id


def _ofc_of(competition: str) -> str:
    """The demo's OFC event, beside its simulated competition."""
    return f"{competition}-ofc"


def _ofc_standings(models: ReadModels, competition: str, out: Out) -> None:
    event = models.ofc_event(competition)
    if event is None:
        return
    fouls = sum(s.fouls for s in event.standings)
    out(f"OFC {competition} after {len(event.rounds)} rounds ({fouls} fouled hands), points:")
    for s in event.standings:
        out(f"  {s.place}. {s.player} {s.points:+d} (royalties {s.royalties}, fantasies {s.fantasies})")


def _whole_competition(pipeline: Pipeline, counts: dict[str, int]) -> int:
    from api.cli_simulate import CompetitionPublisher
    from ingest.simulator import simulate_competition

    simulation = simulate_competition(WHOLE_SEED, WHOLE_PLAYERS)
    # a protest's forwarding names a snapshot of what was judged: the referee judges what precedes it first
    publisher = CompetitionPublisher(pipeline.log, lambda: pipeline.store, lambda: _tally(counts, referee_once(pipeline)))
    return publisher.publish(simulation)


def _tally(counts: dict[str, int], more: dict[str, int]) -> None:
    for outcome, n in more.items():
        counts[outcome] = counts.get(outcome, 0) + n


def _report(settings: Settings, competition: str, out: Out) -> bool:
    models = open_read_models(settings)
    try:
        for summary in models.competitions():
            played = f"{summary.ofc_rounds} OFC rounds" if summary.ofc_rounds else f"{summary.hands} hands"
            out(f"  {summary.competition_id}: {summary.tables} tables, {played}, {summary.rejections} rejections")
        _ofc_standings(models, _ofc_of(competition), out)
        _rejections(models, competition, out)
        _rejections(models, WSOP, out)
        _chip_counts(models, competition, out)
        return _a_hand_with_side_pots(models, competition, out)
    finally:
        models.close()


def _rejections(models: ReadModels, competition: str, out: Out) -> None:
    rejected, total = models.rejections(competition, None, 0, 3)
    if total:
        out(f"refused in {competition} ({total}), for example:")
    for r in rejected:
        out(f"  {r.reason} ({r.rule or r.kind})")


def _chip_counts(models: ReadModels, competition: str, out: Out) -> None:
    tables, _ = models.tables(competition, 0, 10)
    for summary in tables:
        table = models.table(competition, summary.table_id)
        if table is None:
            continue
        seats = ", ".join(
            f"{s.player} {chips(s.stack)}" if s.stack else f"{s.player} (out)"
            for s in sorted(table.seats, key=lambda s: -s.stack)
        )
        out(f"table {table.table_id} after hand {table.last_hand_number}: {seats}")


def _a_hand_with_side_pots(models: ReadModels, competition: str, out: Out) -> bool:
    """Print the pots of the first hand with a side pot (the reason the pots view exists)."""
    tables, _ = models.tables(competition, 0, 10)
    for summary in tables:
        hands, _ = models.hands(competition, summary.table_id, 0, 500)
        for hand in hands:
            pots = sorted((p for p in models.pots(hand.hand_id) if p.awarded), key=lambda p: (p.pot_index, p.half))
            if len({p.pot_index for p in pots}) < 2:
                continue
            out(f"hand {hand.number} at table {hand.table_id} ({hand.hand_id}) had side pots:")
            for pot in pots:
                shares = ", ".join(f"seat {s.seat} {chips(s.amount)}" for s in pot.shares)
                out(f"  {pot.name}: {chips(pot.amount)}, eligible seats {pot.eligible} → {shares}")
            return True
    out("no simulated hand had a side pot (the simulator should make some): the demo is not showing what it should")
    return False


def _serve(settings: Settings, competition: str, out: Out) -> None:
    import uvicorn

    from api.app import create_app
    from api.auth import issue_token
    from domain.roles import Role

    assert settings.jwt_secret is not None
    base = f"http://{settings.api_host}:{settings.api_port}"
    judge = issue_token(settings.jwt_secret.get_secret_value(), "demo-judge", Role.JUDGE)
    out("")
    out(f"the dashboard: {base}/ (the web app; sign in with the demo's role picker: demo tokens only)")
    out(f"the API is starting on {base} (Ctrl-C stops it); reads need no token in the demo:")
    for path in (
        "/docs",
        "/v1/competitions",
        f"/v1/competitions/{competition}/tables",
        f"/v1/competitions/{competition}/tables/T1",
        f"/v1/competitions/{competition}/rejections",
        f"/v1/competitions/{WSOP}/rejections",
        f"/v1/competitions/{_ofc_of(competition)}/ofc",
    ):
        out(f"  {base}{path}")
    out("  a hand: /v1/hands/{hand_id} with /history, /stacks, /pots, /showdown")
    out(f"to submit events (POST {base}/v1/events), a judge's token: {judge}")
    uvicorn.run(create_app(settings, workers=True), host=settings.api_host, port=settings.api_port, log_level="warning")


def _free_port(host: str, wanted: int) -> int:
    """``wanted`` if nothing listens there, else a free port (a newcomer may have something on 8000)."""
    with socket.socket() as probe:
        try:
            probe.bind((host, wanted))
            return wanted
        except OSError:
            pass
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port
