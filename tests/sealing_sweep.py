"""The every-route sealing sweep (DESIGN decision 12), shared by the embedded test (tests/e2e) and the one on real
Kafka + PostgreSQL (tests/integration): every GET route of the app's OpenAPI schema, read as every role (and
anonymously with public reads on), in every format, must not carry a card or a text the role may not see.

The scenario holds each kind of secret:

* **Minsk Open** (tests/federation_views_scenario.py): violations with descriptions, a judge's ruling with its
  finding, a protest to the federation still open with its grounds (and one decided, published with its
  grounds), two hands played out, a protocol snapshot;
* **Minsk Live** (the same opening, another competition): hand 1 being played, burns recorded, and a board the
  referee refused because it "includes 8s, which was already dealt in this hand" — p01's hole card;
* **open** (no Regulations: hands as imported): a hand played out where Cat folded, Ann showed and Bob mucked
  unshown, burns recorded.

A card is secret where no hand of the scenario made it public (the Minsk Open's cards are all shown somewhere).

The **OFC world** (tests/sealing_sweep_ofc.py, :data:`OFC_WORLD`) is swept on a store of its own: an Open-Face
Chinese table with a scored round's discards and a fantasy hand and unset cards being played (a fresh deck each
round leaves too few cards to keep its secrets apart from the hands' above).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from federation_records import (
    CARDS,
    CHIEF,
    DEALER,
    JUDGE,
    LEVEL_1,
    SECRETARY,
    Records,
    at,
    dealt_in,
    opening,
    seats,
    table,
)
from federation_views_scenario import GROUNDS, minsk_open
from pypdf import PdfReader

from api.auth import issue_token
from domain.cards import parse_cards
from domain.hand.aggregate import hand_id
from domain.hand.events import (
    ActionKind,
    BoardDealt,
    CardBurned,
    ForcedBetKind,
    ForcedBetPosted,
    HandMucked,
    HandShown,
    HandStarted,
    HoleCardsDealt,
    PlayerActed,
    ReportedEvent,
    SeatEntry,
    Stakes,
)
from domain.integrity.case_events import (
    CaseOrigin,
    CaseOutcome,
    EvidenceHand,
    IntegrityCaseConcluded,
    IntegrityCaseNoted,
    IntegrityCaseOpened,
    IntegrityCaseReported,
    Suspicion,
)
from domain.roles import Role
from ingest.envelope import RecordedBy
from ingest.publish import hand_records

MINSK = "minsk-open-2026"
LIVE_COMPETITION = "minsk-live-2026"
OPEN = "open"
OPEN_TABLE = "ended-1"
OPEN_DEALER = RecordedBy(person="dealer-open", role=Role.DEALER)
OPEN_AT = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

#: Minsk Live's hand 1, being played: hole cards, and the burns before the flop and the turn
LIVE_HOLES = {"p01": "8s7s", "p02": "6c5c", "p03": "Kc4s"}
LIVE_BURNS = ("2d", "3c")
LIVE_FLOP = "KhQh2h"
#: the board the referee refuses: p01's hole card
REFUSED_BOARD = "8s"
#: the open competition's hand: Ann shows, Bob mucks unshown, Cat folds; the burns before each street
OPEN_HOLES = {1: "AdAc", 2: "TdTh", 3: "9d9s"}
OPEN_BURNS = ("4h", "5h", "6h")
OPEN_BOARD = ("Jc8c7d", "6s", "2c")

#: officials' words the federation's views withhold from viewers (Minsk Open): two violations' descriptions, a
#: ruling's finding, the open protest's grounds
WITHHELD_TEXTS = (
    "kept his cards after announcing a fold",
    "used his phone at the table",
    "the board was dealt from the top of the deck",
    GROUNDS,
)

#: an integrity case at the Minsk Open, confirmed and reported to its Chief Judge: its words are the integrity
#: team's, the federation's and (reported to him) that Chief Judge's
CASE_TEXTS = (
    "p02 fed his stack to p01 with queens",
    "p02 folds queens to everyone else",
    "the chips went one way on purpose",
    "p02 dumped his stack to p01 in hand 1",
)
READS_CASES = {"integrity", "federation", "chief_judge"}

LIVE_HAND = str(hand_id(table(), 1, LIVE_COMPETITION))
OPEN_HAND = str(hand_id(OPEN_TABLE, 1, OPEN))
MINSK_HANDS = (str(hand_id(table(), 1, MINSK)), str(hand_id(table(), 2, MINSK)))


def _cards(text: str) -> list[str]:
    return [str(c) for c in parse_cards(text)]


def live_hand() -> list[ReportedEvent]:
    """Minsk Live's hand 1 to the turn's burn, and then a turn card that is p01's: refused."""
    where = seats()
    stacks, order = dealt_in(1)
    entries = tuple(sorted((SeatEntry(where[p][1], p, stacks[p]) for p in stacks), key=lambda e: e.seat))
    button, small, big = order
    seat = {p: where[p][1] for p in order}
    started = HandStarted(
        table(), 1, "NT", entries, seat[button],
        Stakes(blinds=((seat[small], LEVEL_1.small_blind), (seat[big], LEVEL_1.big_blind)), min_bet=LEVEL_1.big_blind),
        burns_recorded=True,
    )
    return [
        started,
        ForcedBetPosted(seat[small], ForcedBetKind.SMALL_BLIND, LEVEL_1.small_blind),
        ForcedBetPosted(seat[big], ForcedBetKind.BIG_BLIND, LEVEL_1.big_blind),
        *(HoleCardsDealt(seat[p], parse_cards(LIVE_HOLES[p])) for p in (small, big, button)),
        PlayerActed(seat[button], ActionKind.CALL),
        PlayerActed(seat[small], ActionKind.CALL),
        PlayerActed(seat[big], ActionKind.CHECK),
        CardBurned(parse_cards(LIVE_BURNS[0])[0]),
        BoardDealt(parse_cards(LIVE_FLOP)),
        *(PlayerActed(seat[p], ActionKind.CHECK) for p in (small, big, button)),
        CardBurned(parse_cards(LIVE_BURNS[1])[0]),
        BoardDealt(parse_cards(REFUSED_BOARD)),
    ]


