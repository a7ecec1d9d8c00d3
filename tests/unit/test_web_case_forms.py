"""The integrity case pages' records as their forms describe them (api/web/integrity_cases.py): a case opened from
an alert carries the alert as the API gave it — players, behaviour, reasons, score and evidence — not what the form
says; evidence hands are named by id or table/number; a field the record cannot be made without is named."""

from __future__ import annotations

from typing import Any

import pytest

from api.auth import Principal
from api.web.integrity_cases import case_envelope, evidence
from api.web.session import Reader
from domain.hand.aggregate import hand_id
from domain.roles import Role
from ingest.envelope import Envelope, decode_event

pytestmark = pytest.mark.unit

ANALYST = Reader(Principal("an-analyst", Role.INTEGRITY), "token")
ALERT: dict[str, Any] = {
    "players": ["P038", "P060"], "score": 5.25, "behaviour": "soft_play", "hands": 41,
    "reasons": ["soft play: 5.2 standard deviations", "chip flow +1,200 from P060 to P038"],
    "evidence": [{"hand_id": str(hand_id("T1", 7, "club")), "reason": "P038 checked the nut flush behind P060",
                  "history": "/v1/hands/x/history"}],
    "pairs": [], "cases": [],
}


def test_a_case_opened_from_an_alert_carries_the_alerts_own_evidence_and_score() -> None:
    record = case_envelope("club", "open", {"case": "c-1", "alert": ALERT, "players": "forged, names"}, ANALYST)
    assert record["type"] == "IntegrityCaseOpened" and record["recorded_by"] == {"person": "an-analyst", "role": "integrity"}
    payload = record["payload"]
    assert payload["players"] == ["P038", "P060"] and payload["score"] == 5.25 and payload["origin"] == "alert"
    assert payload["suspicion"] == "soft_play" and payload["grounds"].startswith("soft play: 5.2")
    assert payload["evidence"] == [{"hand_id": ALERT["evidence"][0]["hand_id"],
                                    "reason": "P038 checked the nut flush behind P060"}]
    decode_event(Envelope.model_validate(record))  # a record the catalog's schema takes


def test_evidence_lines_name_a_hand_by_id_or_table_and_number_then_why() -> None:
    named = str(hand_id("T2", 12, "club"))
    assert evidence("club", f"T2/12 raised behind\n\n{named} again") == [
        {"hand_id": named, "reason": "raised behind"}, {"hand_id": named, "reason": "again"},
    ]
    with pytest.raises(ValueError, match="hands: line 1 names no hand"):
        evidence("club", "hand-twelve why")
    with pytest.raises(ValueError, match="hands: line 2 says why"):
        evidence("club", "T2/1 ok\nT2/12")


@pytest.mark.parametrize(("act", "fields", "field"), [
    ("open", {"players": "a,b", "suspicion": "soft_play", "origin": "proactive"}, "grounds"),
    ("note", {"case": "c-1"}, "note"),
    ("conclude", {"case": "c-1", "outcome": "cleared"}, "reasons"),
    ("report", {"case": "c-1", "participants": "a", "violation": "7.1.4"}, "summary"),
])
def test_a_missing_field_is_named(act: str, fields: dict[str, str], field: str) -> None:
    with pytest.raises(ValueError, match=f"^{field}: required"):
        case_envelope("club", act, fields, ANALYST)


def test_an_act_the_pages_do_not_record_is_refused() -> None:
    with pytest.raises(ValueError, match="not an act of a case"):
        case_envelope("club", "close", {}, ANALYST)
