"""Issue 13's acceptance: a whole competition played the way its officials play it, through the API only, on the app
with its real referee (the embedded pipeline, workers on): the federation adopts the Regulations and appoints the
Chief Judge, who appoints the Secretary, a judge and the dealer; the Secretary registers the players and conducts the
seat draw computed with `pokeraudit draw`; level 1 starts the clock and the hands are dealt at the table; a judge's finding
is protested to the Chief Judge and dismissed; p01's written protest against his warning is received by the
Secretary, forwarded with a signed snapshot of the protocol and decided by the federation; the Chief Judge ends the
competition, the Secretary compiles the final protocol, both sign it, the result documents are issued; and the final
protocol's PDF (its text read with pypdf) and HTML carry every item a reviewer reads.

Levels run by the clock: level 1 starts it, and announcing level 2 while level 1's minutes run is refused
(tests/unit/test_level_clock.py plays the clock through levels, breaks and pauses at times the test chooses).

The second competition plays two tables, 6-max, seven players: after a bust at the short table the floor's balance
(``GET /balance``) names the move bfsp 3.1 requires, a wrong mover is refused with it, and the Chief Judge moves the
next big blind; a judge's ruling re-awards a pot, without which the loser's elimination is refused; four left sit at
the final table by the draw `pokeraudit draw final-table` computes; and the final protocol's HTML and PDF rows carry
the move (from and to table and seat, the reason, who authorised it) and the ruling's re-award (player and amount)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from html import escape
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
from domain.cards import parse_cards
from domain.competition.events import (
    CompetitionEnded,
    EliminationReason,
    LevelStarted,
    OfficialAppointed,
    ParticipantRegistered,
    PlayerEliminated,
    RegulationsAdopted,
)
from domain.competition.floor_events import MoveReason, MoveRule, PlayerMoved
from domain.competition.regulations import Prize
from domain.discipline import PenaltyKind
from domain.discipline.events import PenaltyImposed, ViolationRecorded
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    ForcedBetKind,
    ForcedBetPosted,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    PotShare,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.protests import Contested, ContestedKind, ProtestFiled, ProtestTier
from domain.protests.events import ProtestDecided, ProtestDecision, ProtestForwarded, ProtestReceived
from domain.roles import Role
from domain.rulings import PotReaward, RulingIssued, RulingKind
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

    def __init__(self, api: TestClient, competition: str = COMPETITION) -> None:
        self.api = api
        self.competition = competition
        self.base = f"/v1/competitions/{competition}"
        self.records = Records(competition)
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
        record = {"event_id": str(uuid.uuid4()), "competition_id": self.competition, "seq": 0, "type": kind,
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
        answer = self.api.post(f"{self.base}{path}", json=body, headers=self.headers(who))
        assert answer.status_code == 201, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def get(self, path: str, who: RecordedBy, **params: str) -> Any:
        answer = self.api.get(f"{self.base}{path}", params=params, headers=self.headers(who))
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
        # the moves section (a one-table event moves nobody: a move's row, from/to, reason and authoriser, is the
        # two-table competition's below to check)
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
    # the print's Signatures section lists the signatures on this final version (made after its text was fixed)
    signed_rows = html.split("<h2>Signatures</h2>")[1].split("</section>")[0]
    assert signed_rows.count(final["sha256"]) == 2 and SECRETARY.person in signed_rows and CHIEF.person in signed_rows
    # hands linked to their history: an anchor per hand and the link to its history
    assert f'href="{hand_1["history"]}"' in html or hand_1["history"] in html
    assert 'id="hand-' in html
    assert protocol["competition"]["closed_by"]["person"] == CHIEF.person


# --- two tables: a move for balance after a bust, a ruling that re-awards a pot, the final table ---------------

CUP = "minsk-cup-2026"
CUP_PLAYERS = ("q1", "q2", "q3", "q4", "q5", "q6", "q7")
CUP_SEED = "two-tables seat draw"
#: 6-max, two tables of 4 and 3; the final table seats the last 4 (bfsp 3.1: the Regulations' final_table)
CUP_REGULATIONS = replace(REGULATIONS, title="Minsk Cup 2026", max_seats=6, final_table=4,
                          prizes=(Prize(1, 5000), Prize(2, 3000), Prize(3, 1500)))
DEALERS = {1: RecordedBy(person="dealer-t1", role=Role.DEALER), 2: RecordedBy(person="dealer-t2", role=Role.DEALER)}
#: every player's hole cards: aces beat kings beat queens … at the board Ah9c4d Tc 3h (no straight, no flush)
CUP_CARDS = {"q3": "AsAd", "q4": "KsKd", "q5": "QsQd", "q6": "JsJd", "q2": "8s8d", "q7": "7s7d", "q1": "6s6d"}
MISREAD = "the dealer pushed the pot to q3, whose aces were dead (a card exposed before the deal): q4's pot"


def cup_draw(kind: str, players: tuple[str, ...], seed: str, *size: str) -> dict[str, Any]:
    pokeraudit = Path(sys.executable).parent / "pokeraudit"
    printed = subprocess.run([str(pokeraudit), "draw", kind, *players, "--seed", seed, *size,
                              "--ordered-by", CHIEF.person, "--json"],
                             capture_output=True, text=True, check=True, timeout=120)  # fmt: skip
    drawn: dict[str, Any] = json.loads(printed.stdout)
    return drawn


def played(
    table_number: int,
    number: int,
    seated: dict[str, tuple[int, int]],
    blinds: tuple[str, str, str],
    acts: list[tuple[str, ActionKind, int | None]],
) -> list[ReportedEvent]:
    """Hand ``number`` at ``table_number``: ``seated`` player → (seat, stack), (button, small blind, big blind),
    the acts before the flop; whoever is still in shows (all in) and the board runs out."""
    button, small, big = blinds
    seat = {p: s for p, (s, _) in seated.items()}
    order = sorted(seated, key=lambda p: (seat[p] - seat[small]) % CUP_REGULATIONS.max_seats)
    folded = {p for p, kind, _ in acts if kind is ActionKind.FOLD}
    return [
        HandStarted(str(table_number), number, "NT",
                    tuple(sorted((SeatEntry(s, p, stack) for p, (s, stack) in seated.items()), key=lambda e: e.seat)),
                    seat[button],
                    Stakes(blinds=((seat[small], LEVEL_1.small_blind), (seat[big], LEVEL_1.big_blind)),
                           min_bet=LEVEL_1.big_blind),
                    burns_recorded=False),
        ForcedBetPosted(seat[small], ForcedBetKind.SMALL_BLIND, LEVEL_1.small_blind),
        ForcedBetPosted(seat[big], ForcedBetKind.BIG_BLIND, LEVEL_1.big_blind),
        *(HoleCardsDealt(seat[p], parse_cards(CUP_CARDS[p])) for p in order),
        *(PlayerActed(seat[p], kind, amount) for p, kind, amount in acts),
        *(HandShown(seat[p], parse_cards(CUP_CARDS[p])) for p, _, _ in acts if p not in folded),
        BoardDealt(parse_cards("Ah9c4d")),
        BoardDealt(parse_cards("Tc")),
        BoardDealt(parse_cards("3h")),
    ]  # fmt: skip


def test_two_tables_a_move_for_balance_a_ruling_that_re_awards_a_pot_and_the_final_table(
    officials: Officials,
) -> None:
    o = Officials(officials.api, CUP)
    for table_number, dealer in DEALERS.items():
        o.tokens[dealer.person] = issue_token(SECRET, dealer.person, "dealer", competition=CUP, table=str(table_number))
    o.act(RegulationsAdopted(CUP, CUP_REGULATIONS), FEDERATION)
    o.act(OfficialAppointed(CHIEF.person, Role.CHIEF_JUDGE), FEDERATION)
    for official in (SECRETARY, JUDGE):
        o.act(OfficialAppointed(official.person, official.role), CHIEF)
    for table_number, dealer in DEALERS.items():
        o.act(OfficialAppointed(dealer.person, Role.DEALER, tables=(table_number,)), CHIEF)
    for player in CUP_PLAYERS:
        o.act(ParticipantRegistered(player, f"person-{player}", datetime(1990, 1, 1).date()), SECRETARY)
    drawn = cup_draw("seats", CUP_PLAYERS, CUP_SEED, "--seats-per-table", str(CUP_REGULATIONS.max_seats))
    assert o.payload("SeatDrawCommitted", {"seed_sha256": drawn["seed_sha256"]}, SECRETARY)["outcome"] == "accepted"
    conducted = {k: v for k, v in drawn.items() if k not in ("type", "seed_sha256", "seats_per_table")}
    assert o.payload("SeatDrawConducted", conducted, SECRETARY)["outcome"] == "accepted"
    seats = {a["participant"]: (a["table"], a["seat"]) for a in drawn["assignments"]}
    assert sorted({t for t, _ in seats.values()}) == [1, 2]
    o.act(LevelStarted(LEVEL_1, now()), JUDGE)

    def deal(events: list[ReportedEvent], table_number: int) -> None:
        for record in hand_records(events, CUP, DEALERS[table_number], now(), step=timedelta(milliseconds=10)):
            verdict = o.submit(record, DEALERS[table_number])
            assert verdict["outcome"] == "accepted", verdict

    def at(table_number: int, stacks: dict[str, int]) -> dict[str, tuple[int, int]]:
        return {p: (seats[p][1], stack) for p, stack in stacks.items() if seats[p][0] == table_number}

    # hand 2/1 (the table of 3, button on its highest seat): q2 moves all in, q4 calls, q4's kings win
    assert (seats["q2"], seats["q4"], seats["q3"]) == ((2, 1), (2, 2), (2, 3))
    deal(played(2, 1, at(2, dict.fromkeys(("q2", "q4", "q3"), STACK)), ("q3", "q2", "q4"),
                [("q3", ActionKind.FOLD, None), ("q2", ActionKind.RAISE, STACK), ("q4", ActionKind.CALL, None)]), 2)
    o.act(PlayerEliminated("q2", "2/1", EliminationReason.NO_CHIPS, 7, starting_stack=STACK), JUDGE)

    # table 2 is two short of table 1: the floor (GET /balance) names the move, the Chief Judge makes it (bfsp 3.1)
    balance = o.get("/balance", CHIEF).json()
    assert not balance["balanced"] and balance["next_move"], balance
    move = balance["next_move"]
    # a move the rules do not call for is refused with the one they do (q7 is not the next big blind)
    wrong = o.refused(PlayerMoved("q7", 1, 1, 2, 4, MoveReason.BALANCE, MoveRule.NEXT_BIG_BLIND, CHIEF.person), CHIEF)
    assert wrong["rule"] == "bfsp 3.1" and "q1 must move: he would be big blind next at table 1" in wrong["reason"]
    assert (move["participant"], move["from_table"], move["to_table"]) == ("q1", 1, 2), balance
    o.act(PlayerMoved(move["participant"], move["from_table"], move["from_seat"], move["to_table"], move["to_seat"],
                      MoveReason.BALANCE, MoveRule(move["rule_applied"]), CHIEF.person), CHIEF)  # fmt: skip
    assert o.get("/balance", CHIEF).json()["balanced"]
    seats["q1"] = (2, move["to_seat"])

    # hand 2/2, q1 dealt in on the big blind: q4 moves all in, q3 calls, q1 folds; q3's aces win the pot of 20,050 —
    # but his hand was dead: the judge's ruling re-awards the pot to q4, and q3 is out (bfsp 2.2.3)
    deal(played(2, 2, at(2, {"q4": 2 * STACK, "q3": STACK, "q1": STACK}), ("q4", "q3", "q1"),
                [("q4", ActionKind.RAISE, 2 * STACK), ("q3", ActionKind.CALL, None), ("q1", ActionKind.FOLD, None)]), 2)
    pot, q4_seat = 2 * STACK + LEVEL_1.big_blind, seats["q4"][1]
    # as the hand was played q3 doubled up: his elimination is refused until the ruling moves the pot (5.10.2)
    early = o.refused(PlayerEliminated("q3", "2/2", EliminationReason.NO_CHIPS, 6, starting_stack=STACK), JUDGE)
    assert early["rule"] == "bfsp 5.10.2" and f"q3 finished hand 2/2 with {pot:,} chips" in early["reason"], early
    ruling = RulingIssued("r-cup-1", "2/2", RulingKind.FINDING_OF_FACT, JUDGE.person, Role.JUDGE, "bfsp 2.2.3",
                          MISREAD, reawards=(PotReaward(0, (PotShare(q4_seat, pot),)),))
    o.act(ruling, JUDGE, table_id="2", hand_id="2")
    o.act(PlayerEliminated("q3", "2/2", EliminationReason.NO_CHIPS, 6, starting_stack=STACK), JUDGE)

    # hand 1/1 (button on table 1's highest seat): q6 all in, q7 folds his small blind, q5 calls and wins
    deal(played(1, 1, at(1, dict.fromkeys(("q7", "q5", "q6"), STACK)), ("q6", "q7", "q5"),
                [("q6", ActionKind.RAISE, STACK), ("q7", ActionKind.FOLD, None), ("q5", ActionKind.CALL, None)]), 1)
    o.act(PlayerEliminated("q6", "1/1", EliminationReason.NO_CHIPS, 5, starting_stack=STACK), JUDGE)
    stacks = {"q4": 2 * STACK + pot - STACK, "q1": STACK - LEVEL_1.big_blind,
              "q5": 2 * STACK + LEVEL_1.small_blind, "q7": STACK - LEVEL_1.small_blind}

    # four left, the final table's size: the Secretary conducts its draw as `pokeraudit draw final-table` computes it
    final_draw = cup_draw("final-table", tuple(sorted(stacks)), "cup final table", "--final-table-size",
                          str(CUP_REGULATIONS.final_table))
    assert o.payload("FinalTableDrawCommitted", {"seed_sha256": final_draw["seed_sha256"]}, SECRETARY)["outcome"] == "accepted"
    final_seats = {k: v for k, v in final_draw.items() if k not in ("type", "seed_sha256", "final_table_size")}
    assert o.payload("FinalTableDrawConducted", final_seats, SECRETARY)["outcome"] == "accepted"
    seats.update({a["participant"]: (a["table"], a["seat"]) for a in final_draw["assignments"]})
    assert {p: seats[p] for p in stacks} == {"q4": (1, 1), "q5": (1, 2), "q1": (1, 3), "q7": (1, 4)}
    # the final table's first hand: all four all in, q4's kings cover and beat them all
    deal(played(1, 2, at(1, stacks), ("q7", "q4", "q5"),
                [("q1", ActionKind.RAISE, stacks["q1"]), ("q7", ActionKind.RAISE, stacks["q7"]),
                 ("q4", ActionKind.RAISE, stacks["q4"]), ("q5", ActionKind.CALL, None)]), 1)
    for place, player in ((4, "q1"), (3, "q7"), (2, "q5")):
        o.act(PlayerEliminated(player, "1/2", EliminationReason.NO_CHIPS, place, starting_stack=stacks[player]), JUDGE)
    ended = o.post("/end", CHIEF)
    assert (ended["closed_by"], ended["winner"]) == (CHIEF.person, "q4")
    final = o.post("/protocol/final", SECRETARY)
    for keeper in (SECRETARY, CHIEF):
        o.post(f"/protocol/snapshots/{final['version']}/signatures", keeper, {"sha256": final["sha256"]})
    html = o.get(f"/protocol/snapshots/{final['version']}", CHIEF, format="html").text
    printed = pdf_text(o.get(f"/protocol/snapshots/{final['version']}", CHIEF, format="pdf").content)
    read = o.get(f"/protocol/snapshots/{final['version']}", CHIEF).json()
    assert read["verification"]["ok"] and [s["person"] for s in read["signatures"]] == [SECRETARY.person, CHIEF.person]
    protocol = read["protocol"]
    [moved] = [m for m in protocol["moves"] if m["type"] == "PlayerMoved"]
    assert (moved["from_table"], moved["from_seat"], moved["to_table"], moved["to_seat"]) == (1, 2, 2, 4)
    [issued] = protocol["rulings"]
    assert issued["reawards"] == [{"pot_index": 0, "half": "", "shares": [{"seat": q4_seat, "amount": pot, "player": "q4"}]}]
    # the move's row: who, from table/seat, to table/seat, the reason, how he was chosen, the rule, who authorised
    # it and who recorded it; the ruling's row: its hand, the official, the rule, the finding and what it re-awarded
    move_row = ("q1", "table 1 seat 2", "table 2 seat 4", "balance", "next big blind", "bfsp 3.1", CHIEF.person,
                f"{CHIEF.person} (chief judge)")
    ruling_row = ("finding of fact", f"{JUDGE.person} (judge)", "bfsp 2.2.3", MISREAD, f"pot 0: q4 (seat {q4_seat}) {pot:,}")
    assert "".join(f"<td>{escape(cell)}</td>" for cell in move_row) in html
    assert '<td>r-cup-1</td><td><a href="#hand-2-2">2/2</a></td>' in html
    assert "".join(f"<td>{escape(cell)}</td>" for cell in ruling_row) in html
    assert " ".join(move_row) in printed
    assert " ".join(("r-cup-1", "2/2", *ruling_row)) in printed
    # the hands list the pot as the ruling left it; the placings follow it: q4 won, q3 went out sixth
    for text in (html, printed):
        assert f"{pot:,} (ruling r-cup-1)" in text
        # the refused move and the early elimination in the annex of rejections, with their reasons
        assert "q1 must move: he would be big blind next at table 1" in text
        assert f"q3 finished hand 2/2 with {pot:,} chips" in text
    assert [(p["place"], p["participant"]) for p in protocol["placings"]][:2] == [(1, "q4"), (2, "q5")]