def open_hand() -> list[ReportedEvent]:
    """Three-handed, button on seat 3: Cat folds, Ann and Bob check it down, Ann shows first and wins, Bob mucks."""
    check, call = ActionKind.CHECK, ActionKind.CALL
    streets: list[ReportedEvent] = []
    for burn, board in zip(OPEN_BURNS, OPEN_BOARD, strict=True):
        streets += [CardBurned(parse_cards(burn)[0]), BoardDealt(parse_cards(board)),
                    PlayerActed(1, check), PlayerActed(2, check)]
    return [
        HandStarted(
            OPEN_TABLE, 1, "NT", (SeatEntry(1, "Ann", 1000), SeatEntry(2, "Bob", 1000), SeatEntry(3, "Cat", 1000)), 3,
            Stakes(blinds=((1, 50), (2, 100)), min_bet=100), burns_recorded=True,
        ),
        ForcedBetPosted(1, ForcedBetKind.SMALL_BLIND, 50),
        ForcedBetPosted(2, ForcedBetKind.BIG_BLIND, 100),
        *(HoleCardsDealt(seat, parse_cards(OPEN_HOLES[seat])) for seat in (1, 2, 3)),
        PlayerActed(3, ActionKind.FOLD), PlayerActed(1, call), PlayerActed(2, check),
        *streets,
        HandShown(1, parse_cards(OPEN_HOLES[1])), HandMucked(2),
    ]


#: a judge the Minsk Open appointed and the Minsk Live did not: he reads the Minsk Open as its judge, and the
#: Minsk Live's live hand as anyone not appointed there (DESIGN decision 11)
JUDGE_ELSEWHERE = "judge-of-minsk-open-only"


