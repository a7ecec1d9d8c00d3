"""The web app's pieces that decide something without a browser: the replayer's steps and pots, the CSV
export, an official's act as a record, and the forms' CSRF check."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.requests import Request

from api.auth import Principal
from api.settings import Settings
from api.web import replay
from api.web.grid import Cell, Grid
from api.web.officials import envelope
from api.web.session import CSRF_COOKIE, Csrf, CsrfRefused, Reader
from domain.roles import Role


def _hand() -> dict[str, Any]:
    seats = [{"seat": s, "player": p, "starting_stack": st} for s, p, st in ((1, "Ann", 100), (2, "Bob", 300), (3, "Cy", 300))]
    return {"seats": seats}


def _entry(version: int, kind: str, **payload: Any) -> dict[str, Any]:
    return {"version": version, "type": kind, "payload": payload, "recorded_by": "d", "role": "dealer",
            "rule": "", "reading": "", "ruling": False, "at": "", "seq": version - 1}


def _stacks(version: int, kind: str, committed: dict[int, int]) -> dict[str, Any]:
    start = {1: 100, 2: 300, 3: 300}
    return {"version": version, "type": kind,
            "seats": [{"seat": s, "stack": start[s] - c, "committed": c} for s, c in committed.items()]}


def test_the_replayer_builds_live_side_pots_with_who_is_eligible_then_shows_the_awarded_ones() -> None:
    history = [
        _entry(1, "HandStarted"),
        _entry(2, "HoleCardsDealt", seat=1, cards=["??", "??"]),
        _entry(3, "PlayerActed", seat=1, action="raise", amount=100),  # Ann all-in for 100
        _entry(4, "PlayerActed", seat=2, action="raise", amount=300),  # Bob all-in for 300
        _entry(5, "PlayerActed", seat=3, action="fold"),
        _entry(6, "PotAwarded", pot_index=0, amount=200, shares=[{"seat": 1, "amount": 200}]),
    ]
    stacks = [
        _stacks(1, "HandStarted", {1: 0, 2: 0, 3: 0}),
        _stacks(2, "HoleCardsDealt", {1: 0, 2: 0, 3: 0}),
        _stacks(3, "PlayerActed", {1: 100, 2: 0, 3: 0}),
        _stacks(4, "PlayerActed", {1: 100, 2: 300, 3: 0}),
        _stacks(5, "PlayerActed", {1: 100, 2: 300, 3: 0}),
        _stacks(6, "PotAwarded", {1: 100, 2: 300, 3: 0}),
    ]
    awarded = [{"name": "main pot", "half": "", "amount": 200, "eligible": [1, 2], "shares": [{"seat": 1, "amount": 200}],
                "uncalled": False, "winning_hand": "two pair"}]
    steps = replay.steps(_hand(), history, stacks, awarded)
    assert [s["version"] for s in steps] == [1, 2, 3, 4, 5, 6]
    assert steps[1]["seats"][0]["cards"] == ["??", "??"]  # as the API sealed them
    assert steps[3]["pots"] == [
        {"name": "main pot", "amount": 200, "eligible": [1, 2], "shares": []},
        {"name": "uncalled bet", "amount": 200, "eligible": [2], "shares": []},
    ]
    assert steps[4]["seats"][2]["folded"] and steps[4]["seats"][1]["stack"] == 0
    assert steps[5]["pots"][0]["shares"] == [{"seat": 1, "amount": 200}]
    assert steps[2]["says"] == "seat 1 (Ann) raise 100"


def test_a_csv_export_has_the_columns_and_rows_and_no_cell_a_spreadsheet_would_run() -> None:
    import csv
    import io

    grid = Grid("x", "X", ["player", "stack", "note"])
    grid.add(Cell('=HYPERLINK("http://evil")'), -250, "+1 call")
    grid.add("Ann", 1200, None)
    assert list(csv.reader(io.StringIO(grid.csv()))) == [
        ["player", "stack", "note"],
        ['\'=HYPERLINK("http://evil")', "-250", "'+1 call"],
        ["Ann", "1200", ""],
    ]


def _reader(role: Role) -> Reader:
    return Reader(Principal(person="cj", role=role), "token")


def test_an_officials_ruling_is_a_record_signed_by_him_and_a_bad_field_is_named() -> None:
    record = envelope("c1", "ruling", {"hand": "T2/14", "kind": "chief_judge_decision", "rule": "bfsp 2.1.6",
                                       "finding": "the call stands"}, _reader(Role.CHIEF_JUDGE))
    assert record["type"] == "RulingIssued" and (record["table_id"], record["hand_id"]) == ("T2", "14")
    assert record["payload"]["hand"] == "T2/14" and record["payload"]["official"] == "cj"
    assert record["recorded_by"] == {"person": "cj", "role": "chief_judge"}
    with pytest.raises(ValueError, match="^hand: a hand is named <table>/<number>"):
        envelope("c1", "ruling", {"hand": "T2", "kind": "x", "rule": "r", "finding": "f"}, _reader(Role.JUDGE))
    with pytest.raises(ValueError, match="^reasons: required"):
        envelope("c1", "decision", {"protest": "protest-1", "decision": "upheld"}, _reader(Role.CHIEF_JUDGE))
    with pytest.raises(ValueError, match="^violation: a whole number"):
        envelope("c1", "penalty", {"participant": "P1", "violation": "one", "kind": "warning"}, _reader(Role.JUDGE))
    with pytest.raises(ValueError, match="^act: 'coffee'"):
        envelope("c1", "coffee", {}, _reader(Role.JUDGE))


def _request(cookie: str | None, origin: str | None = None) -> Request:
    headers = [(b"host", b"127.0.0.1:8000")]
    if cookie:
        headers.append((b"cookie", f"{CSRF_COOKIE}={cookie}".encode()))
    if origin:
        headers.append((b"origin", origin.encode()))
    scope = {"type": "http", "method": "POST", "path": "/web/x", "headers": headers, "scheme": "http",
             "server": ("127.0.0.1", 8000), "query_string": b"", "state": {}}
    return Request(scope)


def test_a_form_passes_only_with_this_browsers_token_from_this_site() -> None:
    csrf = Csrf(Settings(POKERAUDIT_JWT_SECRET="k" * 32))  # type: ignore[call-arg]
    token = csrf.token(_request("browser-1"))
    first_visit = _request(None)
    assert csrf.token(first_visit) == csrf.token(first_visit)  # one value per request until its cookie is set
    csrf.verify(_request("browser-1"), token)
    csrf.verify(_request("browser-1", "http://127.0.0.1:8000"), token)
    for request, sent in (
        (_request("browser-2"), token),  # another browser's cookie
        (_request(None), token),  # no cookie
        (_request("browser-1"), ""),  # no token
        (_request("browser-1", "https://elsewhere.example"), token),  # another site's form
    ):
        with pytest.raises(CsrfRefused):
            csrf.verify(request, sent)
