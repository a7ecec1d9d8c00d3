"""The protocol as a reviewer deciding a protest reads it (issue 13): every item he needs, in the JSON, the HTML
page and the printed PDF (its text read back with pypdf) — moves with where from and to, why and who authorised
them; protests with grounds (for those who may read them), decision, reasons, who decided and when, and the
snapshot they were forwarded with; rulings with what they re-awarded; violations and penalties with who
recorded them; placings with names, prizes and the 13 % withheld; the Regulations as tables; hands linked to
their history; the rejections in an annex of their own."""

from __future__ import annotations

import io
import json
import uuid
from html import escape
from pathlib import Path
from typing import Any

import pytest
from embedded_referee import Pipeline
from federation_records import (
    COMPETITION,
    DEALER,
    JUDGE,
    Records,
    all_in_hand,
    at,
    opening,
    play_to_the_end,
    seats,
    table,
)
from pypdf import PdfReader

from api.auth import Principal
from api.cli_simulate import CompetitionPublisher
from api.sealing import SealingPolicy
from domain.hand.events import PotShare
from domain.roles import Role
from domain.rulings import PotReaward, RulingIssued, RulingKind
from ingest.log import EmbeddedLog
from ingest.publish import hand_records
from ingest.referee import Referee
from ingest.runners import drain_embedded
from ingest.simulator import CompetitionSimulation, simulate_competition
from ingest.store import Store, store_env
from projections.protocol import checked_protocol, compile_snapshot, protocol
from projections.protocol_render import anchor, to_html, to_pdf

pytestmark = pytest.mark.unit

FEDERATION_READER = Principal(person="fed-board", role=Role.FEDERATION)
VIEWER = Principal(person="someone", role=Role.VIEWER)


def pdf_text(document: dict[str, Any]) -> str:
    reader = PdfReader(io.BytesIO(to_pdf(document)))
    return "\n".join(page.extract_text() for page in reader.pages)