def _with_a_judge_of_its_own(records: Iterable[tuple[bytes, bytes]]) -> Iterator[tuple[bytes, bytes]]:
    """The Minsk Open's records, its Chief Judge appointing :data:`JUDGE_ELSEWHERE` with the other officials."""
    import json

    from domain.competition.events import OfficialAppointed

    extra = Records(MINSK)
    extra.count = 10_000  # ids of their own
    for key, value in records:
        yield key, value
        body = json.loads(value)
        if body["type"] == "OfficialAppointed" and body["payload"]["role"] == "chief_judge":
            yield extra.record(OfficialAppointed(JUDGE_ELSEWHERE, Role.JUDGE), CHIEF, at(-585))


def integrity_case() -> list[tuple[bytes, bytes]]:
    """The Minsk Open's integrity case on p01 and p02, from its opening to its report to the Chief Judge."""
    records = Records(MINSK)
    records.count = 20_000  # event ids of their own beside the competition's records (and the extra judge's)
    analyst = RecordedBy(person="sweep-integrity", role=Role.INTEGRITY)
    grounds, note, reasons, summary = CASE_TEXTS
    evidence = (EvidenceHand(MINSK_HANDS[0], "p02 shoved queens into ace-king"),)
    acts = (
        IntegrityCaseOpened("case-1", MINSK, ("p01", "p02"), Suspicion.CHIP_DUMPING, CaseOrigin.PROACTIVE, grounds,
                            evidence),
        IntegrityCaseNoted("case-1", note),
        IntegrityCaseConcluded("case-1", CaseOutcome.CONFIRMED, reasons),
        IntegrityCaseReported("case-1", ("p01", "p02"), "7.1.4", chief_judge=CHIEF.person, summary=summary),
    )
    return [records.record(act, analyst, at(300 + n)) for n, act in enumerate(acts)]


def scenario() -> list[tuple[bytes, bytes]]:
    """Every record of the scenario, in log order (keys are competitions: each its own order)."""
    live = Records(LIVE_COMPETITION)
    return [
        *_with_a_judge_of_its_own(minsk_open(Records(MINSK))),
        *integrity_case(),
        *opening(live),
        *hand_records(live_hand(), LIVE_COMPETITION, DEALER, at(10)),
        *hand_records(open_hand(), OPEN, OPEN_DEALER, OPEN_AT),
    ]


#: judged: everything accepted but the refused board
REJECTED = 1


# --- who reads -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reader:
    name: str
    role: Role | None  # None: anonymous (public reads on)
    claims: tuple[tuple[str, str], ...] = ()
    person: str = ""

    def headers(self, secret: str) -> dict[str, str]:
        if self.role is None:
            return {}
        token = issue_token(secret, self.person or f"sweep-{self.name}", self.role, **dict(self.claims))
        return {"Authorization": f"Bearer {token}"}


