"""Issue 13's acceptance: a whole competition played the way its officials play it, through the API only, on the app
with its real referee (the embedded pipeline, workers on): the federation adopts the Regulations and appoints the
Chief Judge, who appoints the Secretary, a judge and the dealer; the Secretary registers the players and conducts the
seat draw computed with `pokeraudit draw`; level 1 starts the clock and the hands are dealt at the table; a judge's finding
is protested to the Chief Judge and dismissed; p01's written protest against his warning is received by the
Secretary, forwarded with a signed snapshot of the protocol and decided by the federation; the Chief Judge ends the
competition, the Secretary compiles the final protocol, both sign it, the result documents are issued; and the final
protocol's PDF (its text read with pypdf) and HTML carry every item a reviewer reads.

Levels run by the clock: level 1 starts it, and announcing level 2 while level 1's minutes run is refused
(tests/unit/test_level_clock.py plays the clock through levels, breaks and pauses at times the test chooses)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from federation_records import (
    CHIEF,
    COMPETITION,
    DEALER,
    FEDERATION,
    JUDGE,
    LEVEL_1,
    PLAYERS,
    REGULATIONS,
    SECRETARY,
    SEED,
    STACK,
    STACKS_AFTER_HAND_1,
    Records,
    all_in_hand,
    table,
)
from pypdf import PdfReader

from api.app import create_app
from api.auth import issue_token
from api.settings import Settings
from domain.competition.events import (
    CompetitionEnded,
    EliminationReason,
    LevelStarted,
    OfficialAppointed,
    ParticipantRegistered,
    PlayerEliminated,
    RegulationsAdopted,
)
from domain.discipline import PenaltyKind
from domain.discipline.events import PenaltyImposed, ViolationRecorded
from domain.protests import Contested, ContestedKind, ProtestFiled, ProtestTier
from domain.protests.events import ProtestDecided, ProtestDecision, ProtestForwarded, ProtestReceived
from domain.roles import Role
from domain.rulings import RulingIssued, RulingKind
from ingest.envelope import RecordedBy
from ingest.publish import hand_records

pytestmark = pytest.mark.e2e

SECRET = "test-secret-of-at-least-thirty-two-bytes"
BASE = f"/v1/competitions/{COMPETITION}"
P01 = RecordedBy(person="person-p01", role=Role.PARTICIPANT)
P02 = RecordedBy(person="person-p02", role=Role.PARTICIPANT)
GROUNDS = "I folded in time; the judge saw my cards go into the muck"
DECISION = "the video shows the cards kept after the fold: the warning stands"


def now() -> datetime:
    return datetime.now(UTC)


def pdf_text(data: bytes) -> str:
    return " ".join("\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).split())


class Officials:
    """The API as each official, participant and the federation use it: one token each."""

    def __init__(self, api: TestClient) -> None:
        self.api = api
        self.records = Records()
        self.tokens = {
            FEDERATION.person: issue_token(SECRET, FEDERATION.person, "federation"),
            CHIEF.person: issue_token(SECRET, CHIEF.person, "chief_judge"),
            SECRETARY.person: issue_token(SECRET, SECRETARY.person, "secretary"),
            JUDGE.person: issue_token(SECRET, JUDGE.person, "judge"),
            DEALER.person: issue_token(SECRET, DEALER.person, "dealer", competition=COMPETITION, table=table()),
            P01.person: issue_token(SECRET, P01.person, "participant", competition=COMPETITION),
            P02.person: issue_token(SECRET, P02.person, "participant", competition=COMPETITION),
        }

    def headers(self, who: RecordedBy) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[who.person]}"}

    def submit(self, record: tuple[bytes, bytes], who: RecordedBy) -> dict[str, Any]:
        """One record through ``POST /v1/events?wait=true``: the referee's verdict."""
        answer = self.api.post("/v1/events", params={"wait": "true"}, json=json.loads(record[1]), headers=self.headers(who))
        assert answer.status_code == 200, answer.text
        verdict: dict[str, Any] = answer.json()["verdicts"][0]
        return verdict

    def payload(self, kind: str, payload: dict[str, Any], who: RecordedBy) -> dict[str, Any]:
        """A record whose payload a tool printed (the draw's): as a client sends it, ``recorded_by`` the token's."""
        record = {"event_id": str(uuid.uuid4()), "competition_id": COMPETITION, "seq": 0, "type": kind,
                  "payload": payload, "occurred_at": now().isoformat()}
        answer = self.api.post("/v1/events", params={"wait": "true"}, json=record, headers=self.headers(who))
        assert answer.status_code == 200, answer.text
        verdict: dict[str, Any] = answer.json()["verdicts"][0]
        return verdict

    def act(self, event: Any, who: RecordedBy, when: datetime | None = None, **where: str) -> dict[str, Any]:
        """``event`` recorded by ``who`` at ``when`` (now; an act that names its own time names the record's)."""
        verdict = self.submit(self.records.record(event, who, when or now(), **where), who)
        assert verdict["outcome"] == "accepted", verdict
        return verdict

    def refused(self, event: Any, who: RecordedBy) -> dict[str, Any]:
        verdict = self.submit(self.records.record(event, who, now()), who)
        assert verdict["outcome"] == "rejected", verdict
        return verdict

    def deal(self, number: int, winner: str, loser: str) -> None:
        for record in hand_records(all_in_hand(number, winner, loser), COMPETITION, DEALER, now(),
                                   step=timedelta(milliseconds=10)):
            verdict = self.submit(record, DEALER)
            assert verdict["outcome"] == "accepted", verdict

    def post(self, path: str, who: RecordedBy, body: Any = None) -> dict[str, Any]:
        answer = self.api.post(f"{BASE}{path}", json=body, headers=self.headers(who))
        assert answer.status_code == 201, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def get(self, path: str, who: RecordedBy, **params: str) -> Any:
        answer = self.api.get(f"{BASE}{path}", params=params, headers=self.headers(who))
        assert answer.status_code == 200, answer.text
        return answer