def flat(text: str) -> str:
    """Printed text with its line breaks taken out: a cell wraps where the column ends."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[CompetitionSimulation, Store]:
    """A 45-player American competition judged by the referee on an embedded log, and then one record the
    referee refuses (the Regulations adopted a second time)."""
    folder = tmp_path_factory.mktemp("reviewer")
    simulation = simulate_competition(1, players=45, format="american")
    log = EmbeddedLog(folder / "log.sqlite", "events", partitions=1)
    store = Store(env=store_env(None, str(folder / "store.sqlite")))
    referee = Referee(store, "events", protocols=compile_snapshot)
    publisher = CompetitionPublisher(log, lambda: store, lambda: list(drain_embedded(log, referee)))
    publisher.publish(simulation)
    key, value = next(iter(simulation.records()))
    again = json.loads(value)
    assert again["type"] == "RegulationsAdopted"
    log.append([(key, json.dumps({**again, "event_id": str(uuid.uuid4())}).encode())])
    verdicts = list(drain_embedded(log, referee))
    assert [v.outcome for v in verdicts][-1:] == ["rejected"]
    return simulation, store


@pytest.fixture(scope="module")
def read(simulated: tuple[CompetitionSimulation, Store]) -> dict[str, Any]:
    simulation, store = simulated
    document = SealingPolicy().protocol(checked_protocol(store, simulation.competition_id), FEDERATION_READER)
    return {"json": document, "html": to_html(document), "pdf": flat(pdf_text(document))}


def test_moves_name_where_from_and_to_why_and_who_authorised_them(read: dict[str, Any]) -> None:
    moved = next(m for m in read["json"]["moves"] if m["type"] == "PlayerMoved")
    assert {"from_table", "from_seat", "to_table", "to_seat", "reason", "authorised_by", "rule"} <= set(moved)
    assert moved["rule"] == "bfsp 3.1" and moved["authorised_by"]
    row = (f"table {moved['from_table']} seat {moved['from_seat']}", f"table {moved['to_table']} seat {moved['to_seat']}")
    assert f"<td>{row[0]}</td>\n<td>{row[1]}</td>".replace("\n", "") in read["html"]
    assert f"{row[0]} {row[1]} balance" in read["pdf"]
    broken = next(m for m in read["json"]["moves"] if m["type"] == "TableBroken")
    drawn = broken["moves"][0]
    assert f"{drawn['participant']} table {drawn['from_table']} seat {drawn['from_seat']} table {drawn['to_table']}" \
           f" seat {drawn['to_seat']} table broken break draw" in read["pdf"]


def test_protests_carry_grounds_decision_reasons_who_decided_when_and_the_snapshot_forwarded(
    read: dict[str, Any],
) -> None:
    tier_2 = next(p for p in read["json"]["protests"] if p["tier"] == "federation")
    decision, forwarded = tier_2["decision"], tier_2["forwarded"]
    assert decision["decision"] == "dismissed" and decision["recorded_by"]["role"] == "federation"
    assert forwarded["snapshot"] and forwarded["by"]["role"] == "chief_judge"
    for form in ("html", "pdf"):
        for said in (tier_2["grounds"], decision["reasons"], decision["at"], forwarded["snapshot"],
                     decision["recorded_by"]["person"]):
            assert (escape(said) if form == "html" else said) in read[form], (form, said)


def test_an_undecided_protests_grounds_are_for_the_officials_only_in_every_format(tmp_path: Path) -> None:
    from test_protocol import P01  # noqa: PLC0415 - the same participant files here

    from domain.protests import Contested, ContestedKind, ProtestFiled, ProtestTier

    pipeline, records = Pipeline(tmp_path), Records()
    protest = ProtestFiled(
        "protest-1", COMPETITION, ProtestTier.FEDERATION, "p01",
        Contested("penalty-1", ContestedKind.PENALTY, Role.CHIEF_JUDGE, sanctioned="p01"),
        "I folded in time", True, Role.CHIEF_JUDGE, at(15),
    )
    competition = [*opening(records), *play_to_the_end(records)]
    pipeline.judge(competition[:-1])  # penalty-1, which the protest is against, among them
    [verdict] = pipeline.judge([records.record(protest, P01, at(15))])
    assert verdict.outcome == "accepted", verdict.rejection
    document = protocol(pipeline.store, COMPETITION)
    for principal, sees in ((FEDERATION_READER, True), (VIEWER, False)):
        readable = SealingPolicy().protocol(document, principal)
        assert ("I folded in time" in to_html(readable)) is sees
        assert ("I folded in time" in pdf_text(readable)) is sees
        assert ("withheld: officials only" in flat(pdf_text(readable))) is not sees


def test_a_ruling_shows_what_it_re_awarded_and_to_whom(tmp_path: Path) -> None:
    pipeline, records = Pipeline(tmp_path), Records()
    where = seats()
    pipeline.judge(list(opening(records)))
    played = hand_records(all_in_hand(1, "p01", "p02"), COMPETITION, DEALER, at(12), hand_number=1)
    ruling = RulingIssued(
        "ruling-1", f"{table()}/1", RulingKind.FINDING_OF_FACT, JUDGE.person, Role.JUDGE, "bfsp 2.2.3",
        "p02's cards were misread: the pot is his", reawards=(PotReaward(0, (PotShare(where["p02"][1], 20_050),)),),
    )
    verdicts = pipeline.judge([*played, records.record(ruling, JUDGE, at(14), table(), "1")])
    assert {v.outcome for v in verdicts} == {"accepted"}, [v.rejection for v in verdicts if v.rejection]
    document = SealingPolicy().protocol(protocol(pipeline.store, COMPETITION), FEDERATION_READER)
    [issued] = document["rulings"]
    assert issued["reawards"] == [{"pot_index": 0, "half": "",
                                   "shares": [{"seat": where["p02"][1], "amount": 20_050, "player": "p02"}]}]
    said = f"pot 0: p02 (seat {where['p02'][1]}) 20,050"
    html = to_html(document)
    assert said in html and f'<a href="#{anchor(table() + "/1")}">{table()}/1</a>' in html
    assert said in flat(pdf_text(document))


def test_violations_and_penalties_name_who_recorded_them(read: dict[str, Any]) -> None:
    violation, penalty = read["json"]["violations"][0], read["json"]["penalties"][0]
    assert violation["recorded_by"]["person"] and penalty["recorded_by"]["person"]
    for form in ("html", "pdf"):
        assert f"{violation['recorded_by']['person']} ({violation['recorded_by']['role'].replace('_', ' ')})" in read[form]
        assert f"{penalty['recorded_by']['person']} ({penalty['recorded_by']['role'].replace('_', ' ')})" in read[form]


def test_placings_carry_names_prizes_and_the_13_percent_withheld(read: dict[str, Any]) -> None:
    winner = read["json"]["placings"][0]
    prize = winner["prize"]
    assert winner["place"] == 1 and winner["person"] and prize["withheld_percent"] == 13
    assert prize["withheld"] == prize["gross"] * 13 // 100 and prize["net"] == prize["gross"] - prize["withheld"]
    for form in ("html", "pdf"):
        assert winner["person"] in read[form]
        assert f"{prize['gross']:,}" in read[form] and f"{prize['withheld']:,} (13 %)" in read[form]
        assert f"{prize['net']:,}" in read[form]


def test_the_regulations_print_as_tables_of_levels_breaks_and_prizes(read: dict[str, Any]) -> None:
    regs = read["json"]["regulations"]
    first, pause, prize = regs["levels"][0], regs["breaks"][0], regs["prizes"][0]
    assert "<h2>Regulations: level schedule</h2>" in read["html"]
    assert (f"<tr><td>{first['number']}</td><td>{first['minutes']}</td><td>{first['small_blind']}</td>"
            f"<td>{first['big_blind']}</td>") in read["html"]
    assert f"<tr><td>{pause['after_level']}</td><td>{pause['minutes']}</td></tr>" in read["html"]
    assert "13 % of every prize" in read["html"] and '"number":' not in read["html"]
    for title in ("Regulations: level schedule", "Regulations: breaks", "Regulations: prizes"):
        assert title in read["pdf"]
    assert f"1 {prize['amount']:,} {prize['amount'] * 13 // 100:,} {prize['amount'] - prize['amount'] * 13 // 100:,}" \
           in read["pdf"]


def test_hands_are_anchored_and_link_to_their_history_and_other_sections_link_to_them(read: dict[str, Any]) -> None:
    hand = read["json"]["hands"][0]
    assert hand["history"] == f"/v1/hands/{hand['hand']}/history"
    assert f'<tr id="{anchor(hand["name"])}"><td><a href="{hand["history"]}">{hand["name"]}</a></td>' in read["html"]
    eliminated = read["json"]["eliminations"][0]
    assert f'<a href="#{anchor(eliminated["hand"])}">{eliminated["hand"]}</a>' in read["html"]


def test_rejections_are_an_annex_of_their_own_at_the_end(read: dict[str, Any], simulated: Any) -> None:
    [rejected] = read["json"]["rejections"]
    html = read["html"]
    annex = html.index("<h2>Annex: rejections")
    assert annex > html.index("<h2>Signatures</h2>") and '<section id="section-' in html[annex - 60:annex]
    assert rejected["event_type"] in html[annex:] and "class=annex" in html[annex - 60:annex]
    _, store = simulated
    document = read["json"]
    pages = PdfReader(io.BytesIO(to_pdf(document))).pages
    assert flat(pages[-1].extract_text()).startswith("Annex: rejections")
    assert "RegulationsAdopted" in pages[-1].extract_text()