READERS = (
    Reader("anonymous", None),
    Reader("viewer", Role.VIEWER),
    Reader("dealer-of-the-live-table", Role.DEALER, (("table", table()), ("competition", LIVE_COMPETITION)),
           DEALER.person),
    Reader("dealer-of-the-ended-table", Role.DEALER, (("table", OPEN_TABLE), ("competition", OPEN)),
           OPEN_DEALER.person),
    # the live table's name, another competition's dealer
    Reader("dealer-of-a-same-named-table", Role.DEALER, (("table", table()), ("competition", MINSK)), DEALER.person),
    # the officials both Minsk competitions appointed (an official reads in the offices the records gave him)
    Reader("judge", Role.JUDGE, person=JUDGE.person),
    Reader("chief_judge", Role.CHIEF_JUDGE, person=CHIEF.person),
    Reader("secretary", Role.SECRETARY, person=SECRETARY.person),
    # a judge of the Minsk Open only, his token scoped to no competition: no live card of the Minsk Live
    Reader("judge-appointed-elsewhere", Role.JUDGE, person=JUDGE_ELSEWHERE),
    # a judge no competition appointed: the roles table alone where nobody was appointed (the open hands)
    Reader("judge-appointed-nowhere", Role.JUDGE, person="judge-of-nothing"),
    Reader("federation", Role.FEDERATION),
    Reader("integrity", Role.INTEGRITY),
    # a player of the Minsk Open, his token scoped to it: he reads what a viewer reads
    Reader("participant", Role.PARTICIPANT, (("competition", MINSK),), "person-p01"),
)
SEES_LIVE = {"judge", "chief_judge", "dealer-of-the-live-table"}
SEES_ENDED = {
    "judge", "chief_judge", "integrity", "federation", "dealer-of-the-ended-table", "judge-appointed-elsewhere",
    "judge-appointed-nowhere",
}
READS_GROUNDS = {"judge", "chief_judge", "secretary", "federation", "integrity", "judge-appointed-elsewhere"}


def public_cards() -> set[str]:
    """Every card some hand of the scenario made public: boards, shown hands."""
    shown = {card for hand in CARDS.values() for card in _cards(hand)}
    boards = {card for b in ("Ah9c4d", "Tc", "3h", LIVE_FLOP, *OPEN_BOARD) for card in _cards(b)}
    return shown | boards | set(_cards(OPEN_HOLES[1]))


def secrets(reader: Reader) -> dict[str, str]:
    """What ``reader`` must never read, each with why."""
    found: dict[str, str] = {}
    if reader.name not in SEES_LIVE:
        for player, holes in LIVE_HOLES.items():
            found.update({c: f"{player}'s live hole card" for c in _cards(holes)})
        found.update({c: "a burn of the live hand" for c in LIVE_BURNS})
    if reader.name not in SEES_ENDED:
        found.update({c: "Bob's hand, mucked unshown" for c in _cards(OPEN_HOLES[2])})
        found.update({c: "Cat's folded hand" for c in _cards(OPEN_HOLES[3])})
        found.update({c: "a burn of the ended hand" for c in OPEN_BURNS})
    public = public_cards()
    found = {card: why for card, why in found.items() if card not in public}
    if reader.name not in READS_GROUNDS:
        found.update({text: "an official's withheld text" for text in WITHHELD_TEXTS})
    if reader.name not in READS_CASES:
        found.update({text: "an integrity case's words" for text in CASE_TEXTS})
    return found


# --- every GET route ---------------------------------------------------------------------------------------------

#: each path parameter, the values the scenario gives it (a new route with a new parameter fails the sweep until
#: it is added here: no output escapes it)
PARAMETERS: dict[str, tuple[str, ...]] = {
    "competition_id": (MINSK, LIVE_COMPETITION, OPEN),
    "competition": (MINSK, LIVE_COMPETITION, OPEN),
    "hand_id": (LIVE_HAND, OPEN_HAND, *MINSK_HANDS),
    "protest_id": ("protest-1", "protest-2"),
    "case": ("case-1", "case-2"),
    # a hand by the envelope's number at its table, and by the payloads' TABLE/NUMBER (issue 13)
    "number": ("1", "2"),
    "table_hand": (f"{table()}/1", f"{table()}/2", f"{OPEN_TABLE}/1"),
    "version": ("1",),
    # the season's rating list: places and season disqualifications, public to every reader
    "season": ("2026",),
    # a participant's result document (the competition's end, issue 13)
    "participant": ("p01", "p02"),
}
#: the tables of each competition, for a path that names both
TABLES: dict[str, tuple[str, ...]] = {MINSK: (table(),), LIVE_COMPETITION: (table(),), OPEN: (OPEN_TABLE,)}
#: query parameters that choose what is answered: every value is read
CHOICES: dict[str, tuple[str, ...]] = {"format": ("json", "html", "pdf")}