def seat_draw_from_the_cli() -> dict[str, Any]:
    """The Secretary's draw as `pokeraudit draw seats … --json` computes it (docs/DRAW.md)."""
    pokeraudit = Path(sys.executable).parent / "pokeraudit"
    printed = subprocess.run(
        [str(pokeraudit), "draw", "seats", *PLAYERS, "--seed", SEED, "--seats-per-table", str(REGULATIONS.max_seats),
         "--ordered-by", CHIEF.person, "--json"],
        capture_output=True, text=True, check=True, timeout=120,
    )
    drawn: dict[str, Any] = json.loads(printed.stdout)
    return drawn


@pytest.fixture
def officials(tmp_path: Path) -> Iterator[Officials]:
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    with TestClient(create_app(settings, workers=True)) as api:
        yield Officials(api)


def test_a_whole_competition_from_the_regulations_to_the_signed_final_protocol(officials: Officials) -> None:
    o = officials
    # the federation adopts the Regulations and appoints the Chief Judge; he appoints his officials (bfsp 2.1.1)
    o.act(RegulationsAdopted(COMPETITION, REGULATIONS), FEDERATION)
    o.act(OfficialAppointed(CHIEF.person, Role.CHIEF_JUDGE), FEDERATION)
    for official in (SECRETARY, JUDGE):
        o.act(OfficialAppointed(official.person, official.role), CHIEF)
    o.act(OfficialAppointed(DEALER.person, Role.DEALER, tables=(int(table()),)), CHIEF)
    for player in PLAYERS:
        o.act(ParticipantRegistered(player, f"person-{player}", datetime(1990, 1, 1).date()), SECRETARY)

    # the Secretary conducts the draw the CLI computed: its seed's hash first, then the seed and the seats (5.2)
    drawn = seat_draw_from_the_cli()
    assert o.payload("SeatDrawCommitted", {"seed_sha256": drawn["seed_sha256"]}, SECRETARY)["outcome"] == "accepted"
    conducted = {k: v for k, v in drawn.items() if k not in ("type", "seed_sha256", "seats_per_table")}
    assert o.payload("SeatDrawConducted", conducted, SECRETARY)["outcome"] == "accepted"

    # play: level 1, a warning, hand 1 (p02 busts), a judge's finding protested to the Chief Judge and dismissed
    o.act(LevelStarted(LEVEL_1, now()), JUDGE)
    # levels run by the clock (bfsp 3.3): level 1 holds for its minutes from its start, whatever is announced
    early = o.refused(LevelStarted(REGULATIONS.levels[1], now()), JUDGE)
    assert early["rule"] == "bfsp 3.3" and "the clock is in level 1" in early["reason"], early
    clock = o.get("/clock", JUDGE).json()
    assert clock["level"]["number"] == 1 and 0 < clock["seconds_remaining"] <= LEVEL_1.minutes * 60, clock
    o.act(ViolationRecorded("p01", "7.1.2", f"{table()}/1", False, 1, "kept his cards after announcing a fold"), JUDGE)
    o.act(PenaltyImposed("p01", 1, PenaltyKind.WARNING, Role.CHIEF_JUDGE), CHIEF)
    refused_end = o.refused(CompetitionEnded(COMPETITION), CHIEF)
    assert refused_end["rule"] == "bfsp 5.10.1" and "3 players still hold chips" in refused_end["reason"]
    o.deal(1, "p01", "p02")
    o.act(PlayerEliminated("p02", f"{table()}/1", EliminationReason.NO_CHIPS, 3, starting_stack=STACK), JUDGE)
    finding = RulingIssued("r-1", f"{table()}/1", RulingKind.FINDING_OF_FACT, JUDGE.person, Role.JUDGE,
                           "bfsp 2.2.3", "the board was dealt from the top of the deck")
    o.act(finding, JUDGE, table_id=table(), hand_id="1")
    filed = now()
    o.act(ProtestFiled("protest-2", COMPETITION, ProtestTier.CHIEF_JUDGE, "p02",
                       Contested("r-1", ContestedKind.FINDING_OF_FACT, Role.JUDGE), "the flop came off the bottom",
                       False, Role.CHIEF_JUDGE, filed), P02, filed)  # fmt: skip
    decided = now()
    o.act(ProtestDecided("protest-2", ProtestDecision.DISMISSED, Role.CHIEF_JUDGE, "the dealer's video is clear",
                         decided), CHIEF, decided)  # fmt: skip

    # p01 hands in a written protest against his warning; the Secretary records its receipt (7.3.1)
    received = now()
    record = o.records.record(
        ProtestReceived("protest-1", COMPETITION, ProtestTier.FEDERATION, "p01",
                        Contested("penalty-1", ContestedKind.PENALTY, Role.CHIEF_JUDGE, sanctioned="p01"),
                        GROUNDS, True, received),
        SECRETARY, received,
    )  # fmt: skip
    assert o.submit(record, SECRETARY)["outcome"] == "accepted"
    # the Chief Judge forwards it with a snapshot of the protocol, signed (7.3.3); the federation decides (7.3.4)
    taken = o.post("/protocol/snapshots", CHIEF)
    for keeper in (SECRETARY, CHIEF):
        o.post(f"/protocol/snapshots/{taken['version']}/signatures", keeper, {"sha256": taken["sha256"]})
    forwarded_at = now()
    o.act(ProtestForwarded("protest-1", taken["name"], taken["chain_head"], forwarded_at,
                           forwarded_at + timedelta(days=REGULATIONS.book.protest_decision_days)), CHIEF, forwarded_at)
    decided = now()
    o.act(ProtestDecided("protest-1", ProtestDecision.DISMISSED, Role.FEDERATION, DECISION, decided), FEDERATION, decided)

    # hand 2: p03 busts, p01 wins; the Chief Judge ends the competition (2.1.1)
    o.deal(2, "p01", "p03")
    o.act(PlayerEliminated("p03", f"{table()}/2", EliminationReason.NO_CHIPS, 2,
                           starting_stack=STACKS_AFTER_HAND_1["p03"]), JUDGE)  # fmt: skip
    assert o.api.post(f"{BASE}/end", headers=o.headers(JUDGE)).json()["error"]["rule"] == "bfsp 2.1.1"
    ended = o.post("/end", CHIEF)
    assert (ended["closed_by"], ended["winner"]) == (CHIEF.person, "p01")
    after = o.refused(LevelStarted(REGULATIONS.levels[1], now()), JUDGE)
    assert after["rule"] == "bfsp 2.3.3" and "after the end" in after["reason"]

    # the Secretary compiles the final protocol (2.3.3); the Secretary and the Chief Judge sign it (2.1.4)
    final = o.post("/protocol/final", SECRETARY)
    assert final["final"] is True and final["version"] == 2
    for keeper in (SECRETARY, CHIEF):
        o.post("/protocol/snapshots/2/signatures", keeper, {"sha256": final["sha256"]})
    late = o.refused(ViolationRecorded("p03", "7.1.7", "", False, 1, "slow"), JUDGE)
    assert late["rule"] == "bfsp 2.1.4" and "signed by the Chief Judge" in late["reason"]
    issued = o.post("/results", SECRETARY, {"version": 2, "sha256": final["sha256"]})
    assert issued["total"] == 3
    own = o.get("/results", P01).json()["items"]
    assert [(d["participant"], d["place"], d["protocol_sha256"]) for d in own] == [("p01", 1, final["sha256"])]
    assert own[0]["prize"]["withheld"] == own[0]["prize"]["gross"] * 13 // 100 > 0

    read = o.get("/protocol/snapshots/2", CHIEF).json()
    protocol = read["protocol"]
    assert read["verification"]["ok"] and [s["person"] for s in read["signatures"]] == [SECRETARY.person, CHIEF.person]
    html = o.get("/protocol/snapshots/2", CHIEF, format="html").text
    pdf = o.get("/protocol/snapshots/2", CHIEF, format="pdf")
    assert pdf.headers["content-type"] == "application/pdf"
    printed = pdf_text(pdf.content)
    hand_1 = next(h for h in protocol["hands"] if h["number"] == 1)
    for text in (html, printed):
        # the final version, its identity and its signatures
        assert "FINAL PROTOCOL, compiled by the Secretary" in text and final["sha256"] in text
        assert f"Signed by {SECRETARY.person} (secretary)" in text and f"Signed by {CHIEF.person} (chief judge)" in text
        # the Regulations as readable tables: the level schedule, the breaks, the prizes
        for title in ("Regulations: level schedule", "Regulations: breaks", "Regulations: prizes"):
            assert title in text
        # the moves section (a one-table event moves nobody: its rows' from/to, reason and authoriser are
        # tests/unit/projections' to check)
        assert "Moves" in text
        # protests: grounds, decision, reasons, who decided and when, the snapshot forwarded with
        assert GROUNDS in text and DECISION in text and taken["name"] in text and "federation" in text
        # rulings; violations and penalties with who recorded them
        assert "the board was dealt from the top of the deck" in text and "r-1" in text
        assert "kept his cards after announcing a fold" in text and JUDGE.person in text
        # placings with names and prizes, the 13 % withheld
        assert "person-p01" in text and "(13 %)" in text
        # the end: who closed it
        assert "closed by" in text
        # the rejections in an annex of their own
        assert "Annex: rejections" in text and "play is not over" in text
    # hands linked to their history: an anchor per hand and the link to its history
    assert f'href="{hand_1["history"]}"' in html or hand_1["history"] in html
    assert 'id="hand-' in html
    assert protocol["competition"]["closed_by"]["person"] == CHIEF.person