#: what FastAPI serves of itself: the schema and its documentation pages
OWN_PAGES = frozenset({"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"})


def get_paths(app: Any) -> list[str]:
    """The GET routes the app serves, those left out of the schema (pages) included."""
    # as the schema writes them: ``{table_id:path}`` is ``{table_id}``
    paths = (re.sub(r"{([^}:]+):[^}]+}", r"{\1}", path) for path in _get_paths(app.routes, ""))
    return [path for path in paths if path not in OWN_PAGES]


def _get_paths(routes: Iterable[Any], prefix: str) -> Iterator[str]:
    for route in routes:
        included = getattr(route, "original_router", None)  # FastAPI keeps an included router whole
        if included is not None:
            context = getattr(route, "include_context", None)
            yield from _get_paths(included.routes, prefix + str(getattr(context, "prefix", "") or ""))
        elif "GET" in (getattr(route, "methods", None) or ()):
            yield prefix + route.path


@dataclass(frozen=True)
class World:
    """A scenario's readers, what each may not read, and the values its routes' path parameters take."""

    readers: tuple[Reader, ...]
    secrets: Callable[[Reader], dict[str, str]]
    parameters: dict[str, tuple[str, ...]]
    tables: dict[str, tuple[str, ...]]


#: the scenario above (the Minsk Open, Minsk Live and the open hands)
MINSK_WORLD = World(READERS, secrets, PARAMETERS, TABLES)


def urls(openapi: dict[str, Any], served: Iterable[str] = (), world: World = MINSK_WORLD) -> Iterator[str]:
    """Every URL the sweep reads: each GET route of the schema (and each GET route ``served`` beside it) with
    each value of its path parameters and choices."""
    paths = {path: item.get("get") for path, item in openapi["paths"].items() if item.get("get") is not None}
    for path in served:
        paths.setdefault(path, {})
    for path, operation in paths.items():
        names = re.findall(r"{([^}:]+)(?::path)?}", path)
        queries = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"}
        for values in _fillings(path, names, world):
            url = path
            for name, value in values.items():
                url = re.sub(r"{" + name + r"(?::path)?}", quote(value, safe=""), url)
            tails = [{}]
            for query in sorted(queries & set(CHOICES)):
                tails = [{**t, query: v} for t in tails for v in CHOICES[query]]
            for tail in tails:
                if "limit" in queries:
                    tail = {**tail, "limit": "500"}
                query = "&".join(f"{k}={v}" for k, v in tail.items())
                yield f"{url}?{query}" if query else url


def _fillings(path: str, names: list[str], world: World) -> Iterator[dict[str, str]]:
    unknown = [n for n in names if n not in world.parameters and n != "table_id"]
    if unknown:
        raise AssertionError(
            f"the sealing sweep does not know how to fill {unknown} of GET {path}: give it values in "
            "tests/sealing_sweep.py PARAMETERS so the route is swept"
        )
    if not names:
        yield {}
        return
    choices: list[dict[str, str]] = [{}]
    for name in names:
        if name == "table_id":
            choices = [
                {**c, name: t} for c in choices
                for t in world.tables[c.get("competition_id") or c.get("competition") or OPEN]
            ]
        else:
            choices = [{**c, name: v} for c in choices for v in world.parameters[name]]
    yield from choices


# --- reading what came back ---------------------------------------------------------------------------------------


def readable(content_type: str, body: bytes) -> str:
    """The text a reader gets: JSON and HTML as sent, a PDF's text as pypdf reads it back (the PDF embeds its font,
    each glyph mapped to its letter; the lines of one wrapped cell joined by spaces, as they read)."""
    if "application/pdf" not in content_type:
        return body.decode("utf-8", "replace")
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(body)).pages)


def found_in(text: str, secret: str) -> bool:
    if len(secret) == 2:  # a card: alone or run together with others ("8s7s"), never inside a word or an id
        return re.search(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][cdhs])*" + re.escape(secret)
                         + r"(?:[2-9TJQKA][cdhs])*(?![A-Za-z0-9])", text) is not None
    return " ".join(secret.split()) in " ".join(text.split())


@dataclass(frozen=True)
class Read:
    status: int
    content_type: str
    body: bytes


@dataclass
class Swept:
    #: (reader, URL, what, why) of every secret read by a reader who may not read it
    leaks: list[str]
    #: every secret of the scenario → the readers who read it somewhere (the detector's own check: each secret is
    #: there to be found by those who may see it)
    seen: dict[str, set[str]]
    #: answers with 200
    answered: int


def all_secrets(world: World = MINSK_WORLD) -> set[str]:
    return {what for reader in world.readers for what in world.secrets(reader)}


def sweep(
    openapi: dict[str, Any],
    get: Callable[[str, dict[str, str]], Read],
    secret: str,
    served: Iterable[str] = (),
    world: World = MINSK_WORLD,
) -> Swept:
    """Every URL as every reader of ``world`` (``served``: the app's GET routes, :func:`get_paths`)."""
    swept = Swept([], {what: set() for what in all_secrets(world)}, 0)
    every = list(urls(openapi, served, world))
    for reader in world.readers:
        headers = reader.headers(secret)
        forbidden = world.secrets(reader)
        for url in every:
            read = get(url, headers)
            assert read.status < 500, f"{reader.name} GET {url}: {read.status} {read.body[:300]!r}"
            if read.status != 200:
                continue
            swept.answered += 1
            text = readable(read.content_type, read.body)
            for what in swept.seen:
                if found_in(text, what):
                    swept.seen[what].add(reader.name)
                    if what in forbidden:
                        swept.leaks.append(f"{reader.name} GET {url}: {what} ({forbidden[what]})")
    return swept


# --- the OFC world (tests/sealing_sweep_ofc.py) ------------------------------------------------------------------


def _ofc_world() -> World:
    import sealing_sweep_ofc as ofc

    readers = (
        *(r for r in READERS if not r.name.startswith("dealer")),
        Reader("dealer-of-the-ofc-table", Role.DEALER, (("table", ofc.TABLE), ("competition", ofc.COMPETITION)),
               ofc.DEALER.person),
        # another competition's dealer at a table of the same name
        Reader("dealer-of-a-same-named-ofc-table", Role.DEALER, (("table", ofc.TABLE), ("competition", OPEN)),
               ofc.DEALER.person),
    )
    # the OFC event adopted no Regulations and appointed nobody: every judge reads by the roles table alone
    # (README's API section), those appointed elsewhere or nowhere included
    judges = {"judge", "chief_judge", "judge-appointed-elsewhere", "judge-appointed-nowhere"}
    sees_live = {*judges, "dealer-of-the-ofc-table"}
    sees_ended = {*judges, "integrity", "federation", "dealer-of-the-ofc-table"}

    def ofc_secrets(reader: Reader) -> dict[str, str]:
        found: dict[str, str] = {}
        if reader.name not in sees_ended:
            found.update({c: "a discard of round 1" for c in ofc.ROUND_1_DISCARDS})
        if reader.name not in sees_live:
            found.update(dict(ofc.live_secrets()))
        public = ofc.public_cards()
        return {card: why for card, why in found.items() if card not in public}

    parameters = {
        "competition_id": (ofc.COMPETITION,), "competition": (ofc.COMPETITION,), "hand_id": (), "protest_id": (), "case": (),
        "number": ("1", "2"), "table_hand": (f"{ofc.TABLE}/1", f"{ofc.TABLE}/2"), "version": ("1",),
        "season": ("2026",), "participant": (),
    }
    return World(readers, ofc_secrets, parameters, {ofc.COMPETITION: (ofc.TABLE,)})


#: an OFC table: a scored round's discards, a fantasy hand and unset cards being played
OFC_WORLD = _ofc_world()
